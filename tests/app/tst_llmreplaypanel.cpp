// The LLM serving page's "Replay in the simulator" part, driven as a user does:
// import a run with per-request records, read the fitted step and the simulated figures, change
// an engine knob. Every simulated figure is compared with what llmsim gives for the same
// scenario built here independently: the engine written out from the run's header by hand, the
// step fitted with fitLinearStep, the requests replayed with simulateLlm.
#include "appimport.h"
#include "charts/chartpanel.h"
#include "document/projectdocument.h"
#include "io/readdataset.h"
#include "jobs/jobrunner.h"
#include "llmsim/llmsimulator.h"
#include "llmsim/steptimefit.h"
#include "mainwindow.h"
#include "servinglogengine.h"
#include "state/settings.h"
#include "testsupport.h"
#include "views/llmreplaypanel.h"
#include "views/llmrunspage.h"
#include "views/summarytable.h"
#include "views/traceview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSpinBox>
#include <QTabWidget>
#include <QTimer>
#include <QtTest>

using namespace bs;
using namespace bs::widgets;

namespace {

const QString kReplayLane = QStringLiteral("llm-replay");
const QString kRealVllmLog =
    QStringLiteral("llm/llmservingsim/bench/examples/RTX4090/Llama-3.1-8B/vllm/requests.jsonl");

/// The first run of a file read independently of the GUI.
data::LlmRun firstRun(const QString& path)
{
    auto dataset = io::readDataset(path.toStdString());
    if (!dataset || !dataset->llmRuns() || dataset->llmRuns()->runs.empty())
        return {};
    return dataset->llmRuns()->runs.front();
}

/// What llmsim gives for the run's requests through `engine`, with the step fitted on the run
/// through `fitEngine`.
llmsim::LlmResult simulated(const data::LlmRun& run, const llmsim::EngineConfig& fitEngine,
                            const llmsim::EngineConfig& engine)
{
    auto fit = llmsim::fitLinearStep(fitEngine, run.requests);
    auto requests = llmsim::replayOfMeasured(run.requests);
    if (!fit || !requests)
        return {};
    llmsim::LlmScenario scenario;
    scenario.engine = engine;
    scenario.step = fit->step;
    scenario.arrivals.requests = *requests;
    auto result = llmsim::simulateLlm(scenario);
    return result ? *result : llmsim::LlmResult{};
}

QList<QPointF> pointsOf(const ChartContent& content, const QString& name)
{
    for (const auto& series : content.series)
        if (series.data.name == name)
            return series.data.points;
    return {};
}

/// With BATCHSCOPE_SCREENSHOT_DIR set, the window and the whole replay part (scrolled parts
/// included) as PNGs there, to look at.
void saveScreenshots(gui::MainWindow& window, LlmReplayPanel* panel, const QString& name)
{
    const QString folder = qEnvironmentVariable("BATCHSCOPE_SCREENSHOT_DIR");
    if (folder.isEmpty())
        return;
    QDir().mkpath(folder);
    QTest::qWait(300); // the layout settles as a shown window's does
    window.grab().save(folder + QStringLiteral("/llm-replay-%1-window.png").arg(name));
    window.traceView()->llmPage()->grab().save(folder +
                                               QStringLiteral("/llm-replay-%1-page.png").arg(name));
    panel->grab().save(folder + QStringLiteral("/llm-replay-%1-part.png").arg(name));
}

/// Empty when every chart of the part keeps its own rectangle inside the part; otherwise which
/// do not. (A grid given less height than its panels' minimum draws them over each other: the
/// legends covered the toolbars below and the last row was cut.)
QString chartsOverlap(LlmReplayPanel* panel)
{
    const auto panels = panel->panels();
    for (int i = 0; i < panels.size(); ++i) {
        const QRect a = panels[i]->geometry();
        if (a.bottom() >= panel->height())
            return QStringLiteral("chart %1 ends at %2, below the part's %3 px")
                .arg(i)
                .arg(a.bottom())
                .arg(panel->height());
        for (int j = i + 1; j < panels.size(); ++j) {
            if (a.intersects(panels[j]->geometry()))
                return QStringLiteral("charts %1 and %2 overlap").arg(i).arg(j);
        }
    }
    return {};
}

} // namespace

class TestLlmReplayPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void servingLogReplaysAsLlmsimDoesNumberForNumber();
    void realVllmRunReplaysAsLlmsimDoesNumberForNumber();
    void changingTheTokenBudgetReplaysInAWorkerAndRedraws();
    void aNewerKnobChangeSupersedesTheRunningReplay();
    void runWithoutRecordsSaysWhyNothingIsSimulated();
    void runWithoutKvSizeAsksForItThenReplays();

