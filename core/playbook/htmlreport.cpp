#include "io/atomicfile.h"
#include "playbook/report.h"

#include <algorithm>
#include <sstream>

namespace bs::playbook {

namespace {

constexpr const char* kStyle = R"(
body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;max-width:1100px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
h1{margin-bottom:.1em}.subtitle{color:#555;margin-top:0}
table{border-collapse:collapse;margin:.6em 0 1em;font-size:.9em}
th,td{border:1px solid #ccc;padding:.3em .5em;text-align:left;vertical-align:top}
th{background:#f2f2f2}caption{text-align:left;font-weight:bold;padding:.3em 0}
.titleblock th{width:12em}.note{color:#666;font-size:.85em}
.summary{font-weight:bold}.muted{color:#666;font-size:.9em}
.warning{background:#fff4e5;border-left:4px solid #e69f00;padding:.4em .8em}
.badge{font-size:.7em;padding:.15em .5em;border-radius:.3em;vertical-align:middle;color:#fff}
.ok,.pass{background:#009e73}.warning-badge{background:#e69f00}.blocker,.fail{background:#d55e00}
.not_started,.not-run{background:#888}
td.pass,td.fail{color:#fff}
dl dt{font-weight:bold;margin-top:.5em}dl dd{margin-left:1em;white-space:pre-wrap}
pre{background:#f7f7f7;border:1px solid #ddd;padding:.6em;overflow-x:auto;font-size:.85em}
figure{margin:1em 0}figcaption{color:#555;font-size:.9em}
.draft{background:#d55e00;color:#fff;font-weight:bold;padding:.5em .8em}
.draft-mark{position:fixed;top:.3em;right:.6em;color:#d55e00;font-weight:bold;
border:2px solid #d55e00;padding:0 .4em;background:#fff}
)";

/// Escaped text with line breaks kept.
std::string text(std::string_view raw)
{
    std::string escaped = htmlEscape(raw);
    std::string out;
    for (char c : escaped) {
        if (c == '\n')
            out += "<br>";
        else
            out += c;
    }
    return out;
}

std::string base64(std::string_view bytes)
{
    static const char* alphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const unsigned v = unsigned(static_cast<unsigned char>(bytes[i])) << 16 |
                           unsigned(static_cast<unsigned char>(bytes[i + 1])) << 8 |
                           unsigned(static_cast<unsigned char>(bytes[i + 2]));
        for (int shift : {18, 12, 6, 0})
            out += alphabet[(v >> shift) & 63];
    }
    if (i < bytes.size()) {
        unsigned v = unsigned(static_cast<unsigned char>(bytes[i])) << 16;
        if (i + 1 < bytes.size())
            v |= unsigned(static_cast<unsigned char>(bytes[i + 1])) << 8;
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
        out += i + 1 < bytes.size() ? alphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

/// CSS class for a verdict cell: "pass", "fail" (also blockers), or none.
std::string verdictClass(const std::string& cell)
{
    if (cell == "pass")
        return "pass";
    if (cell == "fail" || cell.rfind("BLOCKER", 0) == 0)
        return "fail";
    return {};
}

const char* badgeClass(StepStatus status)
{
    switch (status) {
    case StepStatus::Ok:
        return "ok";
    case StepStatus::Warning:
        return "warning-badge";
    case StepStatus::Blocker:
        return "blocker";
    case StepStatus::NotStarted:
        return "not_started";
    }
    return "not_started";
}

struct HtmlWriter
{
    std::ostringstream html;

    void table(const ReportTable& t);
    void block(const ReportBlock& b);
    void section(const ReportSection& s, int level);
};

void HtmlWriter::table(const ReportTable& t)
{
    html << "<table>";
    if (!t.caption.empty())
        html << "<caption>" << text(t.caption) << "</caption>";
    html << "<thead><tr>";
    for (const auto& c : t.columns)
        html << "<th>" << text(c) << "</th>";
    html << "</tr></thead><tbody>\n";
    for (const auto& row : t.rows) {
        html << "<tr>";
        for (std::size_t i = 0; i < row.size(); ++i) {
            const std::string css = int(i) == t.statusColumn ? verdictClass(row[i]) : "";
            html << (css.empty() ? "<td>" : "<td class=\"" + css + "\">") << text(row[i])
                 << "</td>";
        }
        html << "</tr>\n";
    }
    html << "</tbody></table>\n";
    if (!t.note.empty())
        html << "<p class=\"note\">" << text(t.note) << "</p>\n";
}

void HtmlWriter::block(const ReportBlock& b)
{
    if (const auto* p = std::get_if<ReportParagraph>(&b)) {
        const char* css = p->style == ParagraphStyle::Summary   ? " class=\"summary\""
                          : p->style == ParagraphStyle::Warning ? " class=\"warning\""
                          : p->style == ParagraphStyle::Muted   ? " class=\"muted\""
                                                                : "";
        html << "<p" << css << ">"
             << (p->style == ParagraphStyle::Warning ? "<b>Warning:</b> " : "") << text(p->text)
             << "</p>\n";
    } else if (const auto* l = std::get_if<ReportList>(&b)) {
        html << (l->ordered ? "<ol>" : "<ul>");
        for (const auto& item : l->items)
            html << "<li>" << text(item) << "</li>";
        html << (l->ordered ? "</ol>\n" : "</ul>\n");
    } else if (const auto* kv = std::get_if<ReportKeyValues>(&b)) {
        html << "<dl>";
        for (const auto& [label, value] : kv->entries)
            html << "<dt>" << text(label) << "</dt><dd>" << htmlEscape(value) << "</dd>";
        html << "</dl>\n";
    } else if (const auto* t = std::get_if<ReportTable>(&b)) {
        table(*t);
    } else if (const auto* f = std::get_if<ReportFigure>(&b)) {
        // renderFigureSvg escapes all of its text, so the SVG can be inlined as it is.
        html << "<figure id=\"" << htmlEscape(f->id) << "\">" << figure::renderFigureSvg(f->figure);
        if (!f->figure.caption.empty())
            html << "<figcaption>" << text(f->figure.caption) << "</figcaption>";
        html << "</figure>\n";
    } else if (const auto* c = std::get_if<ReportCode>(&b)) {
        if (!c->caption.empty())
            html << "<p class=\"muted\">" << text(c->caption) << "</p>";
        html << "<pre><code>" << htmlEscape(c->text) << "</code></pre>\n";
    }
}

void HtmlWriter::section(const ReportSection& s, int level)
{
    html << "<section id=\"" << htmlEscape(s.id) << "\"><h" << level << ">" << text(s.heading);
    if (s.status)
        html << " <span class=\"badge " << badgeClass(*s.status) << "\">"
             << stepStatusLabel(*s.status) << "</span>";
    html << "</h" << level << ">\n";
    for (const auto& b : s.blocks)
        block(b);
    for (const auto& sub : s.subsections)
        section(sub, std::min(level + 1, 6));
    html << "</section>\n";
}

} // namespace

std::string renderHtml(const ReportDocument& document)
{
    HtmlWriter w;
    w.html << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
           << htmlEscape(document.title) << "</title>\n<style>" << kStyle
           << "</style>\n</head>\n<body>\n";
    // A fixed element is repeated on every printed page by browsers: each page says DRAFT.
    if (document.isDraft())
        w.html << "<div class=\"draft-mark\">DRAFT</div>\n";
    w.html << "<header><h1>" << text(document.title) << "</h1>\n";
    if (!document.subtitle.empty())
        w.html << "<p class=\"subtitle\">" << text(document.subtitle) << "</p>\n";
    if (document.isDraft())
        w.html << "<p class=\"draft\">" << text(draftBanner(document)) << "</p>\n";
    w.html << "<table class=\"titleblock\"><tbody>";
    for (const auto& [label, value] : document.titleBlock)
        w.html << "<tr><th>" << text(label) << "</th><td>" << text(value) << "</td></tr>";
    w.html << "</tbody></table>\n";
    if (!document.attachments.empty()) {
        w.html << "<p>Files that come with this report (embedded):</p><ul>";
        for (const auto& a : document.attachments)
            w.html << "<li><a download=\"" << htmlEscape(a.fileName)
                   << "\" href=\"data:application/json;base64," << base64(a.content) << "\">"
                   << text(a.fileName) << "</a>: " << text(a.description) << "</li>";
        w.html << "</ul>\n";
    }
    w.html << "</header>\n<main>\n";
    for (const auto& s : document.sections)
        w.section(s, 2);
    w.html << "</main>\n</body>\n</html>\n";
    return w.html.str();
}

Status writeHtmlReport(const ReportBundle& bundle, const std::string& path)
{
    return io::writeFileAtomically(path, renderHtml(bundle.document),
                                   io::AtomicWriteOptions{false});
}

} // namespace bs::playbook
