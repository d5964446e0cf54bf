#include "pageflow.h"

#include "tablecolumns.h"

#include <QAbstractTextDocumentLayout>
#include <QFontMetricsF>
#include <QSvgRenderer>
#include <QTextDocument>

#include <algorithm>

namespace bs::render {

namespace {

constexpr double kGapPt = 8.0;
/// Cell padding (4 pt each side), the borders and a little slack for Qt's own rounding.
constexpr double kCellPaddingPt = 12.0;
/// Table font sizes tried in turn until the longest words of every column fit the page.
constexpr double kTableFontsPt[] = {9.0, 8.0, 7.0, 6.5};

QString styleSheet(double fontPt)
{
    return QStringLiteral(
               "body { font-family: 'DejaVu Sans', Helvetica, sans-serif; font-size: %1pt; }"
               "h1 { font-size: 20pt; } h2 { font-size: 14pt; } h3 { font-size: 11.5pt; }"
               "table { border-collapse: collapse; } th { background: #e8e8e8; }"
               "td, th { padding: 2px 4px; } .muted { color: #666; }"
               ".summary { font-weight: bold; } .warning { color: #8a4b00; }"
               "pre { font-family: 'DejaVu Sans Mono', monospace; font-size: 7.5pt; }")
        .arg(fontPt);
}

QString statusColour(const std::string& cell)
{
    const QString lower = QString::fromStdString(cell).toLower();
    if (lower.startsWith(QStringLiteral("pass")) || lower.startsWith(QStringLiteral("ok")) ||
        lower.startsWith(QStringLiteral("same")))
        return QStringLiteral("#006d3c");
    if (lower.startsWith(QStringLiteral("fail")) || lower.startsWith(QStringLiteral("blocker")))
        return QStringLiteral("#b00020");
    if (lower.startsWith(QStringLiteral("warn")))
        return QStringLiteral("#8a4b00");
    return {};
}

/// Widest word and widest line of one cell in the given font.
ColumnExtent cellExtent(const QString& text, const QFontMetricsF& metrics)
{
    ColumnExtent extent;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        extent.longestLinePt = std::max(extent.longestLinePt, metrics.horizontalAdvance(line));
        for (const QString& word : line.split(QLatin1Char(' '), Qt::SkipEmptyParts))
            extent.longestWordPt = std::max(extent.longestWordPt, metrics.horizontalAdvance(word));
    }
    return extent;
}

/// Every column's extent; header and verdict cells are bold, so they are measured bold.
std::vector<ColumnExtent> columnExtents(const playbook::ReportTable& table, double fontPt,
                                        QPaintDevice* device)
{
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(fontPt);
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF plain(font, device), strong(bold, device);
    std::vector<ColumnExtent> extents(table.columns.size());
    auto widen = [&extents](std::size_t column, const ColumnExtent& cell) {
        extents[column].longestWordPt = std::max(extents[column].longestWordPt, cell.longestWordPt);
        extents[column].longestLinePt = std::max(extents[column].longestLinePt, cell.longestLinePt);
    };
    for (std::size_t c = 0; c < table.columns.size(); ++c)
        widen(c, cellExtent(QString::fromStdString(table.columns[c]), strong));
    for (const auto& row : table.rows) {
        for (std::size_t c = 0; c < row.size() && c < extents.size(); ++c)
            widen(c, cellExtent(QString::fromStdString(row[c]),
                                int(c) == table.statusColumn ? strong : plain));
    }
    return extents;
}

QString rowHtml(const playbook::ReportTable& table, const std::vector<std::string>& row)
{
    QString html = QStringLiteral("<tr>");
    for (std::size_t c = 0; c < row.size(); ++c) {
        const QString colour = int(c) == table.statusColumn ? statusColour(row[c]) : QString();
        html += colour.isEmpty() ? QStringLiteral("<td>%1</td>").arg(escapeForPdf(row[c]))
                                 : QStringLiteral("<td style=\"color:%1\"><b>%2</b></td>")
                                       .arg(colour, escapeForPdf(row[c]));
    }
    return html + QStringLiteral("</tr>");
}

/// The table's opening tag and header row, with each column's share of the width.
QString tableStartHtml(const playbook::ReportTable& table, const std::vector<double>& widthsPt)
{
    double total = 0.0;
    for (double w : widthsPt)
        total += w;
    QString html = QStringLiteral("<table border=\"1\" cellspacing=\"0\" width=\"100%\"><tr>");
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
        const QString width = c < widthsPt.size() && total > 0
                                  ? QStringLiteral(" width=\"%1%\"")
                                        .arg(QString::number(100.0 * widthsPt[c] / total, 'f', 1))
                                  : QString();
        html += QStringLiteral("<th align=\"left\"%1>%2</th>")
                    .arg(width, escapeForPdf(table.columns[c]));
    }
    return html + QStringLiteral("</tr>");
}

} // namespace

QString escapeForPdf(const std::string& text)
{
    // Longer than a SHA-256 in hex (64), which must stay on one line to be compared.
    constexpr qsizetype kMaxRunChars = 100;
    const QString in = QString::fromStdString(text);
    QString out;
    out.reserve(in.size() + in.size() / kMaxRunChars);
    qsizetype run = 0;
    for (const QChar c : in) {
        run = c.isSpace() ? 0 : run + 1;
        // Never between the halves of a surrogate pair.
        if (run > kMaxRunChars && !c.isLowSurrogate()) {
            out += QChar(0x200B);
            run = 1;
        }
        out += c;
    }
    return out.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
}

PageFlow::PageFlow(QPaintDevice* device)
    : m_device(device)
{}

