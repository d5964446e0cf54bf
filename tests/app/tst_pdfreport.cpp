// The PDF a reviewer reads (issue 21): the demo project's report is written through the PDF
// writer and read back with poppler's pdftotext, as a reviewer's eye would: no word broken
// inside a table cell, nothing past the right margin, no heading or caption alone at the
// bottom of a page, each thing said once, and the files the PDF tells its reader to run
// written beside it.

#include "analysis/regionpalette.h"
#include "charts/regionheatmap.h"
#include "io/projectfile.h"
#include "pdfreport.h"
#include "playbook/report.h"
#include "testsupport.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace bs;

namespace {

/// pdftotext writes typographic ligatures as one character; the report's text has none.
QString withoutLigatures(QString text)
{
    return text.replace(QChar(0xFB01), QStringLiteral("fi"))
        .replace(QChar(0xFB02), QStringLiteral("fl"))
        .replace(QChar(0xFB00), QStringLiteral("ff"))
        .replace(QChar(0xFB03), QStringLiteral("ffi"))
        .replace(QChar(0xFB04), QStringLiteral("ffl"));
}

QString simplified(const std::string& text)
{
    return QString::fromStdString(text).simplified();
}

/// Every word the document holds, and the texts that must not end a page (headings, captions,
/// lead-ins ending in ':').
struct DocumentText
{
    QSet<QString> words;
    QStringList leadIns;

    void addWords(const std::string& text)
    {
        for (const QString& word : QString::fromStdString(text).split(
                 QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts))
            words.insert(word);
    }
    void addLeadIn(const std::string& text)
    {
        addWords(text);
        if (!text.empty())
            leadIns.push_back(simplified(text));
    }
    void addBlock(const playbook::ReportBlock& block)
    {
        if (const auto* p = std::get_if<playbook::ReportParagraph>(&block)) {
            if (!p->text.empty() && p->text.back() == ':')
                addLeadIn(p->text);
            else
                addWords(p->text);
        } else if (const auto* l = std::get_if<playbook::ReportList>(&block)) {
            for (const auto& item : l->items)
                addWords(item);
        } else if (const auto* kv = std::get_if<playbook::ReportKeyValues>(&block)) {
            for (const auto& [key, value] : kv->entries) {
                addWords(key);
                addWords(value);
            }
        } else if (const auto* t = std::get_if<playbook::ReportTable>(&block)) {
            addLeadIn(t->caption);
            addWords(t->note);
            for (const auto& column : t->columns)
                addWords(column);
            for (const auto& row : t->rows)
                for (const auto& cell : row)
                    addWords(cell);
        } else if (const auto* f = std::get_if<playbook::ReportFigure>(&block)) {
            addWords(f->figure.caption);
        } else if (const auto* c = std::get_if<playbook::ReportCode>(&block)) {
            addLeadIn(c->caption);
            addWords(c->text);
        }
    }
    void addSection(const playbook::ReportSection& section)
    {
        addLeadIn(section.heading);
        for (const auto& block : section.blocks)
            addBlock(block);
        for (const auto& sub : section.subsections)
            addSection(sub);
    }
};

struct PdfWord
{
    int page = 0;
    double xMax = 0.0;
    double pageWidth = 0.0;
    QString text;
};

struct PdfLine
{
    int page = 0;
    double yMin = 0.0;
    QString text;
};

} // namespace

class TestPdfReport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void writesTheFilesItTellsTheReaderToRun();
    void noWordIsBrokenInsideATableCell();
    void nothingCrossesTheRightMargin();
    void noHeadingOrCaptionEndsAPage();
    void saysThePitfallAndTheReproducerOnce();
    void captionsSyntheticDataAsSynthetic();
    void pinsEveryInputAndNamesToolAndHost();
    void signOffsShowDateAndRationale();
    void doesNotAskForThePowerLogItHas();
    void guiAndReportShareTheRegionColours();

private:
    QString runPdfToText(const QStringList& arguments);

    data::Project m_project;
    QTemporaryDir m_dir;
    QString m_pdf;
    playbook::ReportBundle m_bundle;
    QString m_layoutText;
    std::vector<PdfWord> m_words;
    std::vector<PdfLine> m_lines;
};

