#pragma once

#include "data/llmrun.h"
#include "llmsim/llmscenario.h"
#include "util/canceltoken.h"
#include "util/expected.h"
#include "util/progress.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bs {
class ThreadPool;
}

namespace bs::llmsim {

/// The figures a rate-sweep run reports and the fit compares; NaN where a file keeps none.
struct RateSweepFigures
{
    double ttftP50Ms = 0.0;
    double itlP50Ms = 0.0;
    double e2eMeanMs = 0.0;
    double outputTokensPerS = 0.0;
};

/// One measured run of a rate sweep (a benchmark client at one request rate).
struct RateSweepPoint
{
    std::string label; ///< "4 req/s (random)": the rate and the run's dataset.
    double ratePerS = 0.0;
    std::int64_t requests = 0;
    RateSweepFigures measured;
    double meanPromptTokens = 0.0; ///< From the run's totals (or token rates); NaN if neither.
    double meanOutputTokens = 0.0;
};

/// A run the fit or the prediction left out, and why.
struct RateSweepOmission
{
    std::string label;
    std::string reason;
};

/// The runs of a benchmark file that a scenario can stand for: a request rate and a completed
/// count, and (where the file keeps totals) mean prompt and output lengths within 25% of the
/// scenario's, since one scenario states one length distribution. The others go to `omitted`.
std::vector<RateSweepPoint> rateSweepPoints(const data::LlmRunSet& runs,
                                            const LlmScenario& scenario,
                                            std::vector<RateSweepOmission>& omitted);

/// A sweep point simulated: the scenario at the point's rate and request count.
struct RateSweepComparison
{
    RateSweepPoint point;
    RateSweepFigures simulated;
};

/// Empty when the fit can calibrate the scenario: a roofline step, Poisson arrivals (each run is
/// replayed at its rate with the scenario's lengths), one replica; else why not.
Status canCalibrateOnRateSweep(const LlmScenario& scenario);

/// Simulates every point under `scenario` (its Poisson arrivals at each point's rate and count),
/// the points side by side on `pool` (a fit passes one for its hundred-odd sweeps; without one,
/// the call makes its own).
Expected<std::vector<RateSweepComparison>>
predictRateSweep(const LlmScenario& scenario, const std::vector<RateSweepPoint>& points,
                 const std::string& baseDirectory, CancelToken cancel = CancelToken(),
                 ThreadPool* pool = nullptr);

/// Root mean square of ln(simulated / measured) over every figure both sides have.
double rateSweepLogRms(const std::vector<RateSweepComparison>& comparisons);

/// The roofline step calibrated on a measured rate sweep (README.md: "Calibrating the
/// roofline on a rate sweep").
struct RooflineRateFit
{
    StepSpec step; ///< The scenario's roofline with eta_compute, eta_memory, per-seq time fitted.
    double statedEtaCompute = 0.0, statedEtaMemory = 0.0, statedPerSeqMs = 0.0;
    double statedClientMs = 0.0;                  ///< The step's client_overhead_ms before the fit.
    std::vector<RateSweepComparison> comparisons; ///< At the fitted step.
    double logRms = 0.0;                          ///< Over `comparisons`.
    double statedLogRms = 0.0;                    ///< The same points on the stated step.
    int evaluations = 0;                          ///< Sweeps simulated.
    /// A parameter the sweep does not pin (no figure moves 1% when it moves 10%), kept as
    /// stated; said in `warnings` too.
    bool etaComputePinned = true, etaMemoryPinned = true, perSeqPinned = true;
    /// Whether a run has a TTFT p50 or mean E2E to pin the time outside the server.
    bool clientPinned = true;
    std::vector<std::string> warnings;
};

/// Fits the roofline's achievable fractions of peak compute and memory bandwidth (each in
/// (0, 1)), its host time per scheduled sequence (overhead_per_seq_ms) and the time a request
/// spends outside the server (client_overhead_ms) so that the scenario, replayed at each
/// point's rate, reproduces the measured median TTFT, median ITL, mean end-to-end latency and
/// output tokens/s: Nelder-Mead on a robust sum of log ratios over the logits of the fractions
/// and the logarithm of the time, from the stated values; at each point of that search the
/// client time is solved for directly (it shifts TTFT and E2E alone, so it needs no
/// simulation), between 0 and the smallest measured TTFT or E2E. The scenario
/// must have a roofline step and Poisson arrivals, and there must be two points or more.
/// `progress` counts the sweeps simulated (about 110).
Expected<RooflineRateFit> fitRooflineOnRateSweep(const LlmScenario& scenario,
                                                 const std::vector<RateSweepPoint>& points,
                                                 const std::string& baseDirectory,
                                                 CancelToken cancel = CancelToken(),
                                                 Progress& progress = Progress::null());

} // namespace bs::llmsim
