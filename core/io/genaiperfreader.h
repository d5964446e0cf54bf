#pragma once

#include "data/llmrun.h"
#include "io/readercontext.h"

#include <nlohmann/json.hpp>

namespace bs::io {

/// NVIDIA GenAI-Perf `profile_export_genai_perf.json` and AIPerf `profile_export_aiperf.json`:
/// one run, each metric an object {"unit", "avg", "p1".."p99", "min", "max", "std"}. Latencies
/// (ms, or "sec"/"ns" where a tool says so) become seconds; the tools' inter_token_latency is
/// per request (e2e - ttft) / (output tokens - 1), so it is the run's TPOT. GPU telemetry
/// (GenAI-Perf `telemetry_stats`, AIPerf `telemetry_data`) becomes one entry per GPU: mean and
/// max power (W), the rise of the cumulative energy counter (MJ -> J), utilisation, SM clock,
/// temperature. Errors name the file and the metric; the document is read whole (pretty
/// printed), so they carry no line.
Expected<data::LlmRunSet> parseGenAiPerf(ByteSource& source, ReaderContext& context);

/// parseGenAiPerf as a readDataset reader (takes no options).
Expected<data::DatasetContent> readGenAiPerf(ByteSource& source, ReaderContext& context);

/// The run of an export already parsed (the JSON document, or the same shape built from the
/// CSV export): the one mapping from the tools' metric names and units to data::LlmRun.
Expected<data::LlmRun> genAiPerfRun(const nlohmann::json& document, ReaderContext& context);

/// Seconds per unit of a GenAI-Perf/AIPerf latency ("ms", "sec"/"s", "us", "ns"); empty for a
/// unit that is not a time.
std::optional<double> secondsPer(const std::string& unit);

/// "aiperf" or "genai-perf" by the keys of a parsed export; "" when it is neither.
std::string genAiPerfTool(const nlohmann::json& object);

} // namespace bs::io