QString TestPdfReport::runPdfToText(const QStringList& arguments)
{
    QProcess process;
    process.start(QStringLiteral("pdftotext"), arguments + QStringList{m_pdf, QStringLiteral("-")});
    if (!process.waitForFinished(60000) || process.exitCode() != 0)
        qFatal("pdftotext failed: %s", process.readAllStandardError().constData());
    return withoutLigatures(QString::fromUtf8(process.readAllStandardOutput()));
}

void TestPdfReport::initTestCase()
{
    if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
        QSKIP("pdftotext (poppler-utils) is not installed: the PDF's layout was NOT checked");
    QVERIFY(m_dir.isValid());
    auto project = io::loadProject(
        QString(test::sourceDir() + QStringLiteral("/resources/demo/demo.bsproj")).toStdString());
    QVERIFY2(project, project ? "" : project.error().toString().c_str());
    m_project = *project;
    playbook::ReportOptions options;
    options.fileStem = "review";
    auto bundle = playbook::prepareReport(*project, options);
    QVERIFY2(bundle, bundle ? "" : bundle.error().toString().c_str());
    m_bundle = std::move(*bundle);
    m_pdf = m_dir.filePath(QStringLiteral("review.pdf"));
    const auto written = render::writePdfReport(m_bundle.document, m_pdf);
    QVERIFY2(written, written ? "" : written.error().toString().c_str());

    m_layoutText = runPdfToText({QStringLiteral("-layout")});
    const QString boxes = runPdfToText({QStringLiteral("-bbox-layout")});
    static const QRegularExpression tag(
        QStringLiteral("<page width=\"([0-9.]+)\"|<line xMin=\"[0-9.]+\" yMin=\"([0-9.]+)\"|"
                       "<word xMin=\"[0-9.]+\" yMin=\"[0-9.]+\" xMax=\"([0-9.]+)\"[^>]*>([^<]*)<"));
    int page = -1;
    double pageWidth = 0.0;
    for (auto match = tag.globalMatch(boxes); match.hasNext();) {
        const auto m = match.next();
        if (!m.captured(1).isEmpty()) {
            ++page;
            pageWidth = m.captured(1).toDouble();
        } else if (!m.captured(2).isEmpty()) {
            m_lines.push_back({page, m.captured(2).toDouble(), {}});
        } else {
            const QString word = m.captured(4)
                                     .replace(QStringLiteral("&amp;"), QStringLiteral("&"))
                                     .replace(QStringLiteral("&lt;"), QStringLiteral("<"))
                                     .replace(QStringLiteral("&gt;"), QStringLiteral(">"))
                                     .replace(QStringLiteral("&quot;"), QStringLiteral("\""));
            m_words.push_back({page, m.captured(3).toDouble(), pageWidth, word});
            if (!m_lines.empty())
                m_lines.back().text +=
                    (m_lines.back().text.isEmpty() ? QString() : QStringLiteral(" ")) + word;
        }
    }
    QVERIFY(page >= 5);
    QVERIFY(m_words.size() > 1000);
}

void TestPdfReport::writesTheFilesItTellsTheReaderToRun()
{
    // The PDF says "batchscope-cli simulate review-reproducer.json": that file is beside it.
    QVERIFY(
        m_layoutText.contains(QStringLiteral("batchscope-cli simulate review-reproducer.json")));
    QVERIFY(!m_bundle.document.attachments.empty());
    for (const auto& attachment : m_bundle.document.attachments) {
        const QString path = m_dir.filePath(QString::fromStdString(attachment.fileName));
        QVERIFY2(QFile::exists(path), qPrintable(path));
        QCOMPARE(test::readFile(path), QByteArray::fromStdString(attachment.content));
    }
    QVERIFY(QFile::exists(m_dir.filePath(QStringLiteral("review-reproducer.json"))));
}

