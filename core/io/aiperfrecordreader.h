#pragma once

#include "data/llmrun.h"
#include "io/readercontext.h"

namespace bs::io {

/// AIPerf's per-request `profile_export.jsonl`: one record per line, {"metadata":
/// {"request_start_ns", "request_end_ns", "benchmark_phase", "was_cancelled", ...}, "metrics":
/// {name: {"value", "unit"}}, "error": null | {"code", "type", "message"}}. Each record becomes
/// an LlmRequest: arrival from the first request's start (epoch ns, subtracted as integers),
/// `input_sequence_length` and `output_sequence_length` tokens, `time_to_first_token`,
/// `inter_token_latency` (per request (e2e - ttft) / (osl - 1): the TPOT), the
/// `inter_chunk_latency` list (the ITL gaps) and `request_latency`, in seconds. A failed record
/// keeps its `error_isl` tokens and message but no latency, and is counted in a warning;
/// records of a phase other than "profiling" (warm-up) are skipped and counted. The run's
/// totals and rates are over its window, first start -> last end. Errors name the line and the
/// dotted key.
Expected<data::LlmRunSet> parseAiperfRecords(ByteSource& source, ReaderContext& context);

/// parseAiperfRecords as a readDataset reader (takes no options).
Expected<data::DatasetContent> readAiperfRecords(ByteSource& source, ReaderContext& context);

} // namespace bs::io
