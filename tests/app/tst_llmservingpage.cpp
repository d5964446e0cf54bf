// The Traces view's "LLM serving" page (issue 18), driven as a user does: import an LLM serving
// benchmark, pick it in "LLM runs:", read the charts and tables, type an SLA. Every figure the
// page shows is compared with what analysis::analyzeLlmRuns computes from the same file read
// independently with io::readDataset.
#include "analysis/llmrunanalysis.h"
#include "appimport.h"
#include "charts/chartpanel.h"
#include "charts/llmruncharts.h"
#include "document/projectdocument.h"
#include "import/importcontroller.h"
#include "io/readdataset.h"
#include "jobs/jobrunner.h"
#include "mainwindow.h"
#include "state/settings.h"
#include "testsupport.h"
#include "views/llmrunspage.h"
#include "views/traceview.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>

using namespace bs;
using namespace bs::widgets;

namespace {

const QString kVllmQps4 =
    QStringLiteral("llm/llm-k8s/results_serving_meta-llama-Llama-3.3-70B-Instruct/01_tp8_pp1/"
                   "serving_meta-llama-Llama-3.3-70B-Instruct_tp8_pp1_sharegpt_qps_04.json");
const QString kSglang =
    QStringLiteral("llm/h200-benchmarks/sglang/outputs/llama_3_3_70b_online_output.jsonl");

/// The page's row whose first cell is `label`, or -1.
int rowOf(const QTableWidget* table, const QString& label)
{
    for (int row = 0; row < table->rowCount(); ++row)
        if (table->item(row, 0)->text() == label)
            return row;
    return -1;
}

QString cell(const QTableWidget* table, const QString& label, int column)
{
    const int row = rowOf(table, label);
    return row < 0 ? QStringLiteral("<no row %1>").arg(label) : table->item(row, column)->text();
}

std::vector<analysis::LlmRunAnalysis> analyseFile(const QString& path,
                                                  const analysis::LlmSla& sla = {})
{
    auto dataset = io::readDataset(path.toStdString());
    if (!dataset || !dataset->llmRuns())
        return {};
    return analysis::analyzeLlmRuns(*dataset->llmRuns(), sla);
}

QStringList seriesNames(const ChartContent& content)
{
    QStringList names;
    for (const auto& series : content.series)
        names << series.data.name;
    return names;
}

qsizetype pointCount(const ChartContent& content, const QString& namePrefix)
{
    qsizetype points = 0;
    for (const auto& series : content.series)
        if (series.data.name.startsWith(namePrefix))
            points += series.data.points.size();
    return points;
}

/// With BATCHSCOPE_SCREENSHOT_DIR set, the window at 1600x1000 and the whole LLM serving page
/// (scrolled parts included) as PNGs there, to look at.
void saveScreenshots(gui::MainWindow& window, const QString& name)
{
    const QString folder = qEnvironmentVariable("BATCHSCOPE_SCREENSHOT_DIR");
    if (folder.isEmpty())
        return;
    window.resize(1600, 1000);
    QTest::qWait(200);
    window.jobs()->waitForIdle(10000);
    QDir().mkpath(folder);
    window.grab().save(folder + QStringLiteral("/llm-serving-%1-window.png").arg(name));
    window.traceView()->llmPage()->grab().save(
        folder + QStringLiteral("/llm-serving-%1-page.png").arg(name));
}

} // namespace

class TestLlmServingPage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void withoutAnLlmDatasetThePageSaysHowToImportOne();
    void unreadBenchmarkOfAProjectSaysToImportItAgain();
    void realVllmResultShowsItsDistributionsAndTheComputedP99();
    void slaFieldsJudgeGoodputAndDrawTheLimits();
    void badSlaInputIsNamedNotJudged();
    void constructedRateSweepHasOnePointPerRunWithARate();
    void runWithoutRecordsSaysOnlyTheToolsAggregatesExist();
    void engineLogWithoutASweepDrawsNoEmptySweepCharts();
    void thePowerLogChosenChargesTheRunAsThePlaybookDoes();
    void realSglangFileSweepsBothDatasets();
    void screenshotsIncludeTheLlmServingPage();

