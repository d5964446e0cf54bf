#include "io/atomicfile.h"
#include "playbook/report.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>

namespace bs::playbook {

namespace {

/// "&name;" or "&#digits;" / "&#xhex;": what CommonMark reads as a character reference.
bool startsCharacterReference(std::string_view text)
{
    const auto end = text.find(';');
    if (end == std::string_view::npos || end < 2 || end > 33)
        return false;
    const std::string_view body = text.substr(1, end - 1);
    return std::all_of(body.begin(), body.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '#';
    });
}

/// True when text[i] starts a bare URL or address that GitHub's renderer would turn into a link
/// ("https://", "ftp://", "www."); such links in a reviewed memo could point anywhere.
bool startsAutolink(std::string_view text, std::size_t i)
{
    auto lowerAt = [&text](std::size_t at, std::string_view word) {
        if (at + word.size() > text.size())
            return false;
        for (std::size_t k = 0; k < word.size(); ++k)
            if (std::tolower(static_cast<unsigned char>(text[at + k])) != word[k])
                return false;
        return true;
    };
    return (text[i] == ':' && lowerAt(i, "://")) ||
           (text[i] == '.' && i >= 3 && lowerAt(i - 3, "www."));
}

/// Escapes one line of user text for Markdown: HTML-significant characters as entities (so no
/// text can become markup), inline specials with a backslash, and a block marker at the start
/// of the line (#, >, -, +, "1.") made literal.
std::string escapeLine(std::string_view line)
{
    std::string out;
    std::size_t start = 0;
    // Four spaces or a tab would start an indented code block: kept as character references.
    while (start < line.size() && (line[start] == ' ' || line[start] == '\t'))
        out += line[start++] == ' ' ? "&#32;" : "&#9;";
    const std::string_view rest = line.substr(start);
    // Block markers only count at the start of a line: quote, heading, list, rule, setext.
    const bool spaced = rest.size() == 1 || (rest.size() > 1 && rest[1] == ' ');
    const bool marker = !rest.empty() && (rest[0] == '>' || rest[0] == '#' || rest[0] == '-' ||
                                          rest[0] == '=' || (rest[0] == '+' && spaced));
    if (marker)
        out += '\\';
    const std::size_t digits = std::size_t(
        std::find_if(rest.begin(), rest.end(), [](char d) { return d < '0' || d > '9'; }) -
        rest.begin());
    for (std::size_t i = 0; i < rest.size(); ++i) {
        const char c = rest[i];
        switch (c) {
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += i == 0 ? ">" : "&gt;";
            break;
        case '&':
            // Only an ampersand that starts a character reference ("&lt;", "&#60;") is markup;
            // a plain "R&D" or "Scheduling & Mapping" stays readable in the .md itself.
            out += startsCharacterReference(rest.substr(i)) ? "&amp;" : "&";
            break;
        case '\\':
        case '`':
        case '*':
        case '_':
        case '[':
        case ']':
        case '|':
        case '!':
        case '~': // "~~~" fences a code block; "~~x~~" strikes through
        case '@': // "name@example.com" becomes a mailto: link
            out += '\\';
            out += c;
            break;
        case ':':
            // A backslash escape is its own text node, which GitHub's autolinker does not join.
            out += startsAutolink(rest, i) ? "\\:" : ":";
            break;
        case '.':
        case ')':
            // "12. " or "12) " at the start of a line would start an ordered list.
            if ((i > 0 && i == digits && (i + 1 == rest.size() || rest[i + 1] == ' ')) ||
                startsAutolink(rest, i))
                out += '\\';
            out += c;
            break;
        default:
            out += c;
        }
    }
    return out;
}

/// Multi-line text: escaped lines joined with Markdown hard breaks (or `<br>` in table cells).
/// CommonMark ends a line at "\n", "\r\n" or a lone "\r": all three are line breaks here, or
/// "a\r# X" would put a heading into the memo.
std::string escapeText(std::string_view text, const char* lineBreak = "  \n")
{
    std::string out;
    std::size_t begin = 0;
    while (true) {
        const auto end = text.find_first_of("\r\n", begin);
        out +=
            escapeLine(text.substr(begin, end == std::string_view::npos ? text.npos : end - begin));
        if (end == std::string_view::npos)
            break;
        out += lineBreak;
        begin = end + (text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n' ? 2 : 1);
    }
    return out;
}

std::string fenceFor(const std::string& code)
{
    std::size_t longest = 0, run = 0;
    for (char c : code) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

struct Writer
{
    std::ostringstream md;
    std::vector<RenderedFile> files;
    std::string stem;

    void block(const ReportBlock& block);
    void section(const ReportSection& section, int level);
    void table(const ReportTable& table);
};

void Writer::table(const ReportTable& t)
{
    if (!t.caption.empty())
        md << "**" << escapeText(t.caption) << "**\n\n";
    auto row = [this](const std::vector<std::string>& cells, std::size_t columns) {
        md << "|";
        for (std::size_t i = 0; i < columns; ++i)
            md << " " << (i < cells.size() ? escapeText(cells[i], "<br>") : "") << " |";
        md << "\n";
    };
    row(t.columns, t.columns.size());
    md << "|";
    for (std::size_t i = 0; i < t.columns.size(); ++i)
        md << " --- |";
    md << "\n";
    for (const auto& r : t.rows)
        row(r, t.columns.size());
    md << "\n";
    if (!t.note.empty())
        md << "_" << escapeText(t.note) << "_\n\n";
}

void Writer::block(const ReportBlock& block)
{
    if (const auto* p = std::get_if<ReportParagraph>(&block)) {
        switch (p->style) {
        case ParagraphStyle::Summary:
            md << "**" << escapeText(p->text) << "**\n\n";
            break;
        case ParagraphStyle::Warning:
            md << "> **Warning:** " << escapeText(p->text, "  \n> ") << "\n\n";
            break;
        case ParagraphStyle::Muted:
            md << "_" << escapeText(p->text) << "_\n\n";
            break;
        case ParagraphStyle::Normal:
            md << escapeText(p->text) << "\n\n";
            break;
        }
    } else if (const auto* l = std::get_if<ReportList>(&block)) {
        int n = 0;
        for (const auto& item : l->items)
            md << (l->ordered ? std::to_string(++n) + ". " : "- ") << escapeText(item, "  \n  ")
               << "\n";
        md << "\n";
    } else if (const auto* kv = std::get_if<ReportKeyValues>(&block)) {
        for (const auto& [label, value] : kv->entries)
            md << "**" << escapeText(label) << "**  \n" << escapeText(value) << "\n\n";
    } else if (const auto* t = std::get_if<ReportTable>(&block)) {
        table(*t);
    } else if (const auto* f = std::get_if<ReportFigure>(&block)) {
        const std::string file = stem + "-" + f->id + ".svg";
        files.push_back({file, figure::renderFigureSvg(f->figure)});
        md << "![" << escapeText(f->figure.title) << "](" << file << ")\n\n";
        if (!f->figure.caption.empty())
            md << "_" << escapeText(f->figure.caption) << "_\n\n";
    } else if (const auto* c = std::get_if<ReportCode>(&block)) {
        if (!c->caption.empty())
            md << "**" << escapeText(c->caption) << "**\n\n";
        const std::string fence = fenceFor(c->text);
        md << fence << c->language << "\n" << c->text;
        if (c->text.empty() || c->text.back() != '\n')
            md << "\n";
        md << fence << "\n\n";
    }
}

void Writer::section(const ReportSection& s, int level)
{
    md << std::string(std::size_t(level), '#') << " " << escapeText(s.heading);
    if (s.status)
        md << " — **" << stepStatusLabel(*s.status) << "**";
    md << "\n\n";
    for (const auto& b : s.blocks)
        block(b);
    for (const auto& sub : s.subsections)
        section(sub, std::min(level + 1, 6));
}

} // namespace

MarkdownOutput renderMarkdown(const ReportDocument& document, const std::string& fileStem)
{
    Writer w;
    w.stem = fileStem;
    w.md << "# " << escapeText(document.title) << "\n\n";
    if (!document.subtitle.empty())
        w.md << "_" << escapeText(document.subtitle) << "_\n\n";
    if (document.isDraft())
        w.md << "> **" << escapeText(draftBanner(document)) << "**\n\n";
    w.md << "| Field | Value |\n| --- | --- |\n";
    for (const auto& [label, value] : document.titleBlock)
        w.md << "| " << escapeText(label, "<br>") << " | " << escapeText(value, "<br>") << " |\n";
    w.md << "\n";
    if (!document.attachments.empty()) {
        w.md << "Files that come with this report:\n\n";
        for (const auto& a : document.attachments) {
            w.md << "- [" << escapeText(a.fileName) << "](" << a.fileName
                 << "): " << escapeText(a.description) << "\n";
            w.files.push_back({a.fileName, a.content});
        }
        w.md << "\n";
    }
    for (const auto& s : document.sections)
        w.section(s, 2);
    // Markdown has no pages: the banner closes the document too, where a reader who skipped
    // to the end (the decision) looks.
    if (document.isDraft())
        w.md << "> **" << escapeText(draftBanner(document)) << "**\n";
    return {w.md.str(), std::move(w.files)};
}

Status writeMarkdownReport(const ReportBundle& bundle, const std::string& path)
{
    const std::filesystem::path target(path);
    const auto output = renderMarkdown(bundle.document, target.stem().string());
    const auto folder = target.parent_path();
    for (const auto& file : output.files) {
        if (auto status = io::writeFileAtomically((folder / file.name).string(), file.content,
                                                  io::AtomicWriteOptions{false});
            !status)
            return status;
    }
    return io::writeFileAtomically(path, output.markdown, io::AtomicWriteOptions{false});
}

} // namespace bs::playbook
