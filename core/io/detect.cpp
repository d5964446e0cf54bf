// Format detection by content: magic bytes, headers and first lines, never the file name.
#include "io/columnmapping.h"
#include "io/csvsplitter.h"
#include "io/datetime.h"
#include "io/genaiperfcsv.h"
#include "io/llmengineseries.h"
#include "io/readdataset.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace bs::io {

namespace {

Detection detection(const char* reader, std::string reason)
{
    const ReaderEntry* entry = findReader(reader);
    return Detection{reader, entry ? entry->info.kind : data::DatasetKind::Sweep,
                     std::move(reason)};
}

/// Other compressed or archive formats: a clear "unpack it first" instead of "binary data".
const char* archiveKind(std::string_view head)
{
    auto starts = [&](const char* magic, std::size_t n) {
        return head.size() >= n && std::memcmp(head.data(), magic, n) == 0;
    };
    if (starts("PK\x03\x04", 4))
        return "a ZIP archive";
    if (starts("BZh", 3))
        return "bzip2-compressed data";
    if (starts("\xfd"
               "7zXZ",
               5))
        return "xz-compressed data";
    if (starts("\x28\xb5\x2f\xfd", 4))
        return "zstd-compressed data";
    if (starts("7z\xbc\xaf", 4))
        return "a 7-Zip archive";
    return nullptr;
}

/// Up to `count` lines of the head (CR stripped); a last partial line is left out unless the
/// head is complete.
std::vector<std::string_view> firstLines(std::string_view head, std::size_t count, bool complete)
{
    std::vector<std::string_view> lines;
    while (!head.empty() && lines.size() < count) {
        const auto nl = head.find('\n');
        if (nl == std::string_view::npos && !complete && !lines.empty())
            break;
        std::string_view line = head.substr(0, nl);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back(line);
        if (nl == std::string_view::npos)
            break;
        head.remove_prefix(nl + 1);
    }
    return lines;
}

bool isOldMlperfDetailLine(std::string_view line)
{
    // "pid": 16966, "tid": 16966, "ts": 13708ns : ...
    if (line.rfind("\"pid\": ", 0) != 0)
        return false;
    const auto ts = line.find("\"ts\": ");
    return line.find("\"tid\": ") != std::string_view::npos && ts != std::string_view::npos &&
           line.find("ns : ", ts) != std::string_view::npos;
}

/// JSON Lines of LLM requests: the first line is an object with "timestamp", "input_length" and
/// "output_length" keys; "chat_id" tells the Alibaba Bailian layout (seconds) from Mooncake's
/// (milliseconds).
std::optional<Detection> detectRequestJsonl(std::string_view head)
{
    const std::string_view line = head.substr(0, head.find('\n'));
    auto key = [&](std::string_view quoted) {
        const auto at = line.find(quoted);
        if (at == std::string_view::npos)
            return false;
        const auto next = line.find_first_not_of(" \t", at + quoted.size());
        return next != std::string_view::npos && line[next] == ':';
    };
    if (!key("\"timestamp\"") || !key("\"input_length\"") || !key("\"output_length\""))
        return std::nullopt;
    if (key("\"chat_id\""))
        return detection("bailian_trace", "JSON Lines whose first record has \"chat_id\", "
                                          "\"timestamp\", \"input_length\" and "
                                          "\"output_length\" (Alibaba Qwen/Bailian usage trace)");
    return detection("mooncake_trace", "JSON Lines whose first record has \"timestamp\", "
                                       "\"input_length\" and \"output_length\" (Mooncake "
                                       "request trace)");
}

/// An LLM serving benchmark result: the first object (vLLM writes one line, however long) has
/// "backend", "completed" and "duration" keys, as vLLM's and SGLang's clients write them.
std::optional<Detection> detectLlmBenchmark(std::string_view head)
{
    // A pretty-printed result (a lone "{" first) has the keys on the lines that follow.
    std::string_view line = head.substr(0, head.find('\n'));
    if (trimmed(line) == "{" || trimmed(line) == "{\r")
        line = head;
    for (const char* key : {"\"backend\":", "\"completed\":", "\"duration\":"}) {
        if (line.find(key) == std::string_view::npos)
            return std::nullopt;
    }
    return detection("llm_benchmark", "JSON object with \"backend\", \"completed\" and "
                                      "\"duration\" (vLLM or SGLang serving benchmark result)");
}

/// A serving engine's per-request log: the first line has a request id and the engine's
/// queued, first-token and last-token times.
std::optional<Detection> detectLlmRequestLog(std::string_view head)
{
    const std::string_view line = head.substr(0, head.find('\n'));
    for (const char* key :
         {"\"request_id\":", "\"queued_ts\":", "\"first_token_ts\":", "\"last_token_ts\":"}) {
        if (line.find(key) == std::string_view::npos)
            return std::nullopt;
    }
    return detection("llm_request_log", "JSON Lines whose first record has \"request_id\", "
                                        "\"queued_ts\", \"first_token_ts\" and "
                                        "\"last_token_ts\" (serving engine request log)");
}

/// A GenAI-Perf or AIPerf export: pretty-printed, opening with "request_throughput" and a
/// latency metric, each an object with a "unit".
std::optional<Detection> detectGenAiPerf(std::string_view head)
{
    const bool latency = head.find("\"request_latency\"") != std::string_view::npos ||
                         head.find("\"time_to_first_token\"") != std::string_view::npos;
    if (head.find("\"request_throughput\"") == std::string_view::npos || !latency ||
        head.find("\"unit\"") == std::string_view::npos)
        return std::nullopt;
    return detection("genai_perf", "JSON object with \"request_throughput\" and latency "
                                   "metrics with units (GenAI-Perf or AIPerf profile export)");
}

/// A TensorRT-LLM trtllm-bench report: an object with "world_info" and "performance"
/// sections (json.dump, indented, the engine section first).
std::optional<Detection> detectTrtllmBench(std::string_view head)
{
    if (head.find("\"world_info\"") == std::string_view::npos ||
        head.find("\"performance\"") == std::string_view::npos)
        return std::nullopt;
    return detection("trtllm_bench", "JSON object with \"world_info\" and \"performance\" "
                                     "sections (TensorRT-LLM trtllm-bench report)");
}

/// AIPerf's per-request records: the first line is an object with "metadata" (holding
/// "request_start_ns") and "metrics".
std::optional<Detection> detectAiperfRecords(std::string_view head)
{
    const std::string_view line = head.substr(0, head.find('\n'));
    for (const char* key : {"\"metadata\":", "\"request_start_ns\":", "\"metrics\":"}) {
        if (line.find(key) == std::string_view::npos)
            return std::nullopt;
    }
    return detection("aiperf_records", "JSON Lines whose first record has \"metadata\" with "
                                       "\"request_start_ns\" and \"metrics\" (AIPerf "
                                       "per-request profile_export.jsonl)");
}

/// Ray LLMPerf: a summary object with "results_..." statistics, or the individual responses,
/// an array of objects with "error_code", "ttft_s" and "end_to_end_latency_s".
std::optional<Detection> detectLlmPerf(std::string_view head)
{
    auto has = [&](const char* key) { return head.find(key) != std::string_view::npos; };
    if (head.front() == '{' && (has("\"results_ttft_s_") || has("\"results_num_completed")))
        return detection("llmperf", "JSON object with LLMPerf \"results_...\" statistics "
                                    "(LLMPerf summary)");
    if (head.front() == '[' && has("\"error_code\"") && has("\"ttft_s\"") &&
        has("\"end_to_end_latency_s\""))
        return detection("llmperf", "JSON array of objects with \"error_code\", \"ttft_s\" and "
                                    "\"end_to_end_latency_s\" (LLMPerf individual responses)");
    return std::nullopt;
}

/// vLLM's benchmark CI result table: an array whose first object has "Test name" and a
/// throughput or latency column as the CI's table titles them.
std::optional<Detection> detectVllmResultTable(std::string_view head)
{
    const std::size_t first = head.find_first_not_of(" \t\r\n", 1);
    if (head.front() != '[' || first == std::string_view::npos || head[first] != '{' ||
        head.find("\"Test name\"") == std::string_view::npos ||
        head.find("\"Tput (req/s)\"") == std::string_view::npos)
        return std::nullopt;
    return detection("vllm_result_table", "JSON array of objects with \"Test name\" and \"Tput "
                                          "(req/s)\" (vLLM benchmark CI result table)");
}

/// A Model Analyzer checkpoint: an object whose first key is "ResultManager.results" (Model
/// Analyzer's state manager writes its managers' state in that order).
std::optional<Detection> detectModelAnalyzerCheckpoint(std::string_view head)
{
    const std::size_t key = head.find("\"ResultManager.results\"");
    if (head.front() != '{' || key == std::string_view::npos ||
        head.find_first_not_of(" \t\r\n", 1) != key)
        return std::nullopt;
    return detection("model_analyzer_checkpoint",
                     "JSON object opening with \"ResultManager.results\" (Triton Model "
                     "Analyzer checkpoint)");
}

std::optional<Detection> detectJson(std::string_view head, bool complete)
{
    if (auto found = detectLlmPerf(head))
        return found;
    if (auto found = detectModelAnalyzerCheckpoint(head))
        return found;
    if (auto found = detectVllmResultTable(head))
        return found;
    if (head.front() == '{' && head.find("\"traceEvents\"") == std::string_view::npos) {
        if (auto found = detectTrtllmBench(head))
            return found;
        if (auto found = detectAiperfRecords(head))
            return found;
        if (auto found = detectRequestJsonl(head))
            return found;
        if (auto found = detectGenAiPerf(head))
            return found;
        if (auto found = detectLlmBenchmark(head))
            return found;
        if (auto found = detectLlmRequestLog(head))
            return found;
    }
    const char* form = head.front() == '[' ? "JSON array of trace events"
                                           : "JSON object with a \"traceEvents\" array";
    if (head.find("\"traceEvents\"") != std::string_view::npos)
        return detection("kineto_trace",
                         std::string(form) + " (Chrome trace event format / PyTorch Kineto)");
    if (head.front() == '[' && head.find("\"ph\"") != std::string_view::npos)
        return detection("kineto_trace", "JSON array of objects with \"ph\" keys (Chrome trace "
                                         "event format)");
    (void)complete;
    return std::nullopt;
}

std::optional<Detection> detectMlperf(const std::vector<std::string_view>& lines)
{
    for (const auto& line : lines) {
        if (line.rfind(":::MLLOG {", 0) == 0)
            return detection("mlperf_detail", "lines start with \":::MLLOG {\" (MLPerf LoadGen "
                                              "mlperf_log_detail.txt)");
        if (trimmed(line) == "MLPerf Results Summary")
            return detection("mlperf_summary", "a line reads \"MLPerf Results Summary\" (MLPerf "
                                               "LoadGen mlperf_log_summary.txt)");
    }
    if (!lines.empty() && isOldMlperfDetailLine(lines.front()))
        return detection("mlperf_detail", "lines start with \"\\\"pid\\\": N, \\\"tid\\\": N, "
                                          "\\\"ts\\\": Nns :\" (MLPerf LoadGen detail log, "
                                          "pre-v1.0 text form)");
    return std::nullopt;
}

std::optional<Detection> detectSpl(std::string_view line)
{
    CsvSplitter split;
    if (line.rfind("Time,", 0) != 0 || !split.split(line) || split.size() < 4)
        return std::nullopt;
    if (parseDateTime(split[1]) && split[2] == "Watts")
        return detection("mlperf_spl", "lines read \"Time,MM-DD-YYYY HH:MM:SS.mmm,Watts,...\" "
                                       "(MLPerf PTDaemon power log spl.txt)");
    return std::nullopt;
}

bool has(const std::vector<std::string>& fields, std::string_view name)
{
    return std::find(fields.begin(), fields.end(), name) != fields.end();
}

/// A latency column of a DeepLearningExamples result table: "p99 latency (ms)", "avg latency
/// (ms)" (its Triton tables), "Latency Avg (ms)", "Latency 99% (ms)" (its inference tables),
/// always with a time unit in the header.
bool isDleLatencyHeader(const std::string& header)
{
    const HeaderName name = splitHeaderUnit(header);
    if (!unitFactor(FieldDimension::Time, name.unit))
        return false;
    const std::string& n = name.name;
    const bool percentile = n.size() > 9 && n.front() == 'p' && n.ends_with(" latency") &&
                            std::isdigit(static_cast<unsigned char>(n[1]));
    return percentile || n == "avg latency" ||
           (n.starts_with("latency ") && (n.ends_with("%") || n == "latency avg"));
}

/// A DeepLearningExamples README performance table saved as CSV: a "Batch" or "Batch size"
/// column and at least two latency columns whose headers state the unit. Checked before
/// perf_analyzer: its Triton tables share perf_analyzer's column names but add "(ms)".
std::optional<Detection> detectDleTable(const std::vector<std::string>& h)
{
    const bool batch = std::any_of(h.begin(), h.end(), [](const std::string& f) {
        const std::string n = lowercase(trimmed(f));
        return n == "batch" || n == "batch size";
    });
    const auto latencies = std::count_if(h.begin(), h.end(), isDleLatencyHeader);
    if (!batch || latencies < 2)
        return std::nullopt;
    return detection("dle_table", "CSV header has a batch column and latency columns with "
                                  "their unit, such as \"p99 latency (ms)\" or \"Latency 99% "
                                  "(ms)\" (NVIDIA DeepLearningExamples result table)");
}

std::optional<Detection> detectKnownCsv(const std::vector<std::string>& h)
{
    const bool modelAnalyzer = !h.empty() && h[0] == "Model";
    if (!modelAnalyzer) {
        if (auto found = detectDleTable(h))
            return found;
    }
    if (has(h, "Inferences/Second") && (has(h, "Concurrency") || has(h, "Request Rate"))) {
        return detection("perf_analyzer",
                         std::string("CSV header has \"") +
                             (has(h, "Concurrency") ? "Concurrency" : "Request Rate") +
                             "\" and \"Inferences/Second\" columns (Triton perf_analyzer -f" +
                             (has(h, "Batch") ? ", with a leading \"Batch\" column)" : ")"));
    }
    if (!h.empty() && h[0] == "Model" && (has(h, "Throughput (infer/sec)") || has(h, "GPU UUID"))) {
        const char* which = has(h, "Throughput (infer/sec)") ? "metrics-model-inference"
                            : has(h, "Batch")                ? "metrics-model-gpu"
                                                             : "metrics-server-only";
        return detection("model_analyzer", std::string("CSV header starts with \"Model,\" and "
                                                       "has Model Analyzer columns (") +
                                               which + ")");
    }
    if (has(h, "Timestamp") && has(h, "Request tokens") && has(h, "Response tokens")) {
        return detection("burstgpt_trace", "CSV header has \"Timestamp\", \"Request tokens\" "
                                           "and \"Response tokens\" (BurstGPT trace)");
    }
    if (h.size() == 3 && h[0] == "TIMESTAMP" && h[1] == "ContextTokens" &&
        h[2] == "GeneratedTokens") {
        return detection("azure_llm_trace", "CSV header is \"TIMESTAMP,ContextTokens,"
                                            "GeneratedTokens\" (Azure LLM inference trace)");
    }
    if (isGenAiPerfCsvHeader(h)) {
        return detection("genai_perf_csv", std::string("CSV header starts with \"Metric,") + h[1] +
                                               "\" (GenAI-Perf or AIPerf profile "
                                               "export CSV)");
    }
    if (h == llmEngineSeriesColumns()) {
        return detection("llm_engine_series", "CSV header is \"t,prompt_throughput,"
                                              "gen_throughput,running,waiting,kv_cache_pct\" "
                                              "(serving engine state series)");
    }
    const bool smiField = std::any_of(h.begin(), h.end(), [](const std::string& f) {
        return f.rfind("power.draw", 0) == 0 || f.rfind("clocks.", 0) == 0 ||
               f.rfind("utilization.", 0) == 0 || f.rfind("temperature.", 0) == 0;
    });
    if (smiField && has(h, "timestamp"))
        return detection("nvidia_smi", "CSV header has \"timestamp\" and nvidia-smi query fields "
                                       "such as \"power.draw\" (nvidia-smi --query-gpu "
                                       "--format=csv)");
    return std::nullopt;
}

std::string mappedList(const ColumnMapping& mapping)
{
    std::string out;
    for (const auto& c : mapping.columns)
        out += (out.empty() ? "" : ", ") + c.field + " <- \"" + c.column + "\"";
    return out;
}

std::optional<Detection> detectGenericCsv(const std::vector<std::string>& header,
                                          const std::vector<std::string>& row, char delimiter)
{
    const auto power = suggestColumnMapping(header, row, MappingTarget::PowerSeries, delimiter);
    if (power.find("time") && power.find("power"))
        return detection("power_csv",
                         "CSV with time and power columns (" + mappedList(power) + ")");
    const auto sweep = suggestColumnMapping(header, row, MappingTarget::Sweep, delimiter);
    if (sweep.find("batch_size") &&
        (sweep.find("throughput") || sweep.find("latency_p99") || sweep.find("latency_mean")))
        return detection("sweep_csv", "CSV with batch size and throughput or latency columns (" +
                                          mappedList(sweep) + ")");
    const auto requests = suggestColumnMapping(header, row, MappingTarget::RequestTrace, delimiter);
    if (requests.find("arrival") && requests.columns.size() >= 2)
        return detection("request_trace_csv",
                         "CSV with per-request columns (" + mappedList(requests) + ")");
    return std::nullopt;
}

std::vector<std::string> splitToStrings(std::string_view line, char delimiter)
{
    CsvSplitter split(delimiter);
    std::vector<std::string> out;
    if (!split.split(line))
        return out;
    for (auto f : split.fields())
        out.emplace_back(f);
    return out;
}

} // namespace