private:
    std::unique_ptr<gui::MainWindow> windowWith(const QString& path);
    LlmReplayPanel* showPanel(gui::MainWindow& window);
    static bool waitForReplay(gui::MainWindow& window, LlmReplayPanel* panel);

    QTemporaryDir m_dir;
    std::unique_ptr<Settings> m_settings;
};

void TestLlmReplayPanel::init()
{
    m_settings = std::make_unique<Settings>(m_dir.filePath(QStringLiteral("settings.ini")));
}

std::unique_ptr<gui::MainWindow> TestLlmReplayPanel::windowWith(const QString& path)
{
    auto window = std::make_unique<gui::MainWindow>(m_settings.get());
    window->document()->reset(data::Project{}, {});
    if (!test::importInto(*window, path))
        return nullptr;
    return window;
}

/// The Traces view's LLM serving page in front at a laptop's size; its replay part.
LlmReplayPanel* TestLlmReplayPanel::showPanel(gui::MainWindow& window)
{
    window.resize(1366, 768);
    window.show();
    LlmRunsPage* page = window.traceView()->llmPage();
    test::bringToFront(page);
    return page->replayPanel();
}

/// Waits for the replay lane's job to end (fitting a 300-request run takes seconds).
bool TestLlmReplayPanel::waitForReplay(gui::MainWindow& window, LlmReplayPanel* panel)
{
    if (!window.jobs()->isRunning(kReplayLane))
        return true;
    QSignalSpy replayed(panel, &LlmReplayPanel::replayed);
    return replayed.wait(120000);
}

void TestLlmReplayPanel::servingLogReplaysAsLlmsimDoesNumberForNumber()
{
    const QString path = test::testDataPath(QStringLiteral("llm/servinglog/requests.jsonl"));
    auto window = windowWith(path);
    QVERIFY(window);
    auto* panel = showPanel(*window);
    QVERIFY(waitForReplay(*window, panel));
    QVERIFY2(panel->replay(), qPrintable(panel->note()->text()));

    // The knobs are the run's: meta.json's engine_kwargs and kv_cache.
    QCOMPARE(panel->policyPicker()->currentText(), QStringLiteral("vllm_v1"));
    QCOMPARE(panel->maxNumSeqsField()->value(), 4);
    QCOMPARE(panel->maxNumBatchedTokensField()->value(), 64);
    QCOMPARE(panel->kvBlocksField()->value(), 8);
    QVERIFY(panel->chunkedPrefillBox()->isChecked());
    QVERIFY(panel->engineFromKnobs() == test::servingLogEngine());

    const data::LlmRun run = firstRun(path);
    const auto expected = simulated(run, test::servingLogEngine(), test::servingLogEngine());
    QCOMPARE(expected.replications.size(), std::size_t(1));
    const auto& want = expected.replications.front();
    const auto& got = panel->replay()->run.result.replications.front();
    QCOMPARE(got.ttft.p99S, want.ttft.p99S);
    QCOMPARE(got.tpot.p99S, want.tpot.p99S);
    QCOMPARE(got.ttft.p50S, want.ttft.p50S);
    QCOMPARE(panel->replay()->run.result.requests.size(), std::size_t(3));
    // The line says what was run and the simulated p99s as the user reads them.
    const QString summary = panel->summary()->text();
    QVERIFY2(summary.contains(QStringLiteral("Replayed 3 requests through vllm_v1, "
                                             "max_num_seqs 4, max_num_batched_tokens 64")),
             qPrintable(summary));
    QVERIFY(summary.contains(QStringLiteral("p99 %1").arg(msText(want.ttft.p99S))));
    QVERIFY(summary.contains(QStringLiteral("p99 %1").arg(msText(want.tpot.p99S))));
    QVERIFY(summary.contains(QStringLiteral("s wall time")));
    QVERIFY(panel->stepLabel()->text().startsWith(
        QStringLiteral("Step model fitted on the run (linear): %1 ms")
            .arg(numberText(panel->replay()->run.fit.step.baseMs))));
    QVERIFY(panel->stepLabel()->text().contains(QStringLiteral("log-RMS")));

    // Measured and simulated TTFT and TPOT on one axis; the engine over time from the steps.
    const ChartContent cdf = panel->cdfPanel()->content();
    for (const char* name : {"TTFT measured", "TTFT simulated", "TPOT measured", "TPOT simulated"})
        QVERIFY2(!pointsOf(cdf, QString::fromLatin1(name)).isEmpty(), name);
    QCOMPARE(pointsOf(cdf, QStringLiteral("TTFT simulated")).back().x(),
             expected.replications.front().ttft.maxS * 1e3);
    // Every gap between two tokens of a simulated request: the CDF climbs to 1 at the longest
    // gap (to the sketch's 0.4%), and the run records no gap between its own tokens.
    const auto itl = pointsOf(panel->itlPanel()->content(), QStringLiteral("ITL simulated"));
    QVERIFY(!itl.isEmpty());
    QCOMPARE(itl.back().y(), 1.0);
    QVERIFY2(std::abs(itl.back().x() - want.itl.maxS * 1e3) <= 0.004 * want.itl.maxS * 1e3,
             qPrintable(QStringLiteral("%1 ms, longest gap %2 ms")
                            .arg(itl.back().x())
                            .arg(want.itl.maxS * 1e3)));
    QVERIFY(pointsOf(panel->itlPanel()->content(), QStringLiteral("ITL measured")).isEmpty());
    const auto steps = panel->replay()->run.result.steps;
    QCOMPARE(pointsOf(panel->queuePanel()->content(), QStringLiteral("Running")).size(),
             qsizetype(steps.size()));
    const auto kv = pointsOf(panel->kvPanel()->content(), QStringLiteral("KV use"));
    QCOMPARE(kv.size(), qsizetype(steps.size()));
    QCOMPARE(kv.front().y(), 100.0 * double(steps.front().kvBlocksUsed) / 8.0);
    const auto preempted =
        pointsOf(panel->preemptionPanel()->content(), QStringLiteral("Preemptions so far"));
    QCOMPARE(preempted.size(), qsizetype(steps.size()));
    QCOMPARE(preempted.back().y(), double(want.preemptions));
    QTRY_VERIFY2(chartsOverlap(panel).isEmpty(), qPrintable(chartsOverlap(panel)));
}

