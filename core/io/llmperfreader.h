#pragma once

#include "data/llmrun.h"
#include "io/readercontext.h"

namespace bs::io {

/// Ray LLMPerf results: the summary JSON (`results_<metric>_s_quantiles_pNN`, `_mean`, `_min`,
/// `_max`, `_stddev`, run settings) or the individual-responses JSON (an array, one object per
/// request: `error_code`, `ttft_s`, `end_to_end_latency_s`, `inter_token_latency_s`, token
/// counts). All in seconds. A failed request (an `error_code`) has zeros, not latencies, in
/// every field: it is kept as a failed record without latencies, left out of the statistics,
/// and counted in a warning. `inter_token_latency_s` is a request's mean gap between tokens:
/// the run's TPOT. Errors name the file and the key (and the request's index).
Expected<data::LlmRunSet> parseLlmPerf(ByteSource& source, ReaderContext& context);

/// parseLlmPerf as a readDataset reader (takes no options).
Expected<data::DatasetContent> readLlmPerf(ByteSource& source, ReaderContext& context);

} // namespace bs::io
