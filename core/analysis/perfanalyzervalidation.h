#pragma once

#include "data/sweeptable.h"
#include "sim/scenario.h"
#include "util/canceltoken.h"
#include "util/expected.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bs::analysis {

/// The Triton model settings a perf_analyzer sweep ran under. Its CSV does not state them, so
/// the caller gives them (from the model's config.pbtxt); the defaults are Triton's own.
struct TritonModelSettings
{
    int instances = 1;     ///< instance_group count on the GPU (Triton's default: 1).
    int maxBatchItems = 0; ///< max_batch_size with dynamic batching; 0: none, requests run alone.
    std::vector<int> preferredBatchItems; ///< dynamic_batching preferred_batch_size.
    double maxQueueDelayS = 0.0;          ///< dynamic_batching max_queue_delay_microseconds.
};

/// predicted / measured - 1 of each figure.
struct PerfAnalyzerResiduals
{
    double throughput = 0.0;
    double p50 = 0.0;
    double p99 = 0.0;
};

/// One perf_analyzer row, measured and predicted. Throughput is in inferences (items) per
/// second, latencies in seconds, as perf_analyzer's client measures them (end to end).
struct PerfAnalyzerRowCheck
{
    std::size_t row = 0; ///< Index in the sweep's points.
    std::string series;
    int batchItems = 1; ///< Items per request (perf_analyzer -b).
    int concurrency = 1;
    double measuredItemsPerS = 0.0;
    double predictedItemsPerS = 0.0;
    double measuredP50S = 0.0;
    double predictedP50S = 0.0;
    double measuredP99S = 0.0;
    double predictedP99S = 0.0;
    double predictedMeanBatchRequests = 0.0;

    PerfAnalyzerResiduals residuals() const;
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
    ResidualSpread throughput, p50, p99;
};

struct PerfAnalyzerValidation
{
    std::vector<PerfAnalyzerRowCheck> rows;
    std::vector<std::string> assumptions; ///< Every setting assumed, in words, for the user.
};

/// The closed-loop scenario of one perf_analyzer row (core/accel/README.md, "Predicting a
/// perf_analyzer sweep"): the row's concurrency as clients, its client send + network + client
/// receive as each request's overhead, its server compute input / infer / output as copy-in,
/// compute and copy-out of every batch, and one server per model instance. Errors name the row
/// and the column that is missing.
Expected<sim::Scenario> perfAnalyzerRowScenario(const data::SweepPoint& row, std::size_t index,
                                                const TritonModelSettings& settings,
                                                std::uint64_t requests);

/// Predicts every row of `sweep` from its own server columns and compares with what it
/// measured. `requests` measured requests per replication, 5 replications per row.
Expected<PerfAnalyzerValidation> validatePerfAnalyzer(const data::SweepTable& sweep,
                                                      const TritonModelSettings& settings,
                                                      std::uint64_t requests,
                                                      const CancelToken& cancel = CancelToken());

/// Median and worst |error| of throughput, p50 and p99 over the validation's rows.
PerfAnalyzerResidualSummary summarizeResiduals(const PerfAnalyzerValidation& validation);

/// The assumptions behind perfAnalyzerRowScenario for these settings, in words.
std::vector<std::string> perfAnalyzerAssumptions(const TritonModelSettings& settings);

} // namespace bs::analysis
