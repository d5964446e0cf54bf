#pragma once

#include "io/datetime.h"
#include "io/readercontext.h"

#include <map>
#include <optional>
#include <string>

namespace bs::io {

/// What a LoadGen summary or detail log says about one run, in core units (seconds, per
/// second). Fields a log does not hold stay empty.
struct MlperfResult
{
    std::string scenario; ///< Offline, Server, SingleStream, MultiStream.
    std::string mode;     ///< PerformanceOnly, AccuracyOnly, ...
    std::string sutName;
    std::string validity;                            ///< VALID or INVALID.
    std::optional<double> samplesPerSecond;          ///< Completed (Server) or measured (Offline).
    std::optional<double> scheduledSamplesPerSecond; ///< Server: the offered load.
    std::optional<double> targetQps;
    std::optional<double> targetLatencyS;
    std::optional<double> targetLatencyPercentile;
    std::optional<double> samplesPerQuery;
    std::optional<double> queryCount;
    std::optional<double> minLatencyS, maxLatencyS, meanLatencyS;
    std::map<std::string, double> percentileLatencyS; ///< "50.00" -> seconds.
    /// LLM runs (v4.0+ with token latencies): time to first token and time per output token.
    std::optional<double> minTtftS, maxTtftS, meanTtftS;
    std::optional<double> minTpotS, maxTpotS, meanTpotS;
    std::map<std::string, double> ttftPercentileS;  ///< "99.00" -> seconds.
    std::map<std::string, double> tpotPercentileS;  ///< "99.00" -> seconds.
    std::optional<double> tokensPerSecond;          ///< Completed (Server) or measured (Offline).
    std::optional<double> ttftTargetS, tpotTargetS; ///< The TTFT and TPOT latency limits.
    /// Early-stopping verdict text per metric: "ttft" -> "Run successful.".
    std::map<std::string, std::string> earlyStopping;
    std::map<std::string, std::string> flags; ///< Constraint flags: "min_duration_met".
    std::map<std::string, std::string> extra; ///< Token metrics and other figures.
    std::optional<EpochTime> powerBegin, powerEnd;
    std::string powerBeginText, powerEndText;
    int loadgenWarnings = 0;
    bool oldDetailForm = false;
};

/// Parses mlperf_log_summary.txt (the same text in every LoadGen version).
Expected<MlperfResult> parseMlperfSummary(ByteSource& source, ReaderContext& context);

/// Parses mlperf_log_detail.txt in the ":::MLLOG {json}" form (v1.0+) or the older
/// `"pid": N, "tid": N, "ts": Nns : text` form, which holds settings and the power window but
/// no results. A JSON syntax error names the line and the byte column.
Expected<MlperfResult> parseMlperfDetail(ByteSource& source, ReaderContext& context);

} // namespace bs::io
