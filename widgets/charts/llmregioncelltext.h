#pragma once

#include "analysis/llmregion.h"

#include <QColor>
#include <QString>

namespace bs::widgets {

/// The words and colours the LLM region's heatmap, charts and recommendation share, so a
/// verdict reads the same on every part of the panel. Numbers are the region's own (estimate
/// means and 95% intervals as computeLlmRegion gives them), in the user's locale.

/// A number with `digits` significant digits; "—" when not finite.
QString llmNumber(double value, int digits = 4);
/// "80.1 [79.5, 80.7]": an estimate with its 95% interval (the interval left out when absent).
QString llmEstimateText(const sim::Estimate& estimate, const QString& unit);

/// The colour of a verdict (analysis::llmCellColour); pending cells are drawn apart.
QColor llmCellQColour(const analysis::LlmRegionCell& cell);
/// "feasible", "TTFT p99 > limit", "refused up front", "pending" for legends.
QString llmCellCategory(const analysis::LlmRegionCell& cell);
/// A few characters that fit in a heatmap cell under its number: "ok", "TTFT", "TPOT", …
QString llmCellShortLabel(const analysis::LlmRegionCell& cell);

/// "TTFT p99", "output tokens/s", … and the unit its values carry ("ms", "tokens/s", …).
QString llmConstraintTitle(analysis::LlmConstraint kind);
QString llmConstraintUnit(analysis::LlmConstraint kind);
/// One check in full: "TTFT p99 123 ms [110, 130], limit ≤ 2,000 ms, margin 94%: met".
QString llmCheckText(const analysis::LlmCheck& check);
/// The cell's knobs: "max_num_seqs 8, max_num_batched_tokens 2048, rate_per_s 4, replicas 2".
QString llmKnobsText(const analysis::LlmRegionSpec& spec, const analysis::LlmCellKnobs& knobs);
/// Everything known of a cell, for its tooltip: knobs, verdict, evidence (llmCellEvidence),
/// every check, the main estimates and the note.
QString llmCellDescription(const analysis::LlmRegionSpec& spec,
                           const analysis::LlmRegionCell& cell);

} // namespace bs::widgets
