#pragma once

#include "data/llmrun.h"
#include "io/readercontext.h"

namespace bs::io {

/// LLM serving benchmark results, one JSON object per run, one run per line:
/// - vLLM `benchmark_serving.py --save-result` / `vllm bench serve` (a single object, or
///   several with --append-result), old `"request_goodput:"` key too; per-request arrays
///   `input_lens`, `output_lens`, `ttfts`, `itls`, `start_times`, `errors` when present;
/// - SGLang `bench_serving` JSONL (old and new key sets).
/// Aggregates are ms in both tools and per-request arrays seconds; all become seconds. Errors
/// name the file, the line and the field.
Expected<data::LlmRunSet> parseLlmBenchmark(ByteSource& source, ReaderContext& context);

/// parseLlmBenchmark as a readDataset reader (takes no options).
Expected<data::DatasetContent> readLlmBenchmark(ByteSource& source, ReaderContext& context);

/// How vLLM's and SGLang's benchmark clients define their aggregates, by metric ("ttft",
/// "tpot", "itl", "e2e"): both measure at the client over the streaming API and agree.
const std::map<std::string, std::string>& llmBenchmarkMetricDefinitions();

/// Whether one JSON object looks like a vLLM or SGLang run ("vllm", "sglang"; "" if neither).
std::string llmBenchmarkTool(const nlohmann::json& object);

} // namespace bs::io