void TestPdfReport::noWordIsBrokenInsideATableCell()
{
    // A word broken by the layout shows as a piece ("completio", "Candidat") that the report's
    // text never holds but one of its words starts with. A break after '-' or '/' is a
    // hyphenation point, not a broken word.
    DocumentText source;
    for (const auto& section : m_bundle.document.sections)
        source.addSection(section);
    for (const auto& word : m_words) // "Page 10 of 16" in the footer
        source.words.insert(QString::number(word.page + 1));
    QStringList broken;
    for (const auto& word : m_words) {
        if (word.text.size() < 2 || source.words.contains(word.text) ||
            !word.text.back().isLetterOrNumber())
            continue;
        for (const QString& whole : std::as_const(source.words)) {
            if (whole.size() > word.text.size() && whole.startsWith(word.text) &&
                whole.at(word.text.size()).isLetterOrNumber()) {
                broken.push_back(QStringLiteral("page %1: '%2' (of '%3')")
                                     .arg(word.page + 1)
                                     .arg(word.text, whole));
                break;
            }
        }
    }
    QVERIFY2(broken.isEmpty(), qPrintable(broken.join(QStringLiteral("; "))));
}

void TestPdfReport::nothingCrossesTheRightMargin()
{
    constexpr double kMarginPt = 50.0;
    QStringList outside;
    for (const auto& word : m_words) {
        if (word.xMax > word.pageWidth - kMarginPt + 1.0)
            outside.push_back(QStringLiteral("page %1: '%2' ends at %3 pt")
                                  .arg(word.page + 1)
                                  .arg(word.text)
                                  .arg(word.xMax));
    }
    QVERIFY2(outside.isEmpty(), qPrintable(outside.mid(0, 10).join(QStringLiteral("; "))));
}

void TestPdfReport::noHeadingOrCaptionEndsAPage()
{
    DocumentText source;
    for (const auto& section : m_bundle.document.sections)
        source.addSection(section);
    // The last line of each page above the footer (the footer sits in the bottom margin).
    constexpr double kFooterTopPt = 842.0 - 50.0 - 6.0;
    std::map<int, const PdfLine*> lastLine;
    for (const auto& line : m_lines) {
        if (line.yMin < kFooterTopPt &&
            (!lastLine.count(line.page) || lastLine[line.page]->yMin < line.yMin))
            lastLine[line.page] = &line;
    }
    QStringList orphans;
    for (const auto& [page, line] : lastLine) {
        for (const QString& leadIn : std::as_const(source.leadIns)) {
            if (line->text.endsWith(leadIn))
                orphans.push_back(
                    QStringLiteral("page %1 ends with '%2'").arg(page + 1).arg(leadIn));
        }
    }
    QVERIFY2(orphans.isEmpty(), qPrintable(orphans.join(QStringLiteral("; "))));
}

void TestPdfReport::saysThePitfallAndTheReproducerOnce()
{
    QVERIFY(!m_bundle.pitfalls.empty());
    const QString text = m_layoutText.simplified();
    const QString pitfall = simplified(m_bundle.pitfalls.front().text).left(60);
    QCOMPARE(text.count(pitfall), 1);
    // The reproducer scenario is printed in its section and only listed among the attachments.
    QCOMPARE(text.count(QStringLiteral("\"warmup_requests\"")), 1);
    // The curve pack's data files are listed, not dumped.
    QVERIFY(!text.contains(QStringLiteral("index,max_batch,max_queue_delay_ms")));
    QVERIFY(text.contains(QStringLiteral("review-cells.csv")));
}

void TestPdfReport::captionsSyntheticDataAsSynthetic()
{
    // The demo's sweeps are generated by BatchScope: no caption may call them measured.
    const QString text = m_layoutText.simplified();
    QVERIFY(!text.contains(QStringLiteral("Measured ")));
    QVERIFY(text.contains(QStringLiteral("Synthetic p99 latency")));
    QVERIFY(text.contains(QStringLiteral("not a measurement of hardware")));
    // The provenance table names each input's origin.
    int synthetic = 0;
    for (const auto& section : m_bundle.document.sections)
        for (const auto& block : section.blocks)
            if (const auto* table = std::get_if<playbook::ReportTable>(&block);
                table && table->caption == "Input datasets")
                for (const auto& row : table->rows)
                    synthetic += row[3] == "synthetic (built-in demo)";
    QCOMPARE(synthetic, int(m_project.datasets.size()));
}

void TestPdfReport::pinsEveryInputAndNamesToolAndHost()
{
    const QString text = m_layoutText.simplified();
    QVERIFY(!text.contains(QStringLiteral("(none)")));
    QVERIFY(!m_project.datasets.empty());
    for (const auto& dataset : m_project.datasets) {
        QVERIFY(!dataset.provenance.sha256.empty());
        QVERIFY2(text.contains(QString::fromStdString(dataset.provenance.sha256)),
                 dataset.provenance.sha256.c_str());
    }
    QVERIFY(text.contains(QStringLiteral("(commit ")));
    QVERIFY(text.contains(QStringLiteral("Host ")));
    QVERIFY(text.contains(QStringLiteral("logical CPUs")));
}

