// Nothing a user reads may be cut at 1366x768, the smallest laptop screen the workbench targets:
// no label clipped, no combo box text cut, no table cell or header elided or pushed off to the
// right behind a scroll bar, no chart tick label or axis title shortened to "…". A view that does
// not fit scrolls vertically; its text stays whole. Checked on the built-in demo and on a real
// imported perf_analyzer sweep, on every tab of every view.
#include "elisionprobe.h"
#include "import/importcontroller.h"
#include "jobs/jobrunner.h"
#include "mainwindow.h"
#include "state/settings.h"
#include "testsupport.h"
#include "views/llmrunspage.h"
#include "views/traceview.h"

#include <QComboBox>
#include <QDockWidget>
#include <QSignalSpy>
#include <QTabWidget>
#include <QtTest>

using namespace bs;
using namespace bs::widgets;

class TestNoElision : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void demoShowsEveryTextWholeAt1366x768();
    void importedRealSweepShowsEveryTextWholeAt1366x768();
    void importedLlmBenchmarksShowEveryTextWholeAt1366x768();
    void demoShowsEveryTextWholeAt1600x1000();
    void projectorModeShowsEveryTextWholeAt1920x1080();
    void llmDemoShowsEveryTextWholeAt1366x768();
    void llmDemoInProjectorModeShowsEveryTextWholeAt1920x1080();

private:
    std::unique_ptr<gui::MainWindow> showWindow(QSize size = {1366, 768}, bool projector = false);
    QStringList cutTextOnEveryTab(gui::MainWindow& window);

    QTemporaryDir m_dir;
    std::unique_ptr<Settings> m_settings;
    int m_settingsFiles = 0;
};

void TestNoElision::init()
{
    m_settings = std::make_unique<Settings>(
        m_dir.filePath(QStringLiteral("settings-%1.ini").arg(++m_settingsFiles)));
}

std::unique_ptr<gui::MainWindow> TestNoElision::showWindow(QSize size, bool projector)
{
    auto window = std::make_unique<gui::MainWindow>(m_settings.get());
    window->openInitial({});
    if (projector)
        window->setLargeFontMode(true);
    window->resize(size);
    window->show();
    return window;
}

/// With each dock in front in turn (docks share a side as tabs on a laptop screen), visits every
/// page of every tab widget (the views, the tabs inside a view or a dock) and collects what is
/// cut on each.
QStringList TestNoElision::cutTextOnEveryTab(gui::MainWindow& window)
{
    QStringList cut;
    const auto settle = [&window]() {
        QCoreApplication::processEvents();
        window.jobs()->waitForIdle(60000);
        // Charts lay out through posted events, and a chart that asks for more room (its axis
        // titles) lays out once more after its page has grown.
        QTest::qWait(30);
        QCoreApplication::processEvents();
    };
    for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
        dock->raise();
        for (QTabWidget* tabs : window.findChildren<QTabWidget*>()) {
            for (int page = 0; page < tabs->count(); ++page) {
                if (!tabs->isTabVisible(page))
                    continue; // a tab this project does not offer (LLM-only: no Sweep)
                tabs->setCurrentIndex(page);
                settle();
                if (!tabs->isVisible())
                    continue;
                for (const QString& item : test::cutTextIn(&window))
                    cut << QStringLiteral("[%1 dock, %2] %3")
                               .arg(dock->windowTitle(), tabs->tabText(page), item);
            }
        }
    }
    cut.removeDuplicates();
    return cut;
}

/// Qt Test cuts long failure messages: each cut text gets its own line.
static void reportCut(const QStringList& cut)
{
    for (const QString& item : cut)
        qWarning("cut: %s", qPrintable(item));
}

#define reportAndVerifyNothingCut(cut)                                                             \
    reportCut(cut);                                                                                \
    QVERIFY2((cut).isEmpty(),                                                                      \
             qPrintable(QStringLiteral("%1 texts cut (listed above)").arg((cut).size())))

void TestNoElision::demoShowsEveryTextWholeAt1366x768()
{
    auto window = showWindow();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    QVERIFY(window->jobs()->waitForIdle(60000));
    const QStringList cut = cutTextOnEveryTab(*window);
    reportAndVerifyNothingCut(cut);
}