std::shared_ptr<QTextDocument> PageFlow::layout(const QString& html, double fontPt) const
{
    auto document = std::make_shared<QTextDocument>();
    document->documentLayout()->setPaintDevice(m_device);
    document->setDefaultStyleSheet(styleSheet(fontPt));
    document->setDocumentMargin(0);
    document->setTextWidth(kContentWidthPt);
    document->setHtml(QStringLiteral("<body>") + html + QStringLiteral("</body>"));
    return document;
}

void PageFlow::breakPage()
{
    const bool chainOnThisPage = m_keepFrom >= 0 &&
                                 m_items[std::size_t(m_keepFrom)].page == m_page &&
                                 m_items[std::size_t(m_keepFrom)].y > kMarginPt;
    ++m_page;
    m_y = kMarginPt;
    if (!chainOnThisPage)
        return;
    for (std::size_t i = std::size_t(m_keepFrom); i < m_items.size(); ++i) {
        m_items[i].page = m_page;
        m_items[i].y = m_y;
        m_y += m_items[i].height + kGapPt;
    }
}

void PageFlow::place(std::shared_ptr<QTextDocument> text, std::shared_ptr<QSvgRenderer> figure,
                     double height, bool keepWithNext)
{
    if (height > remaining() && !atPageTop())
        breakPage();
    if (keepWithNext && m_keepFrom < 0)
        m_keepFrom = long(m_items.size());
    else if (!keepWithNext)
        m_keepFrom = -1;
    m_items.push_back({m_page, m_y, height, std::move(text), std::move(figure)});
    m_y += height + kGapPt;
}

void PageFlow::addText(const QString& html, bool keepWithNext)
{
    auto document = layout(html);
    const double height = document->size().height();
    place(document, nullptr, height, keepWithNext);
}

void PageFlow::addFigure(const figure::Figure& figure)
{
    auto renderer =
        std::make_shared<QSvgRenderer>(QByteArray::fromStdString(figure::renderFigureSvg(figure)));
    const QSizeF size = renderer->defaultSize();
    const double height = size.width() > 0 ? kContentWidthPt * size.height() / size.width() : 0.0;
    std::shared_ptr<QTextDocument> caption;
    if (!figure.caption.empty())
        caption =
            layout(QStringLiteral("<p class=\"muted\">%1</p>").arg(escapeForPdf(figure.caption)));
    const double captionHeight = caption ? caption->size().height() + kGapPt : 0.0;
    // The figure waits for room for its caption too: a caption never opens a page alone.
    if (height + captionHeight > remaining() && !atPageTop())
        breakPage();
    place(nullptr, renderer, height, false);
    if (caption)
        place(caption, nullptr, caption->size().height(), false);
}

void PageFlow::addTable(const playbook::ReportTable& table)
{
    if (!table.caption.empty())
        addText(QStringLiteral("<p><b>%1</b></p>").arg(escapeForPdf(table.caption)), true);
    double fontPt = kTableFontsPt[0];
    std::optional<std::vector<double>> widths;
    for (double candidatePt : kTableFontsPt) {
        fontPt = candidatePt;
        widths =
            fitColumns(columnExtents(table, fontPt, m_device), kContentWidthPt, kCellPaddingPt);
        if (widths)
            break;
    }
    // Still too wide at the smallest font: Qt shares the width out and breaks what must break.
    addTableRows(table, tableStartHtml(table, widths.value_or(std::vector<double>{})), fontPt);
    if (!table.note.empty())
        addText(QStringLiteral("<p class=\"muted\">%1</p>").arg(escapeForPdf(table.note)));
}

void PageFlow::addTableRows(const playbook::ReportTable& table, const QString& tableStart,
                            double fontPt)
{
    std::vector<QString> rows;
    for (const auto& row : table.rows)
        rows.push_back(rowHtml(table, row));
    auto tableHtml = [&](std::size_t from, std::size_t to) -> QString {
        QString html = tableStart;
        for (std::size_t i = from; i < to; ++i)
            html += rows[i];
        return html + QStringLiteral("</table>");
    };
    auto height = [&](std::size_t from, std::size_t to) {
        return layout(tableHtml(from, to), fontPt)->size().height();
    };
    if (rows.empty())
        place(layout(tableHtml(0, 0), fontPt), nullptr, height(0, 0), false);
    std::size_t from = 0;
    while (from < rows.size()) {
        // As many rows as fit on this page (at least one, so progress is guaranteed).
        std::size_t to = from + 1;
        while (to < rows.size() && height(from, to + 1) <= remaining())
            ++to;
        // A table opens with two rows at least (or all it has), never its header alone.
        const std::size_t opening = from == 0 ? std::min<std::size_t>(2, rows.size()) : 1;
        if ((to < opening || height(from, to) > remaining()) && !atPageTop()) {
            breakPage();
            continue;
        }
        auto document = layout(tableHtml(from, to), fontPt);
        const double documentHeight = document->size().height();
        place(document, nullptr, documentHeight, false);
        from = to;
    }
}

void PageFlow::addCode(const std::string& text, const std::string& caption)
{
    if (!caption.empty())
        addText(QStringLiteral("<p><b>%1</b></p>").arg(escapeForPdf(caption)), true);
    const QStringList lines = QString::fromStdString(text).split(QLatin1Char('\n'));
    qsizetype from = 0;
    while (from < lines.size()) {
        auto html = [&](qsizetype end) -> QString {
            return QStringLiteral("<pre>%1</pre>")
                .arg(lines.mid(from, end - from).join(QLatin1Char('\n')).toHtmlEscaped());
        };
        qsizetype to = from + 1;
        while (to < lines.size() && layout(html(to + 1))->size().height() <= remaining())
            ++to;
        if (to == from + 1 && layout(html(to))->size().height() > remaining() && !atPageTop()) {
            breakPage();
            continue;
        }
        addText(html(to));
        from = to;
    }
}

} // namespace bs::render