void TestLlmReplayPanel::realVllmRunReplaysAsLlmsimDoesNumberForNumber()
{
    BS_REQUIRE_SHARED_FILE(path, kRealVllmLog);
    auto window = windowWith(path);
    QVERIFY(window);
    auto* panel = showPanel(*window);
    QVERIFY(waitForReplay(*window, panel));
    QVERIFY2(panel->replay(), qPrintable(panel->note()->text()));
    // meta.json: max_num_seqs 256, max_num_batched_tokens 2048, num_gpu_blocks 2588.
    llmsim::EngineConfig engine;
    engine.policy = "vllm_v1";
    engine.maxNumSeqs = 256;
    engine.maxNumBatchedTokens = 2048;
    engine.numGpuBlocks = 2588;
    engine.blockSize = 16;
    QVERIFY(panel->engineFromKnobs() == engine);
    const auto expected = simulated(firstRun(path), engine, engine);
    QCOMPARE(expected.requests.size(), std::size_t(300));
    const auto& got = panel->replay()->run.result.replications.front();
    QCOMPARE(got.ttft.p99S, expected.replications.front().ttft.p99S);
    QCOMPARE(got.tpot.p99S, expected.replications.front().tpot.p99S);
    QVERIFY(!panel->queuePanel()->content().series.isEmpty());
    QTRY_VERIFY2(chartsOverlap(panel).isEmpty(), qPrintable(chartsOverlap(panel)));
    saveScreenshots(*window, panel, QStringLiteral("real-vllm"));
}

void TestLlmReplayPanel::changingTheTokenBudgetReplaysInAWorkerAndRedraws()
{
    const QString path = test::testDataPath(QStringLiteral("llm/servinglog/requests.jsonl"));
    auto window = windowWith(path);
    QVERIFY(window);
    auto* panel = showPanel(*window);
    QVERIFY(waitForReplay(*window, panel));
    const auto before = panel->replay();
    QVERIFY(before);
    const auto cdfBefore = pointsOf(panel->cdfPanel()->content(), QStringLiteral("TTFT simulated"));

    // The event loop turns while the replay runs: the change returns at once, with the old
    // replay still drawn and the job running in the lane.
    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
    ticker.start(0);
    QSignalSpy replayed(panel, &LlmReplayPanel::replayed);
    panel->maxNumBatchedTokensField()->setValue(16);
    QCOMPARE(replayed.count(), 0);
    QVERIFY(window->jobs()->isRunning(kReplayLane));
    QVERIFY(panel->replay() == before);
    QVERIFY(replayed.wait(60000));
    QVERIFY(ticks > 0);

    // A 30-token prompt now takes two prefill steps: a new replay with other numbers, the
    // same fit (the step belongs to the GPU, not to the knob), and llmsim's figures.
    const auto after = panel->replay();
    QVERIFY(after && after != before);
    QCOMPARE(after->run.scenario.engine.maxNumBatchedTokens, 16);
    QVERIFY(after->run.fit.step == before->run.fit.step);
    llmsim::EngineConfig engine = test::servingLogEngine();
    engine.maxNumBatchedTokens = 16;
    const auto expected = simulated(firstRun(path), test::servingLogEngine(), engine);
    const auto& got = after->run.result.replications.front();
    QCOMPARE(got.ttft.p99S, expected.replications.front().ttft.p99S);
    QCOMPARE(got.tpot.p99S, expected.replications.front().tpot.p99S);
    QVERIFY(got.ttft.p99S != before->run.result.replications.front().ttft.p99S);
    QVERIFY(pointsOf(panel->cdfPanel()->content(), QStringLiteral("TTFT simulated")) != cdfBefore);
    QVERIFY(panel->summary()->text().contains(QStringLiteral("max_num_batched_tokens 16")));
}