void TestNoElision::importedRealSweepShowsEveryTextWholeAt1366x768()
{
    BS_REQUIRE_SHARED_DATA(shared);
    auto window = showWindow();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    QSignalSpy finished(window->importer(), &ImportController::importFinished);
    ImportRequest request;
    request.path = shared + QStringLiteral("/triton/perf_analyzer/Mutinifni_DeepLearningExamples/"
                                           "PyTorch/Forecasting/TFT/runner_workspace/executor/"
                                           "shared/triton_performance_online.csv");
    request.role = data::DatasetRole::Candidate;
    window->importer()->importFiles({request});
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.at(0).at(0).toInt(), 1);
    QVERIFY(window->jobs()->waitForIdle(60000));
    const QStringList cut = cutTextOnEveryTab(*window);
    reportAndVerifyNothingCut(cut);
}

/// The Traces view's LLM serving page with each imported benchmark in turn: a constructed rate
/// sweep (four runs, one without per-request records, so its run names and the sweep caption are
/// long) and, when the shared folder is there, a real vLLM result and a real SGLang file of seven
/// runs over two datasets. Each benchmark is shown with its first and its last run.
void TestNoElision::importedLlmBenchmarksShowEveryTextWholeAt1366x768()
{
    auto window = showWindow();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    QStringList paths{test::testDataPath(QStringLiteral("llm/vllm_rate_sweep.jsonl"))};
    if (const QString shared = test::sharedDataDir(); !shared.isEmpty())
        paths << shared + QStringLiteral("/llm/llm-k8s/results_serving_meta-llama-Llama-3.3-70B-"
                                         "Instruct/01_tp8_pp1/serving_meta-llama-Llama-3.3-70B-"
                                         "Instruct_tp8_pp1_sharegpt_qps_04.json")
              << shared + QStringLiteral("/llm/h200-benchmarks/sglang/outputs/"
                                         "llama_3_3_70b_online_output.jsonl");
    else
        qWarning("Shared data folder not found: only the constructed LLM benchmark is checked");
    QSignalSpy finished(window->importer(), &ImportController::importFinished);
    QList<ImportRequest> requests;
    for (const QString& path : paths)
        requests.append(ImportRequest{path, {}, nlohmann::json::object(), {}});
    window->importer()->importFiles(requests);
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.at(0).at(0).toInt(), int(paths.size()));
    QVERIFY(window->jobs()->waitForIdle(60000));

    QComboBox* datasets = window->traceView()->llmPicker();
    QCOMPARE(datasets->count(), int(paths.size()) + 1);
    QComboBox* runs = window->traceView()->llmPage()->runPicker();
    QStringList cut;
    for (int dataset = 1; dataset < datasets->count(); ++dataset) {
        datasets->setCurrentIndex(dataset);
        QVERIFY(window->jobs()->waitForIdle(60000));
        for (const int run : {0, int(runs->count()) - 1}) {
            runs->setCurrentIndex(std::max(0, run));
            for (const QString& item : cutTextOnEveryTab(*window))
                cut << QStringLiteral("[%1, run %2] %3")
                           .arg(datasets->itemText(dataset))
                           .arg(run)
                           .arg(item);
        }
    }
    reportAndVerifyNothingCut(cut);
}

/// A desktop screen: the docks sit on both sides (wider than 1500 px), so the views are narrower
/// than the window suggests and the Traces pickers must wrap rather than cut names.
void TestNoElision::demoShowsEveryTextWholeAt1600x1000()
{
    auto window = showWindow({1600, 1000});
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    QVERIFY(window->jobs()->waitForIdle(60000));
    const QStringList cut = cutTextOnEveryTab(*window);
    reportAndVerifyNothingCut(cut);
}

/// The design review: projector fonts on a 1920x1080 screen.
void TestNoElision::projectorModeShowsEveryTextWholeAt1920x1080()
{
    auto window = showWindow({1920, 1080}, /*projector=*/true);
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    QVERIFY(window->jobs()->waitForIdle(60000));
    const QStringList cut = cutTextOnEveryTab(*window);
    reportAndVerifyNothingCut(cut);
}

/// The LLM demo: the LLM server tab, the Model dock's LLM knobs, the region panel.
void TestNoElision::llmDemoShowsEveryTextWholeAt1366x768()
{
    auto window = showWindow();
    window->openLlmDemo();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    QVERIFY(window->jobs()->waitForIdle(60000));
    const QStringList cut = cutTextOnEveryTab(*window);
    reportAndVerifyNothingCut(cut);
}

void TestNoElision::llmDemoInProjectorModeShowsEveryTextWholeAt1920x1080()
{
    auto window = showWindow({1920, 1080}, /*projector=*/true);
    window->openLlmDemo();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    QVERIFY(window->jobs()->waitForIdle(60000));
    const QStringList cut = cutTextOnEveryTab(*window);
    reportAndVerifyNothingCut(cut);
}

QTEST_MAIN(TestNoElision)
#include "tst_noelision.moc"
