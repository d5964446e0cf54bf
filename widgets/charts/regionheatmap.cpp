#include "charts/regionheatmap.h"

#include "analysis/regionpalette.h"
#include "charts/fittedtext.h"
#include "charts/heatmapgrid.h"
#include "charts/regioncelltext.h"

#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <cmath>
#include <limits>

namespace bs::widgets {

namespace {

constexpr int kLeftMargin = 64;
constexpr int kTopMargin = 12;

/// Row-major cell number (the last axis varies fastest), as analysis::RegionGrid numbers them.
std::size_t flatIndex(const analysis::RegionSpec& spec, const std::vector<std::size_t>& axisIndex)
{
    std::size_t index = 0;
    for (std::size_t axis = 0; axis < spec.axes.size(); ++axis)
        index = index * spec.axes[axis].size() + axisIndex[axis];
    return index;
}

QString percent(double fraction)
{
    return std::isfinite(fraction)
               ? QLocale().toString(fraction * 100.0, 'f', 0) + QStringLiteral("%")
               : QString();
}

QString estimateText(const sim::Estimate& estimate, double scale, const QString& unit)
{
    if (!std::isfinite(estimate.value))
        return QStringLiteral("—");
    QString text = QLocale().toString(estimate.value * scale, 'g', 4) + unit;
    if (std::isfinite(estimate.ciLow))
        text += QStringLiteral(" [%1, %2]")
                    .arg(QLocale().toString(estimate.ciLow * scale, 'g', 4),
                         QLocale().toString(estimate.ciHigh * scale, 'g', 4));
    return text;
}

} // namespace

QColor regionCellColour(const analysis::RegionCell& cell)
{
    const auto rgb = analysis::regionCellColour(cell);
    return QColor(rgb.red, rgb.green, rgb.blue);
}

QString regionCellCategory(const analysis::RegionCell& cell)
{
    switch (cell.status) {
    case analysis::CellStatus::Feasible:
        return QObject::tr("feasible");
    case analysis::CellStatus::Unstable:
        return QObject::tr("unstable (ρ ≥ 1)");
    case analysis::CellStatus::Error:
        return QObject::tr("error");
    case analysis::CellStatus::Infeasible:
        break;
    }
    switch (cell.binding) {
    case analysis::ConstraintKind::P99:
        return QObject::tr("p99 > SLA");
    case analysis::ConstraintKind::Throughput:
        return QObject::tr("throughput < demand");
    case analysis::ConstraintKind::Power:
        return QObject::tr("power > limit");
    case analysis::ConstraintKind::Temperature:
        return QObject::tr("temperature > limit");
    case analysis::ConstraintKind::Energy:
        return QObject::tr("energy > budget");
    default:
        return QObject::tr("infeasible");
    }
}

RegionHeatmap::RegionHeatmap(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setAccessibleName(tr("Feasible region heatmap"));
}

void RegionHeatmap::setResult(std::shared_ptr<const analysis::RegionResult> result,
                              std::size_t columnAxis, std::size_t rowAxis,
                              std::vector<std::size_t> fixed)
{
    m_result = std::move(result);
    m_columnAxis = columnAxis;
    m_rowAxis = rowAxis;
    m_fixed = std::move(fixed);
    if (m_result)
        m_fixed.resize(m_result->spec.axes.size(), 0);
    update();
}

std::size_t RegionHeatmap::columns() const
{
    return m_result && m_columnAxis < m_result->spec.axes.size()
               ? m_result->spec.axes[m_columnAxis].size()
               : 0;
}

std::size_t RegionHeatmap::rows() const
{
    if (!m_result)
        return 0;
    // A one-axis grid draws a single row.
    return m_rowAxis < m_result->spec.axes.size() && m_rowAxis != m_columnAxis
               ? m_result->spec.axes[m_rowAxis].size()
               : 1;
}

// Margins follow the font, so projector mode (large fonts) clips nothing.
int RegionHeatmap::leftMargin() const
{
    return std::max(kLeftMargin, fontMetrics().horizontalAdvance(QStringLiteral("00000")) + 36);
}

int RegionHeatmap::bottomMargin() const
{
    return 2 * fontMetrics().height() + 12;
}

int RegionHeatmap::rightMargin() const
{
    // As wide as the legend entries this grid shows, so a narrow page keeps its width for the
    // cells (a legend sized for every category took 150 px of a 360 px heatmap).
    int widest = fontMetrics().horizontalAdvance(tr("★ recommended"));
    for (std::size_t row = 0; row < rows(); ++row)
        for (std::size_t column = 0; column < columns(); ++column)
            if (const auto* cell = cellAtGrid(column, row))
                widest = std::max(widest,
                                  fontMetrics().horizontalAdvance(regionCellCategory(*cell)) + 20);
    return widest + 24;
}

QRect RegionHeatmap::plotRect() const
{
    return rect().adjusted(leftMargin(), kTopMargin, -rightMargin(), -bottomMargin());
}

QRect RegionHeatmap::cellRect(std::size_t column, std::size_t row) const
{
    return HeatmapGrid{plotRect(), columns(), rows()}.cellRect(column, row);
}

const analysis::RegionCell* RegionHeatmap::cellAtGrid(std::size_t column, std::size_t row) const
{
    if (!m_result)
        return nullptr;
    auto index = m_fixed;
    index[m_columnAxis] = column;
    if (m_rowAxis < index.size() && m_rowAxis != m_columnAxis)
        index[m_rowAxis] = row;
    return m_result->cell(flatIndex(m_result->spec, index));
}

std::optional<std::pair<std::size_t, std::size_t>>
RegionHeatmap::gridAt(const QPoint& position) const
{
    return HeatmapGrid{plotRect(), columns(), rows()}.cellAt(position);
}

std::optional<std::size_t> RegionHeatmap::cellAt(const QPoint& position) const
{
    const auto grid = gridAt(position);
    if (!grid)
        return std::nullopt;
    const auto* cell = cellAtGrid(grid->first, grid->second);
    return cell ? std::optional<std::size_t>(cell->index) : std::nullopt;
}

QString RegionHeatmap::describeCell(const analysis::RegionCell& cell) const
{
    QStringList lines;
    const auto& spec = m_result->spec;
    for (std::size_t axis = 0; axis < spec.axes.size() && axis < cell.axisIndex.size(); ++axis)
        lines << QStringLiteral("%1 = %2").arg(
            QString::fromStdString(analysis::axisTitle(spec.axes[axis].kind)),
            QString::fromStdString(spec.axes[axis].label(cell.axisIndex[axis])));
    lines << tr("Verdict: %1 (%2)")
                 .arg(regionCellCategory(cell),
                      QString::fromStdString(analysis::cellEvidence(cell)));
    lines << tr("Binding: %1").arg(bindingText(cell));
    const auto& m = cell.metrics;
    lines << tr("Offered %1 req/s, ρ = %2")
                 .arg(QLocale().toString(m.offeredRatePerS, 'g', 5),
                      QLocale().toString(m.rho, 'f', 3));
    lines << tr("Throughput %1").arg(estimateText(m.throughputPerS, 1.0, tr(" req/s")));
    lines << tr("p99 %1").arg(estimateText(m.p99S, 1e3, QStringLiteral(" ms")));
    lines << tr("Energy/inference %1")
                 .arg(estimateText(m.energyPerInferenceJ, 1e3, QStringLiteral(" mJ")));
    lines << tr("Power/server %1").arg(estimateText(m.powerPerServerW, 1.0, QStringLiteral(" W")));
    for (const auto& check : cell.checks)
        lines << tr("  %1 margin %2 %3")
                     .arg(QString::fromUtf8(analysis::constraintName(check.kind)),
                          percent(check.margin), check.satisfied ? tr("(met)") : tr("(missed)"));
    if (!cell.note.empty())
        lines << QString::fromStdString(cell.note);
    return lines.join(QLatin1Char('\n'));
}

void RegionHeatmap::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), palette().base());
    painter.setPen(palette().text().color());
    if (!m_result || columns() == 0) {
        painter.drawText(rect(), Qt::AlignCenter, tr("No region computed yet"));
        return;
    }
    const auto& spec = m_result->spec;
    // No recommendation: an index no cell has.
    const std::size_t recommended = m_result->recommendation
                                        ? m_result->recommendation->cell
                                        : std::numeric_limits<std::size_t>::max();
    QList<std::pair<QColor, QString>> legend;
    for (std::size_t row = 0; row < rows(); ++row) {
        for (std::size_t column = 0; column < columns(); ++column) {
            const QRect box = cellRect(column, row);
            const auto* cell = cellAtGrid(column, row);
            if (!cell) {
                painter.fillRect(box, palette().alternateBase());
                continue;
            }
            QColor colour = widgets::regionCellColour(*cell);
            colour.setAlpha(cell->pending ? 110 : 210);
            painter.fillRect(box, colour);
            if (cell->status == analysis::CellStatus::Unstable)
                painter.fillRect(box, QBrush(QColor(60, 60, 60, 90), Qt::BDiagPattern));
            const auto entry =
                std::pair{widgets::regionCellColour(*cell), regionCellCategory(*cell)};
            if (!legend.contains(entry))
                legend.append(entry);
            paintCell(painter, box, *cell);
            if (cell->index == recommended) {
                painter.setPen(QPen(Qt::black, 3));
                painter.drawRect(box.adjusted(2, 2, -2, -2));
                painter.drawText(box.adjusted(4, 2, 0, 0), Qt::AlignLeft | Qt::AlignTop,
                                 QStringLiteral("★"));
            }
        }
    }
    painter.setPen(palette().text().color());
    const QRect plot = plotRect();
    for (std::size_t column = 0; column < columns(); ++column) {
        const QRect box = cellRect(column, 0);
        painter.drawText(QRect(box.left(), plot.bottom() + 4, box.width(), fontMetrics().height()),
                         Qt::AlignCenter,
                         QString::fromStdString(spec.axes[m_columnAxis].label(column)));
    }
    painter.drawText(QRect(plot.left(), plot.bottom() + 6 + fontMetrics().height(), plot.width(),
                           fontMetrics().height()),
                     Qt::AlignCenter,
                     QString::fromStdString(analysis::axisTitle(spec.axes[m_columnAxis].kind)));
    if (m_rowAxis < spec.axes.size() && m_rowAxis != m_columnAxis) {
        for (std::size_t row = 0; row < rows(); ++row) {
            const QRect box = cellRect(0, row);
            painter.drawText(QRect(4, box.top(), leftMargin() - 30, box.height()),
                             Qt::AlignRight | Qt::AlignVCenter,
                             QString::fromStdString(spec.axes[m_rowAxis].label(row)));
        }
        painter.save();
        painter.translate(fontMetrics().height() / 2 + 4, plot.center().y());
        painter.rotate(-90);
        painter.drawText(QRect(-plot.height() / 2, -fontMetrics().height() / 2, plot.height(),
                               fontMetrics().height()),
                         Qt::AlignCenter,
                         QString::fromStdString(analysis::axisTitle(spec.axes[m_rowAxis].kind)));
        painter.restore();
    }
    int y = plot.top();
    const int x = plot.right() + 12;
    const int line = fontMetrics().height() + 4;
    for (const auto& [colour, name] : legend) {
        painter.fillRect(QRect(x, y + (line - 14) / 2, 14, 14), colour);
        painter.drawText(QRect(x + 20, y, rightMargin() - 32, line),
                         Qt::AlignLeft | Qt::AlignVCenter, name);
        y += line;
    }
    if (m_result->recommendation) {
        painter.drawText(QRect(x, y, rightMargin() - 12, line), Qt::AlignLeft | Qt::AlignVCenter,
                         tr("★ recommended"));
        y += line;
    }
    painter.drawText(QRect(x, y, rightMargin() - 12, height() - y),
                     Qt::AlignLeft | Qt::TextWordWrap,
                     tr("%: smallest margin; p99, pwr…: binding limit; ~: short run; ?: not "
                        "confident"));
}

