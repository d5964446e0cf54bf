#pragma once

#include "io/readercontext.h"

namespace bs::io {

/// MLPerf LoadGen mlperf_log_summary.txt -> a one-point data::SweepTable: throughput, latency
/// percentiles (ns in the log, seconds in core), offered load for Server runs, and in metadata
/// the scenario, validity, constraint flags, target QPS and latency and token metrics. When the
/// detail log and spl.txt sit beside it, the measured power window is joined (see below).
Expected<data::DatasetContent> readMlperfSummary(ByteSource& source, ReaderContext& context);

/// MLPerf LoadGen mlperf_log_detail.txt (":::MLLOG {json}" or the older text form) -> the same
/// one-point table. Its power_begin/power_end window is joined with the spl.txt beside it
/// (single- or multi-channel): average power over the window and energy per sample.
/// Reader options for both: {"batch_size": N} (LoadGen logs do not name the harness batch size;
/// 1 with a warning otherwise), {"power_log": "path/to/spl.txt" | false}.
Expected<data::DatasetContent> readMlperfDetail(ByteSource& source, ReaderContext& context);

} // namespace bs::io
