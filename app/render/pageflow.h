#pragma once

#include "figure/figure.h"
#include "playbook/reportdocument.h"

#include <QString>

#include <memory>
#include <vector>

class QPaintDevice;
class QSvgRenderer;
class QTextDocument;

namespace bs::render {

/// Page geometry in points (the PDF writer runs at 72 dpi): A4 with 50 pt margins.
inline constexpr double kPageWidthPt = 595.0;
inline constexpr double kPageHeightPt = 842.0;
inline constexpr double kMarginPt = 50.0;
inline constexpr double kFooterPt = 24.0;
inline constexpr double kContentWidthPt = kPageWidthPt - 2 * kMarginPt;
inline constexpr double kContentBottomPt = kPageHeightPt - kMarginPt - kFooterPt;

/// One thing placed on a page: a laid-out text document or a figure.
struct Placed
{
    int page = 0;
    double y = 0.0;
    double height = 0.0;
    std::shared_ptr<QTextDocument> text;
    std::shared_ptr<QSvgRenderer> figure;
};

/// HTML-escaped text with a zero-width break opportunity inside very long runs without spaces
/// (Qt's line breaking is quadratic in the length of a word wider than the line).
QString escapeForPdf(const std::string& text);

/// Flows blocks down pages, breaking before anything that does not fit. A block added with
/// keepWithNext (a heading, a caption) moves to the next page with what follows it rather
/// than stay alone at the bottom of a page.
class PageFlow
{
public:
    explicit PageFlow(QPaintDevice* device);

    void addText(const QString& html, bool keepWithNext = false);
    /// The figure and its caption, on one page.
    void addFigure(const figure::Figure& figure);
    /// Columns as wide as their content needs (no word broken inside a cell), the font made
    /// smaller for a table too wide for the page at body size; split across pages with the
    /// header repeated.
    void addTable(const playbook::ReportTable& table);
    /// Preformatted text, split by lines across pages.
    void addCode(const std::string& text, const std::string& caption);

    int pageCount() const { return m_page + 1; }
    const std::vector<Placed>& items() const { return m_items; }

private:
    std::shared_ptr<QTextDocument> layout(const QString& html, double fontPt = 9.0) const;
    double remaining() const { return kContentBottomPt - m_y; }
    bool atPageTop() const { return m_y <= kMarginPt; }
    /// Starts a new page, taking the pending keep-with-next blocks along.
    void breakPage();
    /// Places a laid-out block, on a new page when it does not fit here.
    void place(std::shared_ptr<QTextDocument> text, std::shared_ptr<QSvgRenderer> figure,
               double height, bool keepWithNext);
    void addTableRows(const playbook::ReportTable& table, const QString& tableStart, double fontPt);

    QPaintDevice* m_device;
    int m_page = 0;
    double m_y = kMarginPt;
    std::vector<Placed> m_items;
    /// Index of the first block of the keep-with-next run that the next block ends; -1: none.
    long m_keepFrom = -1;
};

} // namespace bs::render
