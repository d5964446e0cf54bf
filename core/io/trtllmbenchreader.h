#pragma once

#include "data/llmrun.h"
#include "io/readercontext.h"

namespace bs::io {

/// TensorRT-LLM `trtllm-bench throughput|latency --report_json` report: one run. Sections
/// `engine` (model, backend, version, dtype), `machine`, `world_info` (tp/pp/ep sizes,
/// `max_batch_size`, `max_num_tokens`, `scheduling_policy`, `kv_cache_percentage`,
/// `issue_rate`), `request_info`, `performance` (ms and tokens/s, request latency percentiles)
/// and, with --streaming, `streaming_metrics` (TTFT and TPOT percentiles in ms). Every scalar
/// becomes a knob named by its dotted key; latencies become seconds. The tool's percentiles
/// are sorted[floor(n * q)] over the requests. Errors name the file and the dotted key.
Expected<data::LlmRunSet> parseTrtllmBench(ByteSource& source, ReaderContext& context);

/// parseTrtllmBench as a readDataset reader (takes no options).
Expected<data::DatasetContent> readTrtllmBench(ByteSource& source, ReaderContext& context);

} // namespace bs::io