private:
    std::unique_ptr<gui::MainWindow> makeWindow();
    bool import(gui::MainWindow& window, const QString& path);
    LlmRunsPage* showPage(gui::MainWindow& window);

    QTemporaryDir m_dir;
    std::unique_ptr<Settings> m_settings;
};

void TestLlmServingPage::init()
{
    m_settings = std::make_unique<Settings>(m_dir.filePath(QStringLiteral("settings.ini")));
}

std::unique_ptr<gui::MainWindow> TestLlmServingPage::makeWindow()
{
    auto window = std::make_unique<gui::MainWindow>(m_settings.get());
    window->document()->reset(data::Project{}, {});
    return window;
}

bool TestLlmServingPage::import(gui::MainWindow& window, const QString& path)
{
    return test::importInto(window, path);
}

/// The Traces view in front with its LLM serving page, laid out at a laptop's size.
LlmRunsPage* TestLlmServingPage::showPage(gui::MainWindow& window)
{
    window.resize(1366, 768);
    window.show();
    LlmRunsPage* page = window.traceView()->llmPage();
    test::bringToFront(page);
    return page;
}

void TestLlmServingPage::withoutAnLlmDatasetThePageSaysHowToImportOne()
{
    auto window = makeWindow();
    auto* page = window->traceView()->llmPage();
    QCOMPARE(window->traceView()->llmPicker()->count(), 1); // "(none)"
    QVERIFY(page->note()->text().contains(QStringLiteral("File ▸ Import")));
    QVERIFY(page->cdfPanel()->content().series.isEmpty());
    QVERIFY(page->cdfPanel()->content().emptyText.contains(QStringLiteral("No LLM serving")));
    QCOMPARE(page->percentileTable()->rowCount(), 0);
}

/// A project keeps an LLM benchmark by path; opened again, the dataset is there but not read.
void TestLlmServingPage::unreadBenchmarkOfAProjectSaysToImportItAgain()
{
    auto window = std::make_unique<gui::MainWindow>(m_settings.get());
    data::Project project;
    data::Dataset dataset;
    dataset.id = "ds1";
    dataset.name = "bench.json";
    dataset.kind = data::DatasetKind::LlmRuns;
    project.datasets.push_back(dataset);
    window->document()->reset(project, {});
    auto* page = window->traceView()->llmPage();
    QCOMPARE(window->traceView()->llmPicker()->currentText(), QStringLiteral("bench.json"));
    QVERIFY(page->note()->text().startsWith(
        QStringLiteral("bench.json is kept by path in the project and was not read")));
    QVERIFY(
        page->cdfPanel()->content().emptyText.contains(QStringLiteral("import the file again")));
    QVERIFY(!page->result());
}

