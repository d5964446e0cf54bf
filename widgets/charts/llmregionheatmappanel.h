#pragma once

#include "analysis/llmregion.h"
#include "charts/heatmappanel.h"
#include "charts/llmregionheatmap.h"
#include "figure/figure.h"

#include <memory>
#include <optional>

namespace bs::widgets {

/// The LLM region's heatmap in a HeatmapPanel: its Table has one row per cell of the slice shown
/// (max_num_batched_tokens, max_num_seqs, verdict, binding limit, smallest margin, TTFT and TPOT
/// p99, output tokens/s, power per GPU, energy per output token, evidence), and Attach to memo
/// takes the curve pack's "llm-region-heatmap" figure.
class LlmRegionHeatmapPanel : public HeatmapPanel
{
    Q_OBJECT
public:
    explicit LlmRegionHeatmapPanel(QWidget* parent = nullptr);

    LlmRegionHeatmap* heatmap() const { return m_heatmap; }
    /// Draws `result` at `slice` (LlmRegionHeatmap::setResult) and fills the table with the
    /// same cells; null draws `emptyText` and empties the table.
    void setResult(std::shared_ptr<const analysis::LlmRegionResult> result,
                   const LlmRegionHeatmap::Slice& slice, const QString& emptyText = {});
    /// The heatmap as the curve pack, the memo and the report draw it; nullopt without a result.
    std::optional<figure::Figure> figure() const;

private:
    LlmRegionHeatmapPanel(LlmRegionHeatmap* heatmap, QWidget* parent);
    void refillTable();

    LlmRegionHeatmap* m_heatmap;
    std::shared_ptr<const analysis::LlmRegionResult> m_result;
};

} // namespace bs::widgets
