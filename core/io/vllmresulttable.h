#pragma once

#include "data/llmrun.h"
#include "io/readercontext.h"

namespace bs::io {

/// vLLM's benchmark CI result table (`benchmark_results.json`, written by the nightly and
/// performance benchmark scripts from `benchmark_serving.py` results): a JSON array with one
/// object per test, keyed by the table's column titles. A serving test has "Test name" (its
/// rate after "qps_", "inf" for unlimited, and a cap after "concurrency_"), "GPU", "# of req."
/// or "Successful req." (completed requests), "Tput (req/s)", "Output Tput (tok/s)", "Total
/// Tput (tok/s)" and "<Mean|Median|Std|P<n>> <TTFT|TPOT|ITL|E2EL> (ms)". The table keeps no
/// token totals and no duration: the prompt tokens' rate is total - output. Latency and
/// throughput tests (no "Tput (req/s)") are skipped with a warning. Errors name the file, the
/// row and the column.
Expected<data::LlmRunSet> parseVllmResultTable(ByteSource& source, ReaderContext& context);

/// parseVllmResultTable as a readDataset reader (takes no options).
Expected<data::DatasetContent> readVllmResultTable(ByteSource& source, ReaderContext& context);

} // namespace bs::io
