#include "io/readerregistry.h"

#include "io/aiperfrecordreader.h"
#include "io/genaiperfcsv.h"
#include "io/genaiperfreader.h"
#include "io/jsonlrequestreader.h"
#include "io/kinetoreader.h"
#include "io/llmbenchreader.h"
#include "io/llmengineseries.h"
#include "io/llmperfreader.h"
#include "io/llmrequestlog.h"
#include "io/mlperfreader.h"
#include "io/modelanalyzercheckpoint.h"
#include "io/modelanalyzerreader.h"
#include "io/perfanalyzerreader.h"
#include "io/powerlogreader.h"
#include "io/requesttracereader.h"
#include "io/splreader.h"
#include "io/trtllmbenchreader.h"
#include "io/vllmresulttable.h"

namespace bs::io {

namespace {
using K = data::DatasetKind;
}

const std::vector<ReaderEntry>& readerRegistry()
{
    static const std::vector<ReaderEntry> readers = {
        {{"perf_analyzer", K::Sweep,
          "Triton perf_analyzer CSV (-f), plain or --verbose-csv, runs concatenated", 1},
         &readPerfAnalyzer},
        {{"model_analyzer", K::Sweep,
          "Triton Model Analyzer metrics CSV (model inference joined with GPU metrics, GPU, "
          "server-only)",
          1},
         &readModelAnalyzer},
        {{"model_analyzer_checkpoint", K::Sweep,
          "Triton Model Analyzer checkpoint (checkpoints/N.ckpt): every measurement with "
          "perf_analyzer's server breakdown and each configuration's instances and batching",
          1},
         &readModelAnalyzerCheckpoint},
        {{"mlperf_summary", K::Sweep,
          "MLPerf LoadGen mlperf_log_summary.txt (with the power window when the detail log and "
          "spl.txt sit beside it)",
          1},
         &readMlperfSummary},
        {{"mlperf_detail", K::Sweep,
          "MLPerf LoadGen mlperf_log_detail.txt (:::MLLOG or pre-v1.0 text), joined with spl.txt",
          1},
         &readMlperfDetail},
        {{"sweep_csv", K::Sweep,
          "Sweep CSV (batch, throughput, latency, power) with a column mapping", 1},
         &readSweepCsv},
        {{"dle_table", K::Sweep,
          "NVIDIA DeepLearningExamples README result table as CSV (batch, throughput, avg and "
          "p50/p90/p95/p99 latency with units)",
          1},
         &readSweepCsv},
        {{"kineto_trace", K::KernelTrace,
          "Chrome trace event JSON / PyTorch Kineto trace (.json or .json.gz)", 1},
         &readKinetoTrace},
        {{"nvidia_smi", K::PowerSeries, "nvidia-smi --query-gpu=... --format=csv[,nounits] log", 1},
         &readNvidiaSmi},
        {{"mlperf_spl", K::PowerSeries,
          "MLPerf PTDaemon power log spl.txt (single or multi-channel)", 1},
         &readMlperfSpl},
        {{"power_csv", K::PowerSeries, "Time/power CSV with a column mapping", 1}, &readPowerCsv},
        {{"azure_llm_trace", K::RequestTrace,
          "Azure LLM inference trace (TIMESTAMP,ContextTokens,GeneratedTokens)", 1},
         &readAzureLlmTrace},
        {{"burstgpt_trace", K::RequestTrace,
          "BurstGPT trace (Timestamp,Model,Request tokens,Response tokens,...,Log Type)", 1},
         &readBurstGptTrace},
        {{"mooncake_trace", K::RequestTrace,
          "Mooncake request trace JSONL (timestamp ms, input_length, output_length, hash_ids)", 1},
         &readMooncakeTrace},
        {{"bailian_trace", K::RequestTrace,
          "Alibaba Qwen/Bailian usage trace JSONL (chat_id, timestamp s, input_length, "
          "output_length, type)",
          1},
         &readBailianTrace},
        {{"llm_benchmark", K::LlmRuns,
          "vLLM benchmark_serving / vllm bench serve result JSON (also --append-result), SGLang "
          "bench_serving JSONL",
          1},
         &readLlmBenchmark},
        {{"vllm_result_table", K::LlmRuns,
          "vLLM benchmark CI result table benchmark_results.json (one row per serving test: "
          "rate from the test name, request/token throughput, TTFT/TPOT/ITL statistics)",
          1},
         &readVllmResultTable},
        {{"genai_perf", K::LlmRuns,
          "NVIDIA GenAI-Perf profile_export_genai_perf.json / AIPerf profile_export_aiperf.json "
          "(latency statistics, throughput, GPU telemetry)",
          1},
         &readGenAiPerf},
        {{"aiperf_records", K::LlmRuns,
          "AIPerf per-request profile_export.jsonl (metadata, metrics with units, error per "
          "request)",
          1},
         &readAiperfRecords},
        {{"genai_perf_csv", K::LlmRuns,
          "NVIDIA GenAI-Perf profile_export_genai_perf.csv / AIPerf profile_export_aiperf.csv "
          "(metric table, single-value block, GPU telemetry block)",
          1},
         &readGenAiPerfCsv},
        {{"llmperf", K::LlmRuns,
          "Ray LLMPerf summary JSON and individual-responses JSON (failed requests dropped, "
          "counted)",
          1},
         &readLlmPerf},
        {{"trtllm_bench", K::LlmRuns,
          "TensorRT-LLM trtllm-bench --report_json report (engine, world_info batching limits, "
          "throughput, TTFT/TPOT/latency percentiles)",
          1},
         &readTrtllmBench},
        {{"llm_request_log", K::LlmRuns,
          "LLM serving engine per-request log JSONL (queued/scheduled/first/last token times; "
          "LLMServingSim requests.jsonl), joined with timeseries.csv and meta.json beside it",
          1},
         &readLlmRequestLog},
        {{"llm_engine_series", K::LlmRuns,
          "LLM serving engine state CSV (t, prompt/gen throughput, running, waiting, KV-cache %; "
          "LLMServingSim timeseries.csv)",
          1},
         &readLlmEngineSeries},
        {{"request_trace_csv", K::RequestTrace,
          "Per-request CSV (arrival, completion, batch, stream, tokens) with a column mapping", 1},
         &readRequestTraceCsv},
    };
    return readers;
}

const ReaderEntry* findReader(std::string_view name)
{
    for (const auto& entry : readerRegistry()) {
        if (entry.info.name == name)
            return &entry;
    }
    return nullptr;
}

std::string readerNameList()
{
    std::string out;
    for (const auto& entry : readerRegistry())
        out += (out.empty() ? "" : ", ") + entry.info.name;
    return out;
}

} // namespace bs::io