void RegionHeatmap::paintCell(QPainter& painter, const QRect& box,
                              const analysis::RegionCell& cell) const
{
    painter.setPen(Qt::black);
    // "~": a short run decided it (far from every limit); "?": not confident.
    const QString evidence =
        QLatin1String(cell.method == analysis::CellMethod::ShortRun ? "~" : "") +
        QLatin1String(cell.confident && !cell.pending ? "" : "?");
    // The smallest margin says how close the cell is to the boundary, the label which limit
    // it would meet first (or misses).
    const double margin = smallestMargin(cell);
    const QString first = cell.status == analysis::CellStatus::Feasible && std::isfinite(margin)
                              ? percent(margin) + evidence
                              : (cell.status != analysis::CellStatus::Error ? evidence : QString());
    const QString label = bindingShortLabel(cell);
    // Narrow cells (a laptop screen, seven columns) get a smaller font before anything is
    // dropped; what still does not fit is left to the tooltip and the table, never overlapped.
    const QString separator = box.height() >= 2 * painter.fontMetrics().height() + 2
                                  ? QStringLiteral("\n")
                                  : QStringLiteral(" ");
    const QString both = first.isEmpty() || label.isEmpty() ? QString(first + label)
                                                            : QString(first + separator + label);
    drawFittedText(painter, box, {both, first});
}

void RegionHeatmap::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        if (const auto cell = cellAt(event->position().toPoint()))
            Q_EMIT cellActivated(*cell);
    QWidget::mousePressEvent(event);
}

bool RegionHeatmap::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto grid = gridAt(help->pos());
        const auto* cell = grid ? cellAtGrid(grid->first, grid->second) : nullptr;
        if (cell)
            QToolTip::showText(help->globalPos(), describeCell(*cell), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace bs::widgets
