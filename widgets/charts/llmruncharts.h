#pragma once

#include "analysis/llmrunanalysis.h"
#include "charts/chartcontent.h"
#include "data/llmrun.h"

#include <memory>
#include <vector>

namespace bs::widgets {

/// The runs of one LLM serving benchmark file with their analyses, in file order
/// (`analyses[i]` is of `set->runs[i]`), and the SLA goodput was judged against.
struct LlmRunsResult
{
    std::shared_ptr<const data::LlmRunSet> set;
    std::vector<analysis::LlmRunAnalysis> analyses;
    analysis::LlmSla sla;
};

/// "vllm · 4 req/s · line 1", "sglang · sharegpt · 8 req/s · line 7", "vllm · unlimited rate
/// · concurrency 8 · line 2": the tool, the dataset when the tool names one, the request rate or
/// concurrency and where the run starts in the file.
QString llmRunLabel(const data::LlmRun& run);

/// What the rate-sweep charts put on x: the request rate when any run has one, else the
/// concurrency limit when any run has one.
enum class LlmSweepAxis
{
    RequestRate,
    Concurrency,
    None,
};
LlmSweepAxis llmSweepAxis(const data::LlmRunSet& set);

/// Charts of the LLM serving page, pure functions of the analyses so the tests check what is
/// drawn. Latencies in milliseconds.

/// Empirical CDFs of TTFT, TPOT, ITL and E2E of one run, logarithmic in x when the values span
/// a decade or more; the SLA's TTFT and TPOT limits as vertical lines with their met side
/// shaded. Empty (saying why) when the run has no per-request records.
ChartContent llmLatencyCdfChart(const analysis::LlmRunAnalysis& run, const QString& runLabel,
                                const analysis::LlmSla& sla);
/// Output tokens/s against the request rate (or concurrency) of each run, one line per dataset
/// the file's runs name (SGLang files mix "random" and "sharegpt").
ChartContent llmSweepThroughputChart(const LlmRunsResult& result);

enum class LlmSweepLatency
{
    Ttft,
    Tpot,
};
/// p99 TTFT or TPOT against the request rate (or concurrency): the one computed from the
/// per-request records with its 95% interval as dashed bounds, the tool's own p99 as markers,
/// and the SLA limit with its met side shaded. One chart per metric, so each limit's band
/// covers only the values it judges.
ChartContent llmSweepP99Chart(const LlmRunsResult& result, LlmSweepLatency metric);
/// What the sweep charts' x is and which runs they leave out, and why ("line 2: no request
/// rate (unlimited, concurrency 8)").
QString llmSweepCaption(const LlmRunsResult& result);

} // namespace bs::widgets