void TestLlmServingPage::realVllmResultShowsItsDistributionsAndTheComputedP99()
{
    BS_REQUIRE_SHARED_FILE(path, kVllmQps4);
    auto window = makeWindow();
    QVERIFY(import(*window, path));
    auto* view = window->traceView();
    const QString name = QFileInfo(path).fileName();
    QVERIFY(view->llmPicker()->findText(name) > 0);
    QCOMPARE(view->llmPicker()->currentText(), name);
    auto* page = showPage(*window);
    QVERIFY(page->result());

    const auto expected = analyseFile(path);
    QCOMPARE(expected.size(), std::size_t(1));
    const auto& run = expected.front();
    QCOMPARE(run.requests, std::uint64_t(200));

    // One run: no run picker, the CDF's title names the run.
    QVERIFY(!page->runPicker()->isVisible());
    const ChartContent cdf = page->cdfPanel()->content();
    QCOMPARE(seriesNames(cdf), (QStringList{QStringLiteral("TTFT"), QStringLiteral("TPOT"),
                                            QStringLiteral("ITL"), QStringLiteral("E2E")}));
    QVERIFY(cdf.title.contains(QStringLiteral("vllm · 4 req/s · line 1")));
    // The TTFT CDF ends at the slowest first token, in ms; ITL gaps of ms and E2E of seconds
    // put the axis on a log scale.
    QCOMPARE(cdf.series[0].data.points.back().y(), 1.0);
    QCOMPARE(cdf.series[0].data.points.back().x(), run.ttft.max * 1e3);
    QVERIFY(cdf.logX);

    // The TTFT p99 in the table is the one analyzeLlmRuns computes, with its interval, beside
    // the tool's own p99 (67.56 ms in the file).
    const QTableWidget* table = page->percentileTable();
    const int p99Row = rowOf(table, QStringLiteral("TTFT p99"));
    QVERIFY(p99Row >= 0);
    const auto* p99 = run.ttft.at(0.99);
    QVERIFY(p99);
    QCOMPARE(table->item(p99Row, 1)->data(Qt::UserRole).toDouble(), p99->value * 1e3);
    QCOMPARE(table->item(p99Row, 1)->text(),
             QLocale().toString(p99->value * 1e3, 'g', 4) + QStringLiteral(" ms"));
    QVERIFY(table->item(p99Row, 2)->text().startsWith(
        QStringLiteral("[%1, ").arg(QLocale().toString(p99->ciLow * 1e3, 'g', 4))));
    QCOMPARE(table->item(p99Row, 3)->text(),
             QLocale().toString(run.reportedP99S.at("ttft") * 1e3, 'g', 4) + QStringLiteral(" ms"));
    QCOMPARE(cell(table, QStringLiteral("TPOT p50"), 1),
             QLocale().toString(run.tpot.at(0.5)->value * 1e3, 'g', 4) + QStringLiteral(" ms"));

    // Requests and the tool's output rate, with units. This vLLM version saved no start times,
    // so Little's law has no window, and the page says so rather than showing 0.
    const QTableWidget* figures = page->figureTable();
    QCOMPARE(cell(figures, QStringLiteral("Requests"), 1), QStringLiteral("200"));
    QCOMPARE(cell(figures, QStringLiteral("Output token throughput"), 1),
             QLocale().toString(673.9184869835061, 'g', 4) + QStringLiteral(" tokens/s"));
    QVERIFY(!run.inFlight.fromRequests);
    QCOMPARE(cell(figures, QStringLiteral("Mean in flight (Little's law)"), 1),
             QStringLiteral("the per-request records have no arrival times"));
    QVERIFY(cell(figures, QStringLiteral("Mean in flight (engine series)"), 1)
                .startsWith(QStringLiteral("no engine series in this file")));
    QCOMPARE(cell(figures, QStringLiteral("Energy per output token"), 1),
             QStringLiteral("no GPU telemetry in this file"));
    QVERIFY(cell(figures, QStringLiteral("Goodput"), 1).startsWith(QStringLiteral("not judged")));

    // The rate sweep: the file's one run has a rate, so one point at 4 req/s.
    const ChartContent sweep = page->throughputSweepPanel()->content();
    QCOMPARE(pointCount(sweep, QStringLiteral("Output tokens/s")), qsizetype(1));
    QCOMPARE(sweep.series[0].data.points[0], QPointF(4.0, 673.9184869835061));
    const ChartContent ttftSweep = page->ttftSweepPanel()->content();
    QCOMPARE(pointCount(ttftSweep, QStringLiteral("p99 from the records")), qsizetype(1));
    QCOMPARE(ttftSweep.series[0].data.points[0].y(), p99->value * 1e3);
    QCOMPARE(pointCount(ttftSweep, QStringLiteral("p99 as the tool reported")), qsizetype(1));

    saveScreenshots(*window, QStringLiteral("vllm"));
}

