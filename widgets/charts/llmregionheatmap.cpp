#include "charts/llmregionheatmap.h"

#include "analysis/llmregionpack.h"
#include "charts/fittedtext.h"
#include "charts/heatmapgrid.h"
#include "charts/llmregioncelltext.h"

#include <QHelpEvent>
#include <QMetaMethod>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace bs::widgets {

using analysis::LlmAxis;

namespace {

constexpr int kTopMarginPx = 8;
constexpr int kSwatchPx = 14;
constexpr double kCellFontScale = 1.3;
constexpr int kMinHeightPx = 380;
constexpr std::size_t kMinRowsShown = 3;

} // namespace

LlmRegionHeatmap::LlmRegionHeatmap(QWidget* parent)
    : QWidget(parent)
    , m_emptyText(tr("No LLM region computed yet"))
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setAccessibleName(tr("LLM feasible region heatmap"));
}

void LlmRegionHeatmap::setResult(std::shared_ptr<const analysis::LlmRegionResult> result,
                                 const Slice& slice)
{
    m_result = std::move(result);
    m_slice = slice;
    updateGeometry(); // the rows' minimum height follows the grid
    update();
}

void LlmRegionHeatmap::setEmptyText(const QString& text)
{
    m_emptyText = text;
    update();
}

std::size_t LlmRegionHeatmap::columns() const
{
    return m_result ? m_result->spec.maxNumBatchedTokens.size() : 0;
}

std::size_t LlmRegionHeatmap::rows() const
{
    return m_result ? m_result->spec.maxNumSeqs.size() : 0;
}

const analysis::LlmRegionCell* LlmRegionHeatmap::cellAtGrid(std::size_t column,
                                                            std::size_t row) const
{
    if (!m_result || column >= columns() || row >= rows())
        return nullptr;
    Slice at = m_slice;
    at[std::size_t(LlmAxis::MaxNumSeqs)] = row;
    at[std::size_t(LlmAxis::MaxNumBatchedTokens)] = column;
    for (std::size_t a = 0; a < at.size(); ++a)
        if (at[a] >= analysis::llmAxisSize(m_result->spec, LlmAxis(a)))
            return nullptr;
    const std::size_t index = analysis::llmCellIndex(m_result->spec, at);
    const auto& cells = m_result->cells;
    return index < cells.size() && cells[index].index == index ? &cells[index] : nullptr;
}

QString LlmRegionHeatmap::cellText(std::size_t column, std::size_t row) const
{
    const auto* cell = cellAtGrid(column, row);
    if (!cell)
        return {};
    const QString number = QString::fromStdString(analysis::llmCellTtftText(*cell));
    return number.isEmpty() ? labelOf(*cell) : number + QLatin1Char('\n') + labelOf(*cell);
}

QString LlmRegionHeatmap::labelOf(const analysis::LlmRegionCell& cell) const
{
    // The star goes in the text, so a small cell never draws it over the number.
    return (m_result->recommended() == &cell ? QStringLiteral("★ ") : QString()) +
           llmCellShortLabel(cell);
}

QString LlmRegionHeatmap::cellToolTip(std::size_t column, std::size_t row) const
{
    const auto* cell = cellAtGrid(column, row);
    if (!cell)
        return {};
    QString text = llmCellDescription(m_result->spec, *cell);
    if (m_result->recommended() == cell)
        text.prepend(tr("★ Recommended\n"));
    if (isSignalConnected(QMetaMethod::fromSignal(&LlmRegionHeatmap::cellActivated)))
        text += tr("\nClick: move the operating point to this cell.");
    return text;
}

// Margins follow the font, so projector fonts clip nothing.
int LlmRegionHeatmap::leftMargin() const
{
    int widest = fontMetrics().horizontalAdvance(QStringLiteral("0000"));
    if (m_result)
        for (auto seqs : m_result->spec.maxNumSeqs)
            widest = std::max(widest, fontMetrics().horizontalAdvance(QString::number(seqs)));
    return widest + fontMetrics().height() + 16;
}

int LlmRegionHeatmap::bottomMargin() const
{
    return 2 * fontMetrics().height() + 12;
}

int LlmRegionHeatmap::rightMargin() const
{
    // As wide as the legend entries this slice shows, so the cells keep the rest.
    int widest = fontMetrics().horizontalAdvance(tr("★ recommended"));
    for (const auto& [colour, name] : legendEntries())
        widest = std::max(widest, fontMetrics().horizontalAdvance(name) + kSwatchPx + 6);
    return widest + 24;
}

QRect LlmRegionHeatmap::plotRect() const
{
    return rect().adjusted(leftMargin(), kTopMarginPx, -rightMargin(), -bottomMargin());
}

QRect LlmRegionHeatmap::cellRect(std::size_t column, std::size_t row) const
{
    return HeatmapGrid{plotRect(), columns(), rows()}.cellRect(column, row);
}

std::optional<std::pair<std::size_t, std::size_t>>
LlmRegionHeatmap::gridAt(const QPoint& position) const
{
    return HeatmapGrid{plotRect(), columns(), rows()}.cellAt(position);
}

QSize LlmRegionHeatmap::minimumSizeHint() const
{
    // Each cell keeps room for its two lines of text, so a tall grid makes the page scroll
    // rather than shrink its figures.
    const int cellHeight = int(2.0 * kCellFontScale * fontMetrics().height()) + 8;
    const int cells = int(std::max<std::size_t>(rows(), kMinRowsShown));
    return {leftMargin() + rightMargin() + 60 * int(std::max<std::size_t>(columns(), 3)),
            std::max(kMinHeightPx, bottomMargin() + kTopMarginPx + cells * cellHeight)};
}

