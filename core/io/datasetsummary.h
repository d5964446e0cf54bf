#pragma once

#include "data/dataset.h"

#include <nlohmann/json.hpp>

namespace bs::io {

/// GPU busy time of a kernel trace: per device, the length of the union of its kernel, memcpy
/// and memset intervals, summed over devices (overlapping kernels on different streams of one
/// device count once). Seconds.
double gpuBusyTimeS(const data::KernelTrace& trace);

/// What `batchscope-cli inspect` and the GUI's dataset dock show about a loaded dataset, as
/// JSON: reader and why it was chosen, counts (points, requests, events, samples), time span,
/// the columns present with their units, key figures (for MLPerf: p99 and throughput; for
/// traces: kernel count and GPU busy time; for power: mean power and energy) and the warnings.
/// Keys carry units (time_span_s, gpu_busy_time_s).
nlohmann::json summarizeDataset(const data::Dataset& dataset);

} // namespace bs::io