void TestLlmServingPage::slaFieldsJudgeGoodputAndDrawTheLimits()
{
    const QString path = test::testDataPath(QStringLiteral("llm/vllm_rate_sweep.jsonl"));
    auto window = makeWindow();
    QVERIFY(import(*window, path));
    auto* page = showPage(*window);
    QSignalSpy analysed(page, &LlmRunsPage::analysed);
    page->ttftLimitField()->setText(QStringLiteral("75"));
    page->tpotLimitField()->setText(QStringLiteral("25"));
    Q_EMIT page->tpotLimitField()->editingFinished();
    QVERIFY(analysed.wait(20000));

    // Run 1 (1 req/s): TTFT 50..100 ms, so 3 of 6 meet 75 ms; TPOT 21..24 ms all meet 25 ms.
    analysis::LlmSla sla;
    sla.ttftS = 0.075;
    sla.tpotS = 0.025;
    const auto expected = analyseFile(path, sla);
    QVERIFY(expected.front().goodput);
    QCOMPARE(expected.front().goodput->good, std::uint64_t(3));
    QCOMPARE(expected.front().goodput->judged, std::uint64_t(6));
    const QString goodput = cell(page->figureTable(), QStringLiteral("Goodput"), 1);
    QCOMPARE(goodput, QStringLiteral("%1 req/s — 3 of 6 requests (50 %)")
                          .arg(QLocale().toString(expected.front().goodput->perS, 'g', 4)));
    QVERIFY(cell(page->figureTable(), QStringLiteral("Goodput"), 2)
                .contains(QStringLiteral("TTFT ≤ 75 ms and TPOT ≤ 25 ms")));

    // Both limits on the CDF, their met side shaded; each on its own p99 sweep chart.
    const ChartContent cdf = page->cdfPanel()->content();
    QCOMPARE(cdf.references.size(), 2);
    for (const auto& line : cdf.references) {
        QCOMPARE(line.orientation, Qt::Vertical);
        QCOMPARE(line.acceptable, AcceptableSide::Below);
        QVERIFY(line.acceptableLabel.startsWith(QStringLiteral("meets T")));
    }
    QCOMPARE(cdf.references[0].value, 75.0);
    QCOMPARE(cdf.references[1].value, 25.0);
    const ChartContent ttftSweep = page->ttftSweepPanel()->content();
    QCOMPARE(ttftSweep.references.size(), 1);
    QCOMPARE(ttftSweep.references[0].value, 75.0);
    QCOMPARE(ttftSweep.references[0].acceptable, AcceptableSide::Below);
    QCOMPARE(page->tpotSweepPanel()->content().references[0].value, 25.0);
    saveScreenshots(*window, QStringLiteral("sweep-sla"));

    // Clearing the fields stops judging.
    page->ttftLimitField()->clear();
    page->tpotLimitField()->clear();
    Q_EMIT page->ttftLimitField()->editingFinished();
    QVERIFY(analysed.wait(20000));
    QVERIFY(page->cdfPanel()->content().references.isEmpty());
    QVERIFY(cell(page->figureTable(), QStringLiteral("Goodput"), 1)
                .startsWith(QStringLiteral("not judged")));
}

void TestLlmServingPage::badSlaInputIsNamedNotJudged()
{
    auto window = makeWindow();
    QVERIFY(import(*window, test::testDataPath(QStringLiteral("llm/vllm_rate_sweep.jsonl"))));
    auto* page = showPage(*window);
    QSignalSpy analysed(page, &LlmRunsPage::analysed);
    page->ttftLimitField()->setText(QStringLiteral("-5"));
    Q_EMIT page->ttftLimitField()->editingFinished();
    QVERIFY(analysed.wait(20000));
    QVERIFY(page->note()->text().contains(QStringLiteral("“-5” is not a TTFT limit")));
    QVERIFY(page->result()->sla.empty());
    QVERIFY(page->cdfPanel()->content().references.isEmpty());
}