void TestLlmReplayPanel::aNewerKnobChangeSupersedesTheRunningReplay()
{
    const QString path = test::testDataPath(QStringLiteral("llm/servinglog/requests.jsonl"));
    auto window = windowWith(path);
    QVERIFY(window);
    auto* panel = showPanel(*window);
    QVERIFY(waitForReplay(*window, panel));
    QSignalSpy replayed(panel, &LlmReplayPanel::replayed);
    panel->maxNumBatchedTokensField()->setValue(16);
    panel->maxNumSeqsField()->setValue(1);
    QVERIFY(replayed.wait(60000));
    QVERIFY(window->jobs()->waitForIdle(60000));
    // Only the newest replay is drawn, with both changes.
    QCOMPARE(replayed.count(), 1);
    QCOMPARE(panel->replay()->run.scenario.engine.maxNumBatchedTokens, 16);
    QCOMPARE(panel->replay()->run.scenario.engine.maxNumSeqs, 1);
}

void TestLlmReplayPanel::runWithoutRecordsSaysWhyNothingIsSimulated()
{
    auto window = windowWith(test::testDataPath(QStringLiteral("llm/vllm_rate_sweep.jsonl")));
    QVERIFY(window);
    auto* panel = showPanel(*window);
    window->traceView()->llmPage()->runPicker()->setCurrentIndex(3); // aggregates only
    QVERIFY(waitForReplay(*window, panel));
    QVERIFY(!panel->replay());
    QVERIFY(!window->jobs()->isRunning(kReplayLane));
    QVERIFY(panel->note()->isVisible());
    QVERIFY(panel->note()->text().contains(QStringLiteral("no per-request records")));
    for (ChartPanel* chart : panel->panels()) {
        QVERIFY(chart->content().series.isEmpty());
        QVERIFY(chart->content().emptyText.contains(QStringLiteral("no per-request records")));
    }
    QVERIFY(!panel->summary()->isVisible());
}

void TestLlmReplayPanel::runWithoutKvSizeAsksForItThenReplays()
{
    auto window = windowWith(test::testDataPath(QStringLiteral("llm/vllm_rate_sweep.jsonl")));
    QVERIFY(window);
    auto* panel = showPanel(*window);
    QVERIFY(waitForReplay(*window, panel));
    // A benchmark result records the traffic, not the engine's KV cache.
    QVERIFY(!panel->replay());
    QCOMPARE(panel->kvBlocksField()->value(), 0);
    QCOMPARE(panel->kvBlocksField()->text(), panel->kvBlocksField()->specialValueText());
    QVERIFY(panel->note()->text().contains(QStringLiteral("does not record its KV-cache size")));
    QVERIFY(panel->cdfPanel()->content().series.isEmpty());
    QVERIFY(panel->kvPanel()->content().emptyText.contains(QStringLiteral("num_gpu_blocks")));
    saveScreenshots(*window, panel, QStringLiteral("no-kv-size"));

    QSignalSpy replayed(panel, &LlmReplayPanel::replayed);
    panel->kvBlocksField()->setValue(100);
    QVERIFY(replayed.wait(60000));
    QVERIFY2(panel->replay(), qPrintable(panel->note()->text()));
    QCOMPARE(panel->replay()->run.scenario.engine.numGpuBlocks, std::int64_t(100));
    QCOMPARE(panel->replay()->run.result.requests.size(), std::size_t(6));
    QVERIFY(!pointsOf(panel->cdfPanel()->content(), QStringLiteral("TTFT simulated")).isEmpty());
}

QTEST_MAIN(TestLlmReplayPanel)
#include "tst_llmreplaypanel.moc"
