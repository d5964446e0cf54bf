#pragma once

#include "data/sweeptable.h"
#include "data/tritonsettings.h"
#include "sim/scenario.h"
#include "util/canceltoken.h"
#include "util/expected.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bs::analysis {

/// The Triton model settings a row ran under (data/tritonsettings.h).
using TritonModelSettings = data::TritonModelSettings;

/// predicted / measured - 1 of each figure.
struct PerfAnalyzerResiduals
{
    double throughput = 0.0;
    double central = 0.0; ///< p50, or the mean where the sweep states no p50.
    double p99 = 0.0;
};

/// One perf_analyzer row, measured and predicted. Throughput is in inferences (items) per
/// second, latencies in seconds, as perf_analyzer's client measures them (end to end).
struct PerfAnalyzerRowCheck
{
    std::size_t row = 0; ///< Index in the sweep's points.
    std::string series;
    int batchItems = 1;           ///< Items per request (perf_analyzer -b).
    int concurrency = 0;          ///< Clients of a concurrency run; 0 for a request-rate run.
    double requestRatePerS = 0.0; ///< Requests offered per second of a request-rate run, else 0.
    double measuredItemsPerS = 0.0;
    double predictedItemsPerS = 0.0;
    /// The typical latency: p50, or the mean where the sweep states no p50 (Model Analyzer's
    /// checkpoints keep perf_analyzer's mean, p90, p95 and p99 only).
    bool centralIsMean = false;
    double measuredCentralS = 0.0;
    double predictedCentralS = 0.0;
    double measuredP99S = 0.0;
    double predictedP99S = 0.0;
    double predictedMeanBatchRequests = 0.0;
    /// The row is its series' no-load row (NoLoadCalibration): its own scheduling time and
    /// jitter went into its prediction, so it is partly in-sample.
    bool calibratesSeries = false;

    PerfAnalyzerResiduals residuals() const;
    /// "p50" or "mean": which statistic measuredCentralS is.
    const char* centralName() const { return centralIsMean ? "mean" : "p50"; }
};

/// How large the relative errors of one figure are over the rows.
struct ResidualSpread
{
    double medianAbs = 0.0; ///< Median of |predicted / measured − 1|.
    double worstAbs = 0.0;  ///< Largest |predicted / measured − 1|.
};

/// The spread of each figure's errors: what a reviewer quotes ("p99 within 6% at the median").
struct PerfAnalyzerResidualSummary
{
    ResidualSpread throughput, central, p99;
};

struct PerfAnalyzerValidation
{
    std::vector<PerfAnalyzerRowCheck> rows;
    std::vector<std::string> assumptions; ///< Every setting assumed, in words, for the user.
};

/// What a series measured with no request waiting for another: its row with one request in
/// flight (the smallest batch), or a request-rate row that keeps the server under 5% busy.
/// There the server queue column is Triton's own scheduling time, not a queue, and the spread
/// of the latency is the jitter of the time outside the server. Both are then applied to every
/// row of the series (core/accel/README.md, "Predicting a perf_analyzer sweep").
struct NoLoadCalibration
{
    std::size_t row = 0;     ///< Index of the no-load row in the sweep's points.
    double schedulerS = 0.0; ///< Its server queue column.
    /// Mean of the exponential part of the time outside the server, (p99 − mean) / (ln 100 −
    /// 1) of the no-load row, at most that time; the rest of it is fixed. Empty when the row
    /// states no mean latency: the whole time outside is then taken as exponential.
    std::optional<double> jitterMeanS;
};

/// The no-load row of each series that has one, by series name.
std::map<std::string, NoLoadCalibration> noLoadCalibrations(const data::SweepTable& sweep);

/// The scenario of one perf_analyzer row (core/accel/README.md, "Predicting a perf_analyzer
/// sweep"): a concurrency row's clients as a closed loop whose requests spend the row's client
/// send + network + client receive outside the server, or a request-rate row's arrivals at its
/// rate (`distribution`); its server compute input / infer / output as copy-in, compute and
/// copy-out of every batch; one server per model instance. A request-rate row's time outside
/// the server is not in the scenario: validatePerfAnalyzer adds it to the predicted latencies.
/// With the series' `calibration`, a closed loop's time outside the server is its fixed part
/// plus the scheduling time, and an exponential part of the calibrated jitter. Errors name the
/// row and the column that is missing.
Expected<sim::Scenario> perfAnalyzerRowScenario(
    const data::SweepPoint& row, std::size_t index, const TritonModelSettings& settings,
    std::uint64_t requests,
    data::RequestDistribution distribution = data::RequestDistribution::Constant,
    const NoLoadCalibration* calibration = nullptr);

/// Predicts every row of `sweep` from its own server columns and compares with what it
/// measured. A row runs under the settings the sweep states for its series (a Model Analyzer
/// checkpoint's model configurations), else under `settings`. `requests` measured requests per
/// replication, 5 replications per row.
Expected<PerfAnalyzerValidation> validatePerfAnalyzer(const data::SweepTable& sweep,
                                                      const TritonModelSettings& settings,
                                                      std::uint64_t requests,
                                                      const CancelToken& cancel = CancelToken());

/// Median and worst |error| of throughput, p50 and p99 over the validation's rows.
PerfAnalyzerResidualSummary summarizeResiduals(const PerfAnalyzerValidation& validation);

/// The assumptions behind perfAnalyzerRowScenario for these settings, in words.
std::vector<std::string> perfAnalyzerAssumptions(const TritonModelSettings& settings);

/// The assumptions behind validatePerfAnalyzer on `sweep`: the load kinds its rows use, and the
/// settings of each series, saying which the sweep stated and which were given.
std::vector<std::string> perfAnalyzerAssumptions(const data::SweepTable& sweep,
                                                 const TritonModelSettings& given);

} // namespace bs::analysis