void TestLlmServingPage::constructedRateSweepHasOnePointPerRunWithARate()
{
    const QString path = test::testDataPath(QStringLiteral("llm/vllm_rate_sweep.jsonl"));
    auto window = makeWindow();
    QVERIFY(import(*window, path));
    auto* page = showPage(*window);
    const auto expected = analyseFile(path);
    QCOMPARE(expected.size(), std::size_t(4));

    // Four runs to choose from, named by tool, rate or concurrency, and line.
    QVERIFY(page->runPicker()->isVisible());
    QCOMPARE(page->runPicker()->count(), 4);
    QCOMPARE(page->runPicker()->itemText(0), QStringLiteral("vllm · 1 req/s · line 1"));
    QCOMPARE(page->runPicker()->itemText(3),
             QStringLiteral("vllm · unlimited rate · concurrency 16 · line 4"));

    // Three runs have a rate: three points, in rate order, at the tool's output rates; the
    // unlimited run is left out and the caption says so.
    const ChartContent sweep = page->throughputSweepPanel()->content();
    QCOMPARE(sweep.series.size(), 1);
    const auto& points = sweep.series[0].data.points;
    QCOMPARE(points.size(), 3);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(points[i].x(), *expected[std::size_t(i)].requestRatePerS);
        QCOMPARE(points[i].y(), *expected[std::size_t(i)].outputTokensPerS);
    }
    QCOMPARE(sweep.xTitle, QStringLiteral("Request rate (req/s)"));
    QVERIFY(page->sweepCaption()->text().contains(
        QStringLiteral("vllm · unlimited rate · concurrency 16 · line 4 (unlimited rate)")));

    // p99 TTFT per rate, with its interval as dashed bounds where it is bounded.
    const ChartContent ttft = page->ttftSweepPanel()->content();
    const auto& computed = ttft.series[0];
    QCOMPARE(computed.data.name, QStringLiteral("p99 from the records"));
    QCOMPARE(computed.data.points.size(), 3);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(computed.data.points[i].y(), expected[std::size_t(i)].ttft.at(0.99)->value * 1e3);
    QVERIFY(std::any_of(ttft.series.begin(), ttft.series.end(), [](const SeriesSpec& s) {
        return s.style == SeriesStyle::Dashed && !s.inLegend && !s.data.points.isEmpty();
    }));
    // Four runs report their own p99, the unlimited one included but without an x.
    QCOMPARE(pointCount(ttft, QStringLiteral("p99 as the tool reported")), qsizetype(3));

    // Little's law over the records' start times and E2E, with its unit.
    QVERIFY(expected[0].inFlight.fromRequests);
    QCOMPARE(cell(page->figureTable(), QStringLiteral("Mean in flight (Little's law)"), 1),
             QLocale().toString(*expected[0].inFlight.fromRequests, 'g', 4) +
                 QStringLiteral(" requests"));

    // Choosing a run redraws its CDF and tables.
    page->runPicker()->setCurrentIndex(2);
    QVERIFY(page->cdfPanel()->content().title.endsWith(QStringLiteral("vllm · 4 req/s · line 3")));
    QCOMPARE(page->percentileTable()
                 ->item(rowOf(page->percentileTable(), QStringLiteral("TTFT p99")), 1)
                 ->data(Qt::UserRole)
                 .toDouble(),
             expected[2].ttft.at(0.99)->value * 1e3);
}

