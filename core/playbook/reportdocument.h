#pragma once

#include "figure/figure.h"
#include "playbook/evidence.h"

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace bs::playbook {

/// The review report as layout-neutral content: what every writer (Markdown, HTML, the Qt PDF
/// writer in app/) lays out, so all formats show exactly the same text, tables and charts.
///
/// Conventions for writers:
///  - Every string is plain text as the user or the tool wrote it: no markup, no escaping.
///    Each writer escapes for its own format (HTML entities, Markdown specials). '\n' inside a
///    paragraph or cell is a line break the writer keeps.
///  - Order is meaningful: sections, then blocks within a section, top to bottom.
///  - Figures are core Figure values; renderFigureSvg() draws them (the HTML writer inlines
///    the SVG, the Markdown writer links an .svg file beside the .md, the PDF writer paints the
///    same SVG as vectors). ReportFigure::id is unique in the document and safe as a file name.
///  - Attachments are files a reader needs to reproduce the claims (the reproducer scenario):
///    Markdown writes them beside the report, HTML embeds them (download links), PDF prints
///    them as code listings.
///  - A section's `status` (playbook steps) is shown as a badge next to the heading.

/// Text styles a paragraph can ask for; writers map them to their own look.
enum class ParagraphStyle
{
    Normal,
    Summary, ///< The one-sentence result of a section (bold or highlighted).
    Warning, ///< A pitfall or caveat (a warning box).
    Muted,   ///< Method notes and small print.
};

struct ReportParagraph
{
    std::string text;
    ParagraphStyle style = ParagraphStyle::Normal;
};

struct ReportList
{
    std::vector<std::string> items;
    bool ordered = false;
};

/// Label/value pairs (a memo field, the title block): two columns, labels bold.
struct ReportKeyValues
{
    std::vector<std::pair<std::string, std::string>> entries;
};

struct ReportTable
{
    std::string caption;
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows; ///< Each as long as `columns`.
    std::string note;                           ///< Printed under the table (method, caveats).
    /// Index of a column whose cells are verdicts ("pass", "fail", "BLOCKER: ...", "same");
    /// writers may colour them. -1 when none.
    int statusColumn = -1;
};

struct ReportFigure
{
    std::string id; ///< "step2-fig1": unique, [a-z0-9-] only.
    figure::Figure figure;
};

/// Preformatted text (a scenario JSON, a command line).
struct ReportCode
{
    std::string text;
    std::string language; ///< "json", "sh", or "".
    std::string caption;
};

using ReportBlock = std::variant<ReportParagraph, ReportList, ReportKeyValues, ReportTable,
                                 ReportFigure, ReportCode>;

struct ReportSection
{
    std::string id;      ///< Anchor: "memo", "step-3", "provenance".
    std::string heading; ///< Without numbering; writers may number.
    std::optional<StepStatus> status;
    std::vector<ReportBlock> blocks;
    std::vector<ReportSection> subsections;
};

/// A file the report ships with: written beside a Markdown report, embedded in HTML.
struct ReportAttachment
{
    std::string fileName; ///< Plain name, no folders: "report-reproducer.json".
    std::string content;
    std::string description;
};

struct ReportDocument
{
    std::string title;
    std::string subtitle;
    /// The title block: project, decision, tool version, generation time, step statuses.
    std::vector<std::pair<std::string, std::string>> titleBlock;
    std::vector<ReportSection> sections;
    std::vector<ReportAttachment> attachments;
    /// Why the report is a draft (reportDraftReasons in report.h); empty when it is final.
    /// Every writer marks every page of a draft: the title starts with "DRAFT", Markdown and
    /// HTML open with a banner naming the reasons (HTML also prints a DRAFT mark on each
    /// printed page), the PDF writer heads every page with it.
    std::vector<std::string> draftReasons;

    bool isDraft() const { return !draftReasons.empty(); }
};

/// The banner text of a draft: "DRAFT: not for sign-off. <reason>; <reason>."
std::string draftBanner(const ReportDocument& document);

/// Every figure of the document in reading order (for writers that number or export them).
std::vector<const ReportFigure*> allFigures(const ReportDocument& document);

} // namespace bs::playbook