void TestPdfReport::signOffsShowDateAndRationale()
{
    playbook::ReportBundle signed_ = m_bundle;
    QVERIFY(!signed_.memo.owners.empty());
    auto& owner = signed_.memo.owners.front();
    owner.state = playbook::SignoffState::Approved;
    owner.date = "2026-12-03";
    owner.note = "p99 holds under the cap on the reproducer";
    auto& unexplained = signed_.memo.owners.back();
    unexplained.state = playbook::SignoffState::Rejected;
    const auto document = playbook::buildReportDocument(m_project, signed_, {});
    QStringList rows;
    for (const auto& section : document.sections)
        for (const auto& sub : section.subsections)
            for (const auto& block : sub.blocks)
                if (const auto* table = std::get_if<playbook::ReportTable>(&block);
                    table && table->caption == "Required owners") {
                    QCOMPARE(table->columns, (std::vector<std::string>{"Role", "Name", "Sign-off",
                                                                       "Date", "Rationale"}));
                    for (const auto& row : table->rows)
                        rows.push_back(
                            QString::fromStdString(row[2] + "|" + row[3] + "|" + row[4]));
                }
    QCOMPARE(rows.front(),
             QStringLiteral("approved|2026-12-03|p99 holds under the cap on the reproducer"));
    QCOMPARE(rows.back(), QStringLiteral("rejected|not recorded|not given"));
    // The date and rationale survive the project file.
    auto back = playbook::memoFromJson(playbook::toJson(signed_.memo));
    QVERIFY(back);
    QCOMPARE(back->owners.front().date, std::string("2026-12-03"));
    QCOMPARE(back->owners.front().note, owner.note);
}

void TestPdfReport::doesNotAskForThePowerLogItHas()
{
    // The demo attaches the candidate's power log (clock and temperature): the report must not
    // list it as missing evidence.
    QVERIFY(std::ranges::any_of(m_project.datasets, [](const data::Dataset& d) {
        return d.kind == data::DatasetKind::PowerSeries && d.role == data::DatasetRole::Candidate;
    }));
    const QString text = m_layoutText.simplified();
    QVERIFY(!text.contains(QStringLiteral("a power/clock/temperature log of the candidate")));
}

void TestPdfReport::guiAndReportShareTheRegionColours()
{
    // The curve pack's figures colour feasible cells, the Pareto front and the recommended
    // point as the GUI's region charts do (analysis/regionpalette.h).
    std::vector<const figure::Figure*> scatter;
    const figure::Figure* heatmap = nullptr;
    for (const auto* figure : playbook::allFigures(m_bundle.document)) {
        if (figure->figure.heatmap)
            heatmap = &figure->figure;
        else if (!figure->figure.markers.empty())
            scatter.push_back(&figure->figure);
    }
    QVERIFY(heatmap && !scatter.empty());
    const auto feasible = figure::palette::kFeasible.hex();
    QCOMPARE(heatmap->heatmap->categoryNames.front(), std::string("feasible"));
    QCOMPARE(heatmap->heatmap->categoryColours.front(), feasible);
    for (const auto* figure : scatter) {
        QCOMPARE(figure->series.front().name, std::string("feasible"));
        QCOMPARE(figure->series.front().colour, feasible);
        QCOMPARE(figure->series.back().colour, figure::palette::kParetoFront.hex());
        // The recommended point: the palette's colour, outlined, larger than a data point.
        const std::string svg = figure::renderFigureSvg(*figure);
        QVERIFY(svg.find("fill=\"" + figure::palette::kRecommended.hex() + "\" stroke=\"" +
                         figure::palette::kRecommendedOutline.hex() + "\"") != std::string::npos);
    }
    analysis::RegionCell cell;
    cell.status = analysis::CellStatus::Feasible;
    QCOMPARE(widgets::regionCellColour(cell).name(), QString::fromStdString(feasible));
}

QTEST_MAIN(TestPdfReport)
#include "tst_pdfreport.moc"
