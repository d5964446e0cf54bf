#pragma once

#include "analysis/llmrunanalysis.h"
#include "data/llmrun.h"

#include <QList>
#include <QStringList>

#include <optional>

namespace bs::widgets {

/// One row of an LLM serving table: its cells as shown, and for a latency computed from the
/// per-request records its exact value in milliseconds (kept on the item, for copy and tests).
struct LlmTableRow
{
    QStringList cells;
    std::optional<double> computedMs;
};

/// TTFT, TPOT, ITL and E2E at p50, p90 and p99 of one run: {metric, computed from the
/// per-request records, its 95% interval, the tool's own figure}, each with its unit; a missing
/// figure says why ("no per-request records in this file", "not in the file").
QList<LlmTableRow> llmPercentileRows(const data::LlmRun& run,
                                     const analysis::LlmRunAnalysis& analysis);

/// The run's other figures: {figure, value with unit, where it comes from}: requests, failed,
/// duration, request and token throughputs, goodput under `sla` (requests/s and the fraction
/// meeting it), mean in flight by Little's law and by the engine series with their relative
/// difference, energy per output token and per request. A missing value says why.
QList<LlmTableRow> llmFigureRows(const data::LlmRun& run, const analysis::LlmRunAnalysis& analysis,
                                 const analysis::LlmSla& sla);

} // namespace bs::widgets
