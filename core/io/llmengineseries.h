#pragma once

#include "data/llmrun.h"
#include "io/readercontext.h"

#include <vector>

namespace bs::io {

/// A serving engine's state sampled over time, as LLMServingSim's vLLM runs log it
/// (`timeseries.csv`: `t, prompt_throughput, gen_throughput, running, waiting, kv_cache_pct`;
/// seconds from the start, tokens/s, request counts, KV-cache use in %). Rows must come in time
/// order; errors name the file, line, column and the column's name.
Expected<std::vector<data::LlmEngineSample>> parseLlmEngineSeries(ByteSource& source,
                                                                  ReaderContext& context);

/// parseLlmEngineSeries as a readDataset reader: one run holding only the engine series.
Expected<data::DatasetContent> readLlmEngineSeries(ByteSource& source, ReaderContext& context);

/// The header names the engine series needs, in file order.
const std::vector<std::string>& llmEngineSeriesColumns();

} // namespace bs::io
