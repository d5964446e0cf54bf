#include "pdfreport.h"

#include "playbook/figure.h"

#include <QAbstractTextDocumentLayout>
#include <QFile>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgRenderer>
#include <QTextDocument>

#include <algorithm>
#include <memory>
#include <vector>

namespace bs::render {

namespace {

// Layout in points (the writer runs at 72 dpi): A4 with 50 pt margins.
constexpr double kPageWidthPt = 595.0;
constexpr double kPageHeightPt = 842.0;
constexpr double kMarginPt = 50.0;
constexpr double kFooterPt = 24.0;
constexpr double kContentWidthPt = kPageWidthPt - 2 * kMarginPt;
constexpr double kContentBottomPt = kPageHeightPt - kMarginPt - kFooterPt;
constexpr double kGapPt = 8.0;

const char* kStyleSheet =
    "body { font-family: 'DejaVu Sans', Helvetica, sans-serif; font-size: 9pt; }"
    "h1 { font-size: 20pt; } h2 { font-size: 14pt; } h3 { font-size: 11.5pt; }"
    "table { border-collapse: collapse; } th { background: #e8e8e8; }"
    "td, th { padding: 2px 4px; } .muted { color: #666; }"
    ".summary { font-weight: bold; } .warning { color: #8a4b00; }"
    "pre { font-family: 'DejaVu Sans Mono', monospace; font-size: 7.5pt; }";

/// The text with a zero-width break opportunity after every kMaxRunChars characters of a run
/// without spaces: Qt's line breaking is quadratic in the length of a word wider than the
/// line (a 1 MB token in a memo field took minutes), and on paper such a run wraps anyway.
QString withBreakOpportunities(const QString& text)
{
    constexpr qsizetype kMaxRunChars = 60;
    QString out;
    out.reserve(text.size() + text.size() / kMaxRunChars);
    qsizetype run = 0;
    for (const QChar c : text) {
        run = c.isSpace() ? 0 : run + 1;
        // Never between the halves of a surrogate pair.
        if (run > kMaxRunChars && !c.isLowSurrogate()) {
            out += QChar(0x200B);
            run = 1;
        }
        out += c;
    }
    return out;
}

QString escape(const std::string& text)
{
    return withBreakOpportunities(QString::fromStdString(text))
        .toHtmlEscaped()
        .replace(QLatin1Char('\n'), QStringLiteral("<br>"));
}

/// The title as the footer shows it: one line, so a long title is cut once here rather than
/// laid out in full on every page.
QString footerTitle(const std::string& title)
{
    constexpr qsizetype kMaxChars = 100;
    const QString text = QString::fromStdString(title).simplified();
    return text.size() <= kMaxChars ? text : text.left(kMaxChars) + QChar(0x2026);
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

QString statusBadge(playbook::StepStatus status)
{
    const char* colour = status == playbook::StepStatus::Ok        ? "#006d3c"
                         : status == playbook::StepStatus::Warning ? "#8a4b00"
                         : status == playbook::StepStatus::Blocker ? "#b00020"
                                                                   : "#666666";
    return QStringLiteral(" <span style=\"color:%1; font-size:9pt\">[%2]</span>")
        .arg(QString::fromLatin1(colour), escape(playbook::stepStatusLabel(status)));
}

/// One thing placed on a page: a laid-out text document or a figure.
struct Placed
{
    int page = 0;
    double y = 0.0;
    double height = 0.0;
    std::shared_ptr<QTextDocument> text;
    std::shared_ptr<QSvgRenderer> figure;
};

/// Flows blocks down pages, breaking before anything that does not fit.
class PageFlow
{
public:
    explicit PageFlow(QPaintDevice* device)
        : m_device(device)
    {}

    std::shared_ptr<QTextDocument> layout(const QString& html) const
    {
        auto document = std::make_shared<QTextDocument>();
        document->documentLayout()->setPaintDevice(m_device);
        document->setDefaultStyleSheet(QString::fromLatin1(kStyleSheet));
        document->setDocumentMargin(0);
        document->setTextWidth(kContentWidthPt);
        document->setHtml(QStringLiteral("<body>") + html + QStringLiteral("</body>"));
        return document;
    }

    double remaining() const { return kContentBottomPt - m_y; }
    bool atPageTop() const { return m_y <= kMarginPt; }
    void newPage()
    {
        ++m_page;
        m_y = kMarginPt;
    }

    void addText(const QString& html, bool keepWithNext = false)
    {
        auto document = layout(html);
        const double height = document->size().height();
        // A heading needs room for some of what follows it.
        const double needed = height + (keepWithNext ? 120.0 : 0.0);
        if (needed > remaining() && m_y > kMarginPt)
            newPage();
        m_items.push_back({m_page, m_y, height, document, nullptr});
        m_y += height + kGapPt;
    }

    void addFigure(const playbook::Figure& figure)
    {
        auto renderer = std::make_shared<QSvgRenderer>(
            QByteArray::fromStdString(playbook::renderFigureSvg(figure)));
        const QSizeF size = renderer->defaultSize();
        const double height =
            size.width() > 0 ? kContentWidthPt * size.height() / size.width() : 0.0;
        if (height > remaining() && m_y > kMarginPt)
            newPage();
        m_items.push_back({m_page, m_y, height, nullptr, renderer});
        m_y += height + kGapPt;
        if (!figure.caption.empty())
            addText(QStringLiteral("<p class=\"muted\">%1</p>").arg(escape(figure.caption)));
    }

    /// A table split across pages, its header repeated on each.
    void addTable(const playbook::ReportTable& table)
    {
        if (!table.caption.empty())
            addText(QStringLiteral("<p><b>%1</b></p>").arg(escape(table.caption)), true);
        QString header = QStringLiteral("<tr>");
        for (const auto& column : table.columns)
            header += QStringLiteral("<th align=\"left\">%1</th>").arg(escape(column));
        header += QStringLiteral("</tr>");
        std::vector<QString> rows;
        for (const auto& row : table.rows) {
            QString html = QStringLiteral("<tr>");
            for (std::size_t c = 0; c < row.size(); ++c) {
                const QString colour =
                    int(c) == table.statusColumn ? statusColour(row[c]) : QString();
                html += colour.isEmpty() ? QStringLiteral("<td>%1</td>").arg(escape(row[c]))
                                         : QStringLiteral("<td style=\"color:%1\"><b>%2</b></td>")
                                               .arg(colour, escape(row[c]));
            }
            rows.push_back(html + QStringLiteral("</tr>"));
        }
        auto tableHtml = [&](std::size_t from, std::size_t to) -> QString {
            QString html =
                QStringLiteral("<table border=\"1\" cellspacing=\"0\" width=\"100%\">") + header;
            for (std::size_t i = from; i < to; ++i)
                html += rows[i];
            return html + QStringLiteral("</table>");
        };
        if (rows.empty())
            addText(tableHtml(0, 0));
        std::size_t from = 0;
        while (from < rows.size()) {
            // As many rows as fit on this page (at least one, so progress is guaranteed).
            std::size_t to = from + 1;
            while (to < rows.size() &&
                   layout(tableHtml(from, to + 1))->size().height() <= remaining())
                ++to;
            if (to == from + 1 && layout(tableHtml(from, to))->size().height() > remaining() &&
                !atPageTop()) {
                newPage();
                continue;
            }
            addText(tableHtml(from, to));
            from = to;
        }
        if (!table.note.empty())
            addText(QStringLiteral("<p class=\"muted\">%1</p>").arg(escape(table.note)));
    }

    /// Preformatted text, split by lines across pages.
    void addCode(const std::string& text, const std::string& caption)
    {
        if (!caption.empty())
            addText(QStringLiteral("<p><b>%1</b></p>").arg(escape(caption)), true);
        const QStringList lines = QString::fromStdString(text).split(QLatin1Char('\n'));
        qsizetype from = 0;
        while (from < lines.size()) {
            qsizetype to = from + 1;
            auto html = [&](qsizetype end) -> QString {
                return QStringLiteral("<pre>%1</pre>")
                    .arg(lines.mid(from, end - from).join(QLatin1Char('\n')).toHtmlEscaped());
            };
            while (to < lines.size() && layout(html(to + 1))->size().height() <= remaining())
                ++to;
            if (to == from + 1 && layout(html(to))->size().height() > remaining() &&
                m_y > kMarginPt) {
                newPage();
                continue;
            }
            addText(html(to));
            from = to;
        }
    }

    int pageCount() const { return m_page + 1; }
    const std::vector<Placed>& items() const { return m_items; }

private:
    QPaintDevice* m_device;
    int m_page = 0;
    double m_y = kMarginPt;
    std::vector<Placed> m_items;
};

QString blockHtml(const playbook::ReportParagraph& paragraph)
{
    switch (paragraph.style) {
    case playbook::ParagraphStyle::Summary:
        return QStringLiteral("<p class=\"summary\">%1</p>").arg(escape(paragraph.text));
    case playbook::ParagraphStyle::Warning:
        return QStringLiteral("<p class=\"warning\">⚠ %1</p>").arg(escape(paragraph.text));
    case playbook::ParagraphStyle::Muted:
        return QStringLiteral("<p class=\"muted\">%1</p>").arg(escape(paragraph.text));
    case playbook::ParagraphStyle::Normal:
        break;
    }
    return QStringLiteral("<p>%1</p>").arg(escape(paragraph.text));
}

QString keyValuesHtml(const std::vector<std::pair<std::string, std::string>>& entries)
{
    QString html = QStringLiteral("<table cellspacing=\"0\" width=\"100%\">");
    for (const auto& [key, value] : entries)
        html += QStringLiteral("<tr><td width=\"30%\"><b>%1</b></td><td>%2</td></tr>")
                    .arg(escape(key), escape(value));
    return html + QStringLiteral("</table>");
}

void flowBlock(PageFlow& flow, const playbook::ReportBlock& block)
{
    std::visit(
        [&flow](const auto& value) {
            using T = std::decay_t<decltype(value)>;
            if constexpr (std::is_same_v<T, playbook::ReportParagraph>) {
                flow.addText(blockHtml(value));
            } else if constexpr (std::is_same_v<T, playbook::ReportList>) {
                QString html = value.ordered ? QStringLiteral("<ol>") : QStringLiteral("<ul>");
                for (const auto& item : value.items)
                    html += QStringLiteral("<li>%1</li>").arg(escape(item));
                flow.addText(html +
                             (value.ordered ? QStringLiteral("</ol>") : QStringLiteral("</ul>")));
            } else if constexpr (std::is_same_v<T, playbook::ReportKeyValues>) {
                flow.addText(keyValuesHtml(value.entries));
            } else if constexpr (std::is_same_v<T, playbook::ReportTable>) {
                flow.addTable(value);
            } else if constexpr (std::is_same_v<T, playbook::ReportFigure>) {
                flow.addFigure(value.figure);
            } else if constexpr (std::is_same_v<T, playbook::ReportCode>) {
                flow.addCode(value.text, value.caption);
            }
        },
        block);
}

/// Top-level sections are numbered; subsections keep their own headings (the memo's "1. Symptom",
/// the playbook's "Step 1: …") so numbers are not doubled.
void flowSection(PageFlow& flow, const playbook::ReportSection& section, const QString& number,
                 int level)
{
    const QString prefix = number.isEmpty() ? QString() : number + QLatin1Char(' ');
    QString heading = QStringLiteral("<h%1>%2%3").arg(level).arg(prefix, escape(section.heading));
    if (section.status)
        heading += statusBadge(*section.status);
    flow.addText(heading + QStringLiteral("</h%1>").arg(level), true);
    for (const auto& block : section.blocks)
        flowBlock(flow, block);
    for (const auto& subsection : section.subsections)
        flowSection(flow, subsection, QString(), std::min(level + 1, 3));
}

/// A draft says so at the top of every page, in the top margin, so no page can be taken out
/// and read as final.
void paintDraftHeader(QPainter& painter, const playbook::ReportDocument& report)
{
    if (!report.isDraft())
        return;
    painter.save();
    QFont font = painter.font();
    font.setPointSizeF(8.0);
    font.setBold(true);
    painter.setFont(font);
    painter.setPen(QColor(0xd5, 0x5e, 0x00));
    const QRectF line(kMarginPt, kMarginPt - 36.0, kContentWidthPt, 30.0);
    painter.drawText(
        line, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap,
        painter.fontMetrics().elidedText(QString::fromStdString(playbook::draftBanner(report)),
                                         Qt::ElideRight, int(2 * kContentWidthPt)));
    painter.restore();
}

void paintFooter(QPainter& painter, const playbook::ReportDocument& report, const QString& title,
                 int page, int pages)
{
    paintDraftHeader(painter, report);
    painter.save();
    QFont font = painter.font();
    font.setPointSizeF(7.5);
    painter.setFont(font);
    painter.setPen(QColor(100, 100, 100));
    const QRectF line(kMarginPt, kPageHeightPt - kMarginPt, kContentWidthPt, 14);
    painter.drawLine(line.topLeft() - QPointF(0, 4), line.topRight() - QPointF(0, 4));
    painter.drawText(line, Qt::AlignLeft | Qt::AlignVCenter, title);
    painter.drawText(line, Qt::AlignRight | Qt::AlignVCenter,
                     QObject::tr("Page %1 of %2").arg(page + 1).arg(pages));
    painter.restore();
}

} // namespace

Status writePdfReport(const playbook::ReportDocument& report, const QString& path)
{
    QFile probe(path);
    if (!probe.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::Io, path.toStdString(), 0, 0,
                         "cannot write the PDF: " + probe.errorString().toStdString());
    probe.close();

    QPdfWriter writer(path);
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setResolution(72);
    writer.setTitle(QString::fromStdString(report.title));
    writer.setCreator(QStringLiteral("BatchScope"));

    PageFlow flow(&writer);
    flow.addText(
        QStringLiteral("<h1>%1</h1><p>%2</p>").arg(escape(report.title), escape(report.subtitle)));
    flow.addText(keyValuesHtml(report.titleBlock));
    int number = 0;
    for (const auto& section : report.sections)
        flowSection(flow, section, QString::number(++number) + QLatin1Char('.'), 2);
    if (!report.attachments.empty()) {
        flow.addText(
            QStringLiteral("<h2>%1. %2</h2>").arg(++number).arg(QObject::tr("Attachments")), true);
        // Short files (the reproducer scenario) are printed; long data files (the curve pack's
        // CSV and JSON) are listed: paper is no place for thousands of rows, the Markdown, HTML
        // and JSON reports carry them.
        constexpr long kMaxPrintedLines = 120;
        for (const auto& attachment : report.attachments) {
            const long lines =
                std::count(attachment.content.begin(), attachment.content.end(), '\n');
            if (lines <= kMaxPrintedLines)
                flow.addCode(attachment.content,
                             attachment.fileName + " — " + attachment.description);
            else
                flow.addText(
                    QStringLiteral("<p><b>%1</b> — %2 (%3 lines: written beside the Markdown "
                                   "report and embedded in the HTML report)</p>")
                        .arg(escape(attachment.fileName), escape(attachment.description))
                        .arg(lines));
        }
    }

    QPainter painter;
    if (!painter.begin(&writer))
        return makeError(ErrorCode::Io, path.toStdString(), 0, 0, "cannot start the PDF writer");
    painter.setRenderHint(QPainter::Antialiasing);
    const QString footer = footerTitle(report.title);
    int page = 0;
    for (const auto& item : flow.items()) {
        while (page < item.page) {
            paintFooter(painter, report, footer, page, flow.pageCount());
            writer.newPage();
            ++page;
        }
        if (item.text) {
            painter.save();
            painter.translate(kMarginPt, item.y);
            item.text->drawContents(&painter);
            painter.restore();
        } else if (item.figure) {
            item.figure->render(&painter, QRectF(kMarginPt, item.y, kContentWidthPt, item.height));
        }
    }
    paintFooter(painter, report, footer, page, flow.pageCount());
    if (!painter.end())
        return makeError(ErrorCode::Io, path.toStdString(), 0, 0, "the PDF could not be completed");
    return {};
}

} // namespace bs::render