QList<std::pair<QColor, QString>> LlmRegionHeatmap::legendEntries() const
{
    QList<std::pair<QColor, QString>> entries;
    for (std::size_t row = 0; row < rows(); ++row)
        for (std::size_t column = 0; column < columns(); ++column)
            if (const auto* cell = cellAtGrid(column, row)) {
                const std::pair entry{llmCellQColour(*cell), llmCellCategory(*cell)};
                if (!entries.contains(entry))
                    entries.append(entry);
            }
    return entries;
}

void LlmRegionHeatmap::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), palette().base());
    painter.setPen(palette().text().color());
    if (!m_result || columns() == 0 || rows() == 0) {
        painter.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
                         m_emptyText);
        return;
    }
    for (std::size_t row = 0; row < rows(); ++row)
        for (std::size_t column = 0; column < columns(); ++column)
            if (const auto* cell = cellAtGrid(column, row))
                paintCell(painter, cellRect(column, row), *cell);
    paintAxes(painter);
    paintLegend(painter);
}

void LlmRegionHeatmap::paintCell(QPainter& painter, const QRect& box,
                                 const analysis::LlmRegionCell& cell) const
{
    QColor colour = llmCellQColour(cell);
    colour.setAlpha(cell.pending ? 140 : 220);
    painter.fillRect(box, colour);
    if (cell.pending)
        painter.fillRect(box, QBrush(QColor(90, 90, 90, 110), Qt::BDiagPattern));
    painter.setPen(Qt::black);
    // Large cells (a projector, a short grid) print larger; drawFittedText shrinks what does not
    // fit.
    painter.save();
    QFont font = painter.font();
    font.setPointSizeF(font.pointSizeF() * kCellFontScale);
    painter.setFont(font);
    const QString number = QString::fromStdString(analysis::llmCellTtftText(cell));
    const QString label = labelOf(cell);
    if (number.isEmpty())
        drawFittedText(painter, box, {label});
    else
        drawFittedText(
            painter, box,
            {number + QLatin1Char('\n') + label, number + QLatin1Char(' ') + label, number});
    painter.restore();
    if (m_result->recommended() == &cell) {
        painter.setPen(QPen(Qt::black, 3));
        painter.drawRect(box.adjusted(2, 2, -2, -2));
    }
}

void LlmRegionHeatmap::paintAxes(QPainter& painter) const
{
    const auto& spec = m_result->spec;
    const QRect plot = plotRect();
    const int line = fontMetrics().height();
    painter.setPen(palette().text().color());
    for (std::size_t column = 0; column < columns(); ++column) {
        const QRect box = cellRect(column, 0);
        painter.drawText(QRect(box.left(), plot.bottom() + 4, box.width(), line), Qt::AlignCenter,
                         QString::number(spec.maxNumBatchedTokens[column]));
    }
    painter.drawText(
        QRect(plot.left(), plot.bottom() + 8 + line, plot.width(), line), Qt::AlignCenter,
        tr("%1 (token budget per step)")
            .arg(QString::fromLatin1(analysis::llmTokenBudgetKnob(spec.scenario.engine))));
    for (std::size_t row = 0; row < rows(); ++row) {
        const QRect box = cellRect(0, row);
        painter.drawText(QRect(line + 4, box.top(), leftMargin() - line - 10, box.height()),
                         Qt::AlignRight | Qt::AlignVCenter, QString::number(spec.maxNumSeqs[row]));
    }
    painter.save();
    painter.translate(line / 2 + 4, plot.center().y());
    painter.rotate(-90);
    painter.drawText(QRect(-plot.height() / 2, -line / 2, plot.height(), line), Qt::AlignCenter,
                     tr("max_num_seqs"));
    painter.restore();
}

void LlmRegionHeatmap::paintLegend(QPainter& painter) const
{
    const QRect plot = plotRect();
    const int x = plot.right() + 12;
    const int width = rightMargin() - 16;
    const int line = fontMetrics().height() + 4;
    int y = plot.top();
    for (const auto& [colour, name] : legendEntries()) {
        painter.fillRect(QRect(x, y + (line - kSwatchPx) / 2, kSwatchPx, kSwatchPx), colour);
        painter.drawText(QRect(x + kSwatchPx + 6, y, width - kSwatchPx - 6, line),
                         Qt::AlignLeft | Qt::AlignVCenter, name);
        y += line;
    }
    if (m_result->recommendation) {
        painter.drawText(QRect(x, y, width, line), Qt::AlignLeft | Qt::AlignVCenter,
                         tr("★ recommended"));
        y += line;
    }
    painter.drawText(QRect(x, y + 4, width, plot.bottom() - y), Qt::AlignLeft | Qt::TextWordWrap,
                     tr("Number: TTFT p99 (ms); ?: not confident"));
}

bool LlmRegionHeatmap::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto grid = gridAt(help->pos());
        const QString text = grid ? cellToolTip(grid->first, grid->second) : QString();
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void LlmRegionHeatmap::mouseReleaseEvent(QMouseEvent* event)
{
    QWidget::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton)
        return;
    if (const auto at = gridAt(event->position().toPoint()))
        if (const auto* cell = cellAtGrid(at->first, at->second))
            Q_EMIT cellActivated(cell->index);
}

} // namespace bs::widgets
