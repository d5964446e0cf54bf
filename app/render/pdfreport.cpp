#include "pdfreport.h"

#include "figure/figure.h"
#include "pageflow.h"
#include "playbook/reportoutput.h"

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

QString escape(const std::string& text)
{
    return escapeForPdf(text);
}

/// The title as the footer shows it: one line, so a long title is cut once here rather than
/// laid out in full on every page.
QString footerTitle(const std::string& title)
{
    constexpr qsizetype kMaxChars = 100;
    const QString text = QString::fromStdString(title).simplified();
    return text.size() <= kMaxChars ? text : text.left(kMaxChars) + QChar(0x2026);
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

/// The files written beside the PDF, listed once: the reproducer is printed in its own section,
/// the curve pack's CSV and JSON are data for tools, not for paper.
void flowAttachments(PageFlow& flow, const playbook::ReportDocument& report, int number)
{
    flow.addText(QStringLiteral("<h2>%1. %2</h2>").arg(number).arg(QObject::tr("Attachments")),
                 true);
    playbook::ReportTable files{
        "Files written beside this PDF", {"File", "What it is", "Lines"}, {}, {}, -1};
    for (const auto& attachment : report.attachments)
        files.rows.push_back({attachment.fileName, attachment.description,
                              std::to_string(std::count(attachment.content.begin(),
                                                        attachment.content.end(), '\n'))});
    flow.addTable(files);
}

void flowBlock(PageFlow& flow, const playbook::ReportBlock& block)
{
    std::visit(
        [&flow](const auto& value) {
            using T = std::decay_t<decltype(value)>;
            if constexpr (std::is_same_v<T, playbook::ReportParagraph>) {
                // A lead-in ("Missing evidence …:") belongs with the list it introduces.
                const bool leadIn = !value.text.empty() && value.text.back() == ':';
                flow.addText(blockHtml(value), leadIn);
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
    if (!report.attachments.empty())
        flowAttachments(flow, report, ++number);

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
    return playbook::writeAttachmentsBeside(report, path.toStdString());
}

} // namespace bs::render
