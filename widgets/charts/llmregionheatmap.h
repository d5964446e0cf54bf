#pragma once

#include "analysis/llmregion.h"

#include <QWidget>

#include <array>
#include <memory>
#include <optional>

class QMouseEvent;
class QPainter;

namespace bs::widgets {

/// The LLM feasible region over max_num_seqs (rows, upward) × max_num_batched_tokens
/// (columns) at one value of every other axis (the slice). Each cell is coloured feasible or by
/// the limit that fails it first, prints its TTFT p99 in ms ("?" when not confident) over a
/// short verdict label; cells still pending in a preview are grey, hatched and labelled
/// "pending"; the recommended cell is outlined. Hover shows every check and the evidence.
class LlmRegionHeatmap : public QWidget
{
    Q_OBJECT
public:
    using Slice = std::array<std::size_t, analysis::kLlmAxisCount>;

    explicit LlmRegionHeatmap(QWidget* parent = nullptr);

    /// Draws `result` at `slice` (the max_num_seqs and max_num_batched_tokens entries are
    /// ignored); null draws `emptyText` instead.
    void setResult(std::shared_ptr<const analysis::LlmRegionResult> result, const Slice& slice);
    void setEmptyText(const QString& text);
    QString emptyText() const { return m_emptyText; }

    std::size_t columns() const;
    std::size_t rows() const;
    /// The cell drawn at (column, row), row 0 at the bottom; null when none.
    const analysis::LlmRegionCell* cellAtGrid(std::size_t column, std::size_t row) const;
    /// What a cell prints before any shrinking to fit: its TTFT p99 text over its short label
    /// ("★ ok" for the recommended cell).
    QString cellText(std::size_t column, std::size_t row) const;
    /// The tooltip of the cell at (column, row).
    QString cellToolTip(std::size_t column, std::size_t row) const;
    QRect cellRect(std::size_t column, std::size_t row) const;
    std::optional<std::pair<std::size_t, std::size_t>> gridAt(const QPoint& position) const;

    QSize minimumSizeHint() const override;

Q_SIGNALS:
    /// A drawn cell was clicked: its index in the region (pending cells too).
    void cellActivated(std::size_t index);

protected:
    void mouseReleaseEvent(QMouseEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRect plotRect() const;
    int leftMargin() const;
    int rightMargin() const;
    int bottomMargin() const;
    /// The legend's entries for the cells drawn now: (colour, words), in first-seen order.
    QList<std::pair<QColor, QString>> legendEntries() const;
    QString labelOf(const analysis::LlmRegionCell& cell) const;
    void paintCell(QPainter& painter, const QRect& box, const analysis::LlmRegionCell& cell) const;
    void paintAxes(QPainter& painter) const;
    void paintLegend(QPainter& painter) const;

    std::shared_ptr<const analysis::LlmRegionResult> m_result;
    Slice m_slice{};
    QString m_emptyText;
};

} // namespace bs::widgets
