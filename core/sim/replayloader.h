#pragma once

#include "sim/arrivalprocess.h"
#include "util/canceltoken.h"
#include "util/expected.h"
#include "util/progress.h"

#include <memory>
#include <string>

namespace bs::sim {

/// Prepares the timestamps of a replay stream: inline times_s, or the request trace `file`
/// (resolved against baseDirectory when relative) read by io::readDataset. Checks that there
/// are at least 2 timestamps, that they never decrease and that they span some time; rebases
/// them to start at 0, rescales them to rate_per_s when given and sets the loop period.
/// `where` is the dotted key of the arrivals object, for messages.
Expected<std::shared_ptr<const ReplayTimes>>
prepareReplay(const ArrivalSpec& spec, const std::string& where, const std::string& baseDirectory,
              Progress& progress, const CancelToken& cancel);

/// Rebases, checks and rescales raw timestamps (the part of prepareReplay after reading).
/// `origin` names where they came from ("scenario.arrivals.times_s" or the file) in messages.
Expected<std::shared_ptr<const ReplayTimes>> replayFromTimes(std::vector<double> timesS,
                                                             const ArrivalSpec& spec,
                                                             const std::string& origin,
                                                             const std::string& path);

} // namespace bs::sim