Status checkTextContent(std::string_view head, const std::string& name)
{
    if (head.empty())
        return makeError(ErrorCode::Format, name, 0, 0, "the file is empty");
    if (head.size() >= 2 &&
        ((head[0] == '\xff' && head[1] == '\xfe') || (head[0] == '\xfe' && head[1] == '\xff'))) {
        return makeError(ErrorCode::Format, name, 1, 1,
                         "the file is UTF-16 encoded; BatchScope reads UTF-8 text (save it as "
                         "UTF-8 and try again)");
    }
    if (const char* kind = archiveKind(head)) {
        return makeError(ErrorCode::Unsupported, name, 0, 0,
                         std::string("the file is ") + kind +
                             "; unpack it first (gzip is read directly)");
    }
    if (const void* nul = std::memchr(head.data(), 0, head.size())) {
        const auto offset = std::size_t(static_cast<const char*>(nul) - head.data());
        const auto line = 1 + std::count(head.begin(), head.begin() + std::ptrdiff_t(offset), '\n');
        return makeError(ErrorCode::Format, name, line, 0,
                         "binary data (a NUL byte) in what should be a text or JSON file");
    }
    return {};
}

Expected<Detection> detectFormatFromHead(std::string_view head, const std::string& name,
                                         bool complete)
{
    if (auto status = checkTextContent(head, name); !status)
        return status.error();
    if (head.size() >= 3 && head.substr(0, 3) == "\xef\xbb\xbf")
        head.remove_prefix(3);
    const auto first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return makeError(ErrorCode::Format, name, 0, 0, "the file holds only white space");
    if (head[first] == '{' || head[first] == '[') {
        if (auto found = detectJson(head.substr(first), complete))
            return *found;
        return makeError(ErrorCode::Unsupported, name, 0, 0,
                         "a JSON file, but not a Chrome/Kineto trace: no \"traceEvents\" key in "
                         "its first " +
                             std::to_string(head.size() / 1024 + 1) +
                             " KiB (force a reader if it is one)");
    }
    const auto lines = firstLines(head, 20, complete);
    if (auto found = detectMlperf(lines))
        return *found;
    if (auto found = detectSpl(lines.front()))
        return *found;
    const char delimiter = guessDelimiter(lines.front());
    const auto header = splitToStrings(lines.front(), delimiter);
    if (auto found = detectKnownCsv(header))
        return *found;
    if (header.size() >= 2 && lines.size() >= 2) {
        if (auto found = detectGenericCsv(header, splitToStrings(lines[1], delimiter), delimiter))
            return *found;
    }
    std::string shown(lines.front().substr(0, 80));
    return makeError(ErrorCode::Unsupported, name, 1, 0,
                     "not a format BatchScope recognises (the first line reads \"" + shown +
                         "\"); choose a reader explicitly: " + readerNameList());
}

} // namespace bs::io