void TestLlmServingPage::runWithoutRecordsSaysOnlyTheToolsAggregatesExist()
{
    auto window = makeWindow();
    QVERIFY(import(*window, test::testDataPath(QStringLiteral("llm/vllm_rate_sweep.jsonl"))));
    auto* page = showPage(*window);
    page->runPicker()->setCurrentIndex(3);
    const ChartContent cdf = page->cdfPanel()->content();
    QVERIFY(cdf.series.isEmpty());
    QVERIFY(cdf.emptyText.contains(QStringLiteral("no per-request records")));
    QVERIFY(page->note()->text().contains(QStringLiteral("only the tool's aggregates exist")));
    const QTableWidget* table = page->percentileTable();
    QCOMPARE(cell(table, QStringLiteral("TTFT p99"), 1),
             QStringLiteral("no per-request records in this file"));
    QCOMPARE(cell(table, QStringLiteral("TTFT p99"), 3),
             QLocale().toString(420.0, 'g', 4) + QStringLiteral(" ms"));
    QCOMPARE(cell(table, QStringLiteral("ITL p99"), 3), QStringLiteral("not in the file"));
    QCOMPARE(cell(page->figureTable(), QStringLiteral("Requests"), 1),
             QStringLiteral("no per-request records in this file"));
    QCOMPARE(cell(page->figureTable(), QStringLiteral("Completed"), 1), QStringLiteral("6"));
}

void TestLlmServingPage::engineLogWithoutASweepDrawsNoEmptySweepCharts()
{
    // One engine request log has no request rate or concurrency limit: instead of three empty
    // sweep charts the caption says so once and the CDF takes the width; a file with a sweep
    // brings the charts back.
    auto window = makeWindow();
    QVERIFY(import(*window, test::testDataPath(QStringLiteral("llm/servinglog/requests.jsonl"))));
    auto* page = showPage(*window);
    QTRY_VERIFY(page->result());
    for (ChartPanel* panel :
         {page->throughputSweepPanel(), page->ttftSweepPanel(), page->tpotSweepPanel()})
        QVERIFY(!panel->isVisibleTo(page));
    QVERIFY(page->cdfPanel()->isVisibleTo(page));
    QCOMPARE(page->sweepCaption()->text(),
             QStringLiteral("No run names a request rate or a concurrency limit: there is no "
                            "rate sweep to draw."));
    QTRY_VERIFY(page->cdfPanel()->width() > page->width() * 3 / 4);

    QVERIFY(import(*window, test::testDataPath(QStringLiteral("llm/vllm_rate_sweep.jsonl"))));
    auto* picker = window->traceView()->llmPicker();
    picker->setCurrentIndex(picker->findText(QStringLiteral("vllm_rate_sweep.jsonl")));
    QTRY_VERIFY(page->result() && page->result()->set && page->result()->set->runs.size() > 1);
    for (ChartPanel* panel :
         {page->throughputSweepPanel(), page->ttftSweepPanel(), page->tpotSweepPanel()})
        QVERIFY(panel->isVisibleTo(page));
}

