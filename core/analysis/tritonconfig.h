#pragma once

#include "analysis/perfanalyzervalidation.h"
#include "util/expected.h"

#include <string>

namespace bs::analysis {

/// The settings a perf_analyzer prediction needs, read from a Triton model configuration in
/// protobuf text format (config.pbtxt): `instance_group` counts summed over the GPU groups (a
/// group without `kind`, or KIND_GPU / KIND_AUTO, runs on the GPU), `max_batch_size` (used only
/// with `dynamic_batching`: without it Triton runs each request alone), `preferred_batch_size`
/// (repeated field or list) and `max_queue_delay_microseconds`. Other fields are skipped.
/// Errors name `path`, the line and what was expected.
Expected<TritonModelSettings> tritonSettingsFromConfig(const std::string& text,
                                                       const std::string& path);

} // namespace bs::analysis
