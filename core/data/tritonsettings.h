#pragma once

#include "data/sweeptable.h"

#include <optional>
#include <string>
#include <vector>

namespace bs::data {

/// The Triton model settings a perf_analyzer run was measured under. A perf_analyzer CSV does
/// not state them (the user gives them, or the model's config.pbtxt); a Model Analyzer
/// checkpoint states each configuration's own. The defaults are Triton's.
struct TritonModelSettings
{
    int instances = 1;     ///< instance_group count on the GPU (Triton's default: 1).
    int maxBatchItems = 0; ///< max_batch_size with dynamic batching; 0: none, requests run alone.
    std::vector<int> preferredBatchItems; ///< dynamic_batching preferred_batch_size.
    double maxQueueDelayS = 0.0;          ///< dynamic_batching max_queue_delay_microseconds.

    friend bool operator==(const TritonModelSettings&, const TritonModelSettings&) = default;
};

/// How perf_analyzer spaced the requests of a request-rate run (--request-distribution).
enum class RequestDistribution
{
    Constant, ///< perf_analyzer's default: one request every 1/rate seconds.
    Poisson,
};

/// Records the settings a series (a Model Analyzer model configuration) ran under in the
/// table's metadata, so they travel with the sweep into projects and back ("triton.<series>.*").
void recordTritonSettings(SweepTable& table, const std::string& series,
                          const TritonModelSettings& settings);

/// The settings recordTritonSettings kept for `series`; empty when the file did not state them.
std::optional<TritonModelSettings> tritonSettingsOf(const SweepTable& table,
                                                    const std::string& series);

/// Records how a series' request-rate runs spaced their requests ("triton.<series>.*").
void recordRequestDistribution(SweepTable& table, const std::string& series,
                               RequestDistribution distribution);

/// The distribution recorded for `series`; perf_analyzer's default (constant) when none was.
RequestDistribution requestDistributionOf(const SweepTable& table, const std::string& series);

} // namespace bs::data
