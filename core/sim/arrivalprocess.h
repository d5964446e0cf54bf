#pragma once

#include "sim/scenario.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace bs::sim {

/// Replay timestamps prepared once per run and shared, read-only, by every replication: rebased
/// so the first request is at t = 0 and rescaled to the target rate. A looped copy starts one
/// mean gap after the previous copy's last request, so looping keeps the mean rate n / periodS.
struct ReplayTimes
{
    std::vector<double> timesS;
    double periodS = 0.0;
    bool loop = true;

    double meanRatePerS() const { return double(timesS.size()) / periodS; }
};

/// A source of arrival times for one stream of one replication.
class ArrivalProcess
{
public:
    virtual ~ArrivalProcess() = default;
    /// Writes the next n arrival times (seconds, non-decreasing) to out. A replay that does not
    /// loop writes +infinity once its timestamps are used up.
    virtual void generate(double* out, std::size_t n) = 0;
};

/// The process of `spec` for one replication; random streams come from (replicationSeed,
/// kFirstArrivalStream + stream). `replay` must be set for replay arrivals. Closed-loop arrivals
/// have no process of their own (they follow completions): nullptr.
std::unique_ptr<ArrivalProcess> makeArrivalProcess(const ArrivalSpec& spec,
                                                   const ReplayTimes* replay,
                                                   std::uint64_t replicationSeedValue,
                                                   std::uint64_t stream);

/// Long-run mean arrival rate of `spec` (req/s), the profile included.
double meanRatePerS(const ArrivalSpec& spec, const ReplayTimes* replay);
/// The highest rate over time (req/s): a high MMPP state or a profile's peak.
double peakRatePerS(const ArrivalSpec& spec, const ReplayTimes* replay);

} // namespace bs::sim