// The constructed TP-2 run of the LLM playbook fixture (requests placed in Unix time by
// arrival_time) and the nvidia-smi log of its two GPUs: the page states the energy per output
// token the playbook's step 2 and matrix state (analysis::llmEnergyPerOutputTokenJ), with its
// band; without a power log chosen it says where to choose one.
void TestLlmServingPage::thePowerLogChosenChargesTheRunAsThePlaybookDoes()
{
    const QString requests =
        test::testDataPath(QStringLiteral("llm_playbook/baseline/requests.jsonl"));
    const QString power = test::testDataPath(QStringLiteral("llm_playbook/baseline/power.csv"));
    auto window = makeWindow();
    QVERIFY(import(*window, requests));
    auto* page = showPage(*window);
    QTRY_VERIFY(page->result());
    const QString row = QStringLiteral("Energy per output token, power log");
    QCOMPARE(cell(page->figureTable(), row, 1),
             QStringLiteral("no power log chosen on the Power page"));

    QVERIFY(import(*window, power));
    auto* picker = window->traceView()->powerPicker();
    picker->setCurrentIndex(picker->findText(QStringLiteral("power.csv")));
    QTRY_VERIFY(page->result() && !page->result()->analyses.empty() &&
                page->result()->analyses.front().loggedEnergy);
    auto run = io::readDataset(requests.toStdString());
    auto log = io::readDataset(power.toStdString());
    QVERIFY(run && run->llmRuns() && log && log->powerSeries());
    const auto playbook =
        analysis::llmEnergyPerOutputTokenJ(run->llmRuns()->runs.front(), log->powerSeries().get());
    QVERIFY(playbook);
    const auto& shown = *page->result()->analyses.front().loggedEnergy;
    QCOMPARE(shown.perOutputTokenJ, *playbook);
    QVERIFY(shown.perOutputTokenLowJ <= *playbook && *playbook <= shown.perOutputTokenHighJ);
    QCOMPARE(shown.devices, std::size_t(2));
    QCOMPARE(cell(page->figureTable(), row, 1),
             QStringLiteral("%1 J/token [%2, %3]")
                 .arg(QLocale().toString(*playbook, 'g', 4),
                      QLocale().toString(shown.perOutputTokenLowJ, 'g', 4),
                      QLocale().toString(shown.perOutputTokenHighJ, 'g', 4)));
    QVERIFY(cell(page->figureTable(), row, 2).startsWith(QStringLiteral("power.csv: ")));
    // 2.17 J a token, as tst_playbook_llm's matrix states it against 2.179 J by hand.
    QVERIFY(std::abs(*playbook - 2.17) < 0.01);
    saveScreenshots(*window, QStringLiteral("power-log-energy"));
}

void TestLlmServingPage::realSglangFileSweepsBothDatasets()
{
    BS_REQUIRE_SHARED_FILE(path, kSglang);
    auto window = makeWindow();
    QVERIFY(import(*window, path));
    auto* page = showPage(*window);
    const auto expected = analyseFile(path);
    QCOMPARE(expected.size(), std::size_t(7));
    QCOMPARE(page->runPicker()->count(), 7);
    QVERIFY(page->runPicker()->itemText(6).startsWith(QStringLiteral("sglang · sharegpt · ")));
    // Random 1024/1024 at 1, 2, 4, 8, 16 req/s and ShareGPT at 4 and 8: one curve each, one
    // point per run.
    const ChartContent sweep = page->throughputSweepPanel()->content();
    QCOMPARE(sweep.series.size(), 2);
    QCOMPARE(pointCount(sweep, QStringLiteral("Output tokens/s — random")), qsizetype(5));
    QCOMPARE(pointCount(sweep, QStringLiteral("Output tokens/s — sharegpt")), qsizetype(2));
    // SGLang writes medians only: no p99 to draw, and the chart says why.
    QVERIFY(page->ttftSweepPanel()->content().series.isEmpty());
    QVERIFY(page->ttftSweepPanel()->content().emptyText.contains(QStringLiteral("p99 TTFT")));
    QCOMPARE(cell(page->percentileTable(), QStringLiteral("TTFT p50"), 3),
             QLocale().toString(85.74514742940664, 'g', 4) + QStringLiteral(" ms"));
    saveScreenshots(*window, QStringLiteral("sglang"));
}

/// `batchscope --screenshot-dir` also saves the LLM serving page when the project holds an LLM
/// benchmark, with the page in front.
void TestLlmServingPage::screenshotsIncludeTheLlmServingPage()
{
    auto window = makeWindow();
    QVERIFY(import(*window, test::testDataPath(QStringLiteral("llm/vllm_rate_sweep.jsonl"))));
    window->resize(1366, 768);
    window->show();
    const QStringList written = window->saveScreenshots(m_dir.filePath(QStringLiteral("shots")));
    const QString page = m_dir.filePath(QStringLiteral("shots/main-traces-llm-serving.png"));
    QVERIFY2(written.contains(page), qPrintable(written.join(QLatin1Char(' '))));
    QVERIFY(!QImage(page).isNull());
}

QTEST_MAIN(TestLlmServingPage)
#include "tst_llmservingpage.moc"
