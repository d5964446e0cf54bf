#pragma once

#include "analysis/regionresult.h"
#include "charts/heatmappanel.h"
#include "figure/figure.h"

#include <memory>
#include <optional>
#include <vector>

namespace bs::widgets {

class RegionHeatmap;

/// The queueing region's heatmap in a HeatmapPanel: its Table has one row per cell shown (its
/// policy, verdict, binding constraint, smallest margin and metrics).
class RegionHeatmapPanel : public HeatmapPanel
{
    Q_OBJECT
public:
    explicit RegionHeatmapPanel(QWidget* parent = nullptr);

    RegionHeatmap* heatmap() const { return m_heatmap; }
    /// Draws a result (RegionHeatmap::setResult) and fills the table with the same cells.
    void setResult(std::shared_ptr<const analysis::RegionResult> result, std::size_t columnAxis,
                   std::size_t rowAxis, std::vector<std::size_t> fixed);
    /// The heatmap as the memo and the report draw it, or nullopt before a region exists.
    std::optional<figure::Figure> figure() const;

private:
    RegionHeatmapPanel(RegionHeatmap* heatmap, QWidget* parent);
    void refillTable();

    RegionHeatmap* m_heatmap;
};

} // namespace bs::widgets
