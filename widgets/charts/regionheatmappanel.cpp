#include "charts/regionheatmappanel.h"

#include "analysis/curvefigures.h"
#include "charts/regioncelltext.h"
#include "charts/regionheatmap.h"

#include <QTableWidgetItem>

namespace bs::widgets {

namespace {

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

/// The cell's row of the table after its axis values: verdict, binding, margin, metrics.
QList<QTableWidgetItem*> cellItems(const analysis::RegionCell& cell)
{
    const auto& m = cell.metrics;
    return {heatmapTextItem(regionCellCategory(cell)),
            heatmapTextItem(bindingText(cell)),
            heatmapNumberItem(smallestMargin(cell) * 100.0),
            heatmapNumberItem(m.p99S.value * 1e3),
            heatmapNumberItem(m.throughputPerS.value),
            heatmapNumberItem(m.powerPerServerW.value),
            heatmapNumberItem(m.energyPerInferenceJ.value * 1e3),
            heatmapTextItem(q(analysis::cellEvidence(cell)))};
}

} // namespace

RegionHeatmapPanel::RegionHeatmapPanel(QWidget* parent)
    : RegionHeatmapPanel(new RegionHeatmap, parent)
{}

RegionHeatmapPanel::RegionHeatmapPanel(RegionHeatmap* heatmap, QWidget* parent)
    : HeatmapPanel(heatmap, tr("region heatmap"), parent)
    , m_heatmap(heatmap)
{}

void RegionHeatmapPanel::setResult(std::shared_ptr<const analysis::RegionResult> result,
                                   std::size_t columnAxis, std::size_t rowAxis,
                                   std::vector<std::size_t> fixed)
{
    m_heatmap->setResult(std::move(result), columnAxis, rowAxis, std::move(fixed));
    refillTable();
}

void RegionHeatmapPanel::refillTable()
{
    const analysis::RegionResult* result = m_heatmap->result();
    if (!result || m_heatmap->columns() == 0) {
        setTableRows({}, {});
        return;
    }
    const auto& axes = result->spec.axes;
    const bool twoAxes = m_heatmap->rowAxis() != m_heatmap->columnAxis();
    QStringList headers{q(analysis::axisTitle(axes[m_heatmap->columnAxis()].kind))};
    if (twoAxes)
        headers << q(analysis::axisTitle(axes[m_heatmap->rowAxis()].kind));
    headers << tr("Verdict") << tr("Binding constraint") << tr("Smallest margin (%)")
            << tr("p99 (ms)") << tr("Throughput (req/s)") << tr("Power per server (W)")
            << tr("Energy per inference (mJ)") << tr("Evidence");
    QList<QList<QTableWidgetItem*>> rows;
    for (std::size_t row = 0; row < m_heatmap->rows(); ++row) {
        for (std::size_t column = 0; column < m_heatmap->columns(); ++column) {
            const auto* cell = m_heatmap->cellAtGrid(column, row);
            if (!cell)
                continue;
            QList<QTableWidgetItem*> items{
                heatmapTextItem(q(axes[m_heatmap->columnAxis()].label(column)))};
            if (twoAxes)
                items.append(heatmapTextItem(q(axes[m_heatmap->rowAxis()].label(row))));
            items.append(cellItems(*cell));
            rows.append(items);
        }
    }
    setTableRows(headers, rows);
}

std::optional<figure::Figure> RegionHeatmapPanel::figure() const
{
    const analysis::RegionResult* result = m_heatmap->result();
    if (!result)
        return std::nullopt;
    for (auto& named : analysis::curvePackFigures(*result))
        if (named.name == "region-heatmap")
            return std::move(named.figure);
    return std::nullopt;
}

} // namespace bs::widgets
