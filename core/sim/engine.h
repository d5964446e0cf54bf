#pragma once

#include "sim/arrivalring.h"
#include "sim/recorder.h"
#include "sim/scenario.h"
#include "sim/servicemodel.h"

#include <cstdint>
#include <functional>
#include <string>

namespace bs::sim {

/// What an engine needs for one replication. Everything it touches is owned by that
/// replication, except the immutable scenario and service model.
struct EngineSetup
{
    const Scenario* scenario = nullptr;
    const ServiceModel* service = nullptr;
    std::uint64_t seed = 0; ///< The replication seed.
    ArrivalRing* arrivals = nullptr;
    Recorder* recorder = nullptr;
    /// Called about every kTickRequests dispatched requests with the count since the last call;
    /// returns false when the run is cancelled.
    std::function<bool(std::uint64_t)> tick;
};

/// How a replication ended.
struct EngineOutcome
{
    enum class State
    {
        Done,
        Unstable, ///< The queue outgrew scenario.max_queue_requests.
        Cancelled,
        NoEnd, ///< Requests that can never be dispatched (static batch, finite replay).
    };
    State state = State::Done;
    std::string message;
};

/// Dispatched requests between two EngineSetup::tick calls. Small enough that Cancel acts within
/// 100 ms even for the slowest accepted scenario (a request costs at most a few hundred MMPP
/// switches, see scenarioread.cpp), large enough that the atomic count costs nothing measurable.
inline constexpr std::uint64_t kTickRequests = 4096;

} // namespace bs::sim
