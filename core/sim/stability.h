#pragma once

#include "sim/arrivalprocess.h"
#include "sim/result.h"
#include "sim/servicemodel.h"

#include <string>
#include <vector>

namespace bs::sim {

/// Offered load against capacity, before anything is simulated. Capacity is
/// servers.count * max over allowed batch sizes b of b / sustainedServiceS(b) (static: only its
/// batch). rho >= 1 is unstable: the queue grows without bound, so a simulated p99 would only
/// measure how long the run was (a replay that does not loop is finite and only gets a warning).
/// Near-saturation and transient overload (a burst state or a
/// profile peak above capacity) add warnings. `replays[s]` is the replay of stream s or null.
Stability assessStability(const Scenario& scenario, const ServiceModel& service,
                          const std::vector<const ReplayTimes*>& replays,
                          std::vector<std::string>& warnings);

/// The key a user changes to lower the load: the arrival rate (or the streams). Messages about
/// overload start with it.
std::string offeredLoadKey(const Scenario& scenario);

} // namespace bs::sim
