#pragma once

#include "data/llmrun.h"
#include "io/readercontext.h"

namespace bs::io {

/// GenAI-Perf `profile_export_genai_perf.csv` and AIPerf `profile_export_aiperf.csv`: blocks
/// separated by blank lines, each with its own header. "Metric,avg,min,max,p99,..." rows hold a
/// metric's statistics, "Metric,Value" rows a single figure, and AIPerf's
/// "Endpoint,GPU_Index,GPU_Name,GPU_UUID,Metric,avg,..." rows its GPU telemetry. A row's name
/// "Time To First Token (ms)" is the JSON export's key `time_to_first_token` with its unit, so
/// the rows are gathered into the JSON export's shape and read by the same mapping
/// (genAiPerfRun): the same run, aggregates and telemetry as the JSON gives. Numbers written
/// with thousands separators ("1,274.63") are read; "N/A" cells are left out. Errors name the
/// file, the line and the metric.
Expected<data::LlmRunSet> parseGenAiPerfCsv(ByteSource& source, ReaderContext& context);

/// parseGenAiPerfCsv as a readDataset reader (takes no options).
Expected<data::DatasetContent> readGenAiPerfCsv(ByteSource& source, ReaderContext& context);

/// True for the first line of such a CSV: "Metric" then "avg" or "Value".
bool isGenAiPerfCsvHeader(const std::vector<std::string>& header);

} // namespace bs::io
