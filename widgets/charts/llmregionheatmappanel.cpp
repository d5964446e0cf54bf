#include "charts/llmregionheatmappanel.h"

#include "analysis/llmregionpack.h"
#include "charts/llmregioncelltext.h"

#include <QTableWidgetItem>

#include <algorithm>
#include <cmath>

namespace bs::widgets {

namespace {

/// The smallest margin of a cell's checks, in percent (what it meets first, or fails most).
double smallestMarginPct(const analysis::LlmRegionCell& cell)
{
    double smallest = NAN;
    for (const auto& check : cell.checks)
        if (std::isfinite(check.margin) && !(check.margin >= smallest))
            smallest = check.margin;
    return smallest * 100.0;
}

QString bindingText(const analysis::LlmRegionCell& cell)
{
    if (cell.pending || cell.binding == analysis::LlmConstraint::None)
        return QStringLiteral("—");
    return llmConstraintTitle(cell.binding);
}

} // namespace

LlmRegionHeatmapPanel::LlmRegionHeatmapPanel(QWidget* parent)
    : LlmRegionHeatmapPanel(new LlmRegionHeatmap, parent)
{}

LlmRegionHeatmapPanel::LlmRegionHeatmapPanel(LlmRegionHeatmap* heatmap, QWidget* parent)
    : HeatmapPanel(heatmap, tr("LLM region heatmap"), parent)
    , m_heatmap(heatmap)
{}

void LlmRegionHeatmapPanel::setResult(std::shared_ptr<const analysis::LlmRegionResult> result,
                                      const LlmRegionHeatmap::Slice& slice,
                                      const QString& emptyText)
{
    m_result = result;
    m_heatmap->setResult(std::move(result), slice);
    if (!m_result)
        m_heatmap->setEmptyText(emptyText);
    refillTable();
}

void LlmRegionHeatmapPanel::refillTable()
{
    if (!m_result || m_heatmap->columns() == 0) {
        setTableRows({}, {});
        return;
    }
    const QStringList headers{
        QString::fromLatin1(analysis::llmTokenBudgetKnob(m_result->spec.scenario.engine)),
        tr("max_num_seqs"),
        tr("Verdict"),
        tr("Binding limit"),
        tr("Smallest margin (%)"),
        tr("TTFT p99 (ms)"),
        tr("TPOT p99 (ms)"),
        tr("Output tokens/s"),
        tr("Power per GPU (W)"),
        tr("Energy per output token (J)"),
        tr("Evidence")};
    QList<QList<QTableWidgetItem*>> rows;
    for (std::size_t row = 0; row < m_heatmap->rows(); ++row) {
        for (std::size_t column = 0; column < m_heatmap->columns(); ++column) {
            const auto* cell = m_heatmap->cellAtGrid(column, row);
            if (!cell)
                continue;
            const auto& m = cell->metrics;
            rows.append(
                {heatmapNumberItem(cell->knobs.maxNumBatchedTokens),
                 heatmapNumberItem(cell->knobs.maxNumSeqs), heatmapTextItem(llmCellCategory(*cell)),
                 heatmapTextItem(bindingText(*cell)), heatmapNumberItem(smallestMarginPct(*cell)),
                 heatmapNumberItem(m.ttftP99Ms.value), heatmapNumberItem(m.tpotP99Ms.value),
                 heatmapNumberItem(m.outputTokensPerS.value),
                 heatmapNumberItem(m.powerPerGpuW.value),
                 heatmapNumberItem(m.energyPerOutputTokenJ.value),
                 heatmapTextItem(
                     QString::fromStdString(analysis::llmCellEvidence(m_result->spec, *cell)))});
        }
    }
    setTableRows(headers, rows);
}

std::optional<figure::Figure> LlmRegionHeatmapPanel::figure() const
{
    if (!m_result)
        return std::nullopt;
    for (auto& named : analysis::llmRegionFigures(*m_result))
        if (named.name == "llm-region-heatmap")
            return std::move(named.figure);
    return std::nullopt;
}

} // namespace bs::widgets
