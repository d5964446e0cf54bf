#pragma once

#include "data/sweeptable.h"
#include "playbook/comparison.h"

#include <optional>
#include <string>
#include <vector>

namespace bs::playbook {

/// Candidate minus baseline at one operating point that both sweeps measured. Each Delta comes
/// from compare() on the point's values (sweepThroughput, sweepPercentile,
/// sweepEnergyPerInference), so it carries both sides, the absolute and the relative change
/// and its 95% interval. A metric one side does not report has a NaN delta; a zero baseline
/// gives a NaN relative change (undefined, not infinite).
struct SweepPointDelta
{
    int batch = 1;
    std::optional<double> concurrency; ///< Set when the points were matched on it.
    /// Each side's offered request rate (requests/s), when its sweep reports one.
    std::optional<double> baselineLoadPerS;
    std::optional<double> candidateLoadPerS;
    /// Both sides report an offered rate and they differ by more than kSameLoadRelative: the
    /// deltas mix the change of load with the change of system, so they must not be shown as
    /// the candidate's effect (the Δ view leaves them out and names them).
    bool loadsDiffer = false;
    Delta throughputPerS; ///< Inferences/s.
    Delta latencyP50S;
    Delta latencyP99S;
    Delta energyPerInferenceJ; ///< Measured, or power ÷ throughput.
};

/// A row of one sweep that has no partner in the other.
struct UnmatchedSweepPoint
{
    enum class Side
    {
        Baseline,
        Candidate,
    };
    enum class Reason
    {
        NoPartner, ///< The other sweep has no row at this batch size (and concurrency).
        Repeated,  ///< An earlier row of the same sweep has the same batch, concurrency and load.
    };
    Side side = Side::Baseline;
    Reason reason = Reason::NoPartner;
    int batch = 1;
    std::optional<double> concurrency;
    /// "batch 16, concurrency 4: no candidate point", "batch 8: repeated in the baseline, only
    /// its first row is compared".
    std::string text;
};

/// Two sweeps matched point by point.
struct SweepDeltas
{
    /// True when both sweeps report a concurrency, so points match on batch size and
    /// concurrency; false: on batch size alone.
    bool matchedOnConcurrency = false;
    std::vector<SweepPointDelta> points; ///< Increasing batch, then concurrency, then load.
    /// True when both sweeps report offered request rates, so loads were compared.
    bool loadsCompared = false;
    /// Baseline side, then candidate side; on each side the rows without a partner (in key
    /// order), then the repeated rows (in file order).
    std::vector<UnmatchedSweepPoint> unmatched;
};

/// Offered rates within this fraction of each other count as the same load.
inline constexpr double kSameLoadRelative = 0.01;

/// Matches the rows of two sweeps that share a batch size and, when both sweeps report one, a
/// concurrency; among the rows of such a key, a baseline row is paired with the candidate row at
/// the same offered request rate (within kSameLoadRelative). Rows of a key left over on both
/// sides are paired in order of load and marked loadsDiffer, so a Δ across different offered
/// loads is never taken for the candidate's effect. A later row with the same key and load as
/// an earlier one of its sweep, and rows without a partner, are listed as unmatched. Unlike
/// pairByBatch(), which
/// keeps one row per batch size for the playbook's per-batch slices, every row is accounted
/// for. `practicalDelta` is compare()'s threshold for calling a change significant.
SweepDeltas sweepDeltas(const data::SweepTable& baseline, const data::SweepTable& candidate,
                        double practicalDelta);

/// "batch 8" or "batch 8, concurrency 4" (concurrency in up to 6 significant digits).
std::string sweepPointLabel(int batch, const std::optional<double>& concurrency);

} // namespace bs::playbook
