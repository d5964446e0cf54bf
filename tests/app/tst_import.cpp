#include "appimport.h"
#include "charts/chartpanel.h"
#include "document/projectdocument.h"
#include "filecontroller.h"
#include "import/columnmappingdialog.h"
#include "import/importcontroller.h"
#include "import/importdialog.h"
#include "io/csvpreview.h"
#include "io/projectfile.h"
#include "jobs/jobrunner.h"
#include "mainwindow.h"
#include "models/datasetlistmodel.h"
#include "panels/datasetpanel.h"
#include "panels/messagebar.h"
#include "state/settings.h"
#include "testsupport.h"
#include "views/sweepview.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

#include <optional>

using namespace bs;
using namespace bs::widgets;

class TestImport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void importingAFixtureFillsTheDockAndTheChart();
    void badFileShowsAnInlineErrorWithLine();
    void importDialogShowsDetectionAndNeedsAMapping();
    void mappingDialogStartsFromTheSuggestion();
    void provenanceSaysWhyItWasDetected();
    void distinguishingNames_data();
    void distinguishingNames();
    void importDialogTellsFilesApart();
    void cancellingALongImportAddsNothing();
    void reopenedProjectReadsItsReferencedFilesAgain();

private:
    std::unique_ptr<gui::MainWindow> makeWindow();
    QTemporaryDir m_dir;
    std::unique_ptr<Settings> m_settings;
};

void TestImport::init()
{
    m_settings = std::make_unique<Settings>(m_dir.filePath(QStringLiteral("settings.ini")));
}

std::unique_ptr<gui::MainWindow> TestImport::makeWindow()
{
    auto window = std::make_unique<gui::MainWindow>(m_settings.get());
    window->document()->reset(data::Project{}, {});
    return window;
}

void TestImport::importingAFixtureFillsTheDockAndTheChart()
{
    auto window = makeWindow();
    QSignalSpy finished(window->importer(), &ImportController::importFinished);
    ImportRequest request;
    request.path = test::testDataPath(QStringLiteral("perf_analyzer/concurrency.csv.gz"));
    request.role = data::DatasetRole::Baseline;
    window->importer()->importFiles({request});
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.at(0).at(0).toInt(), 1);

    DatasetListModel* model = window->datasetPanel()->model();
    QCOMPARE(model->rowCount(), 1);
    QCOMPARE(model->data(model->index(0, DatasetListModel::ReaderColumn)).toString(),
             QStringLiteral("perf_analyzer"));
    QCOMPARE(model->data(model->index(0, DatasetListModel::RoleColumn)).toString(),
             QStringLiteral("Baseline"));
    const data::Dataset& dataset = window->document()->project().datasets.front();
    QCOMPARE(dataset.provenance.sha256.size(), std::size_t(64));
    // The throughput chart now has the imported sweep, in inferences per second as read.
    const ChartContent throughput = window->sweepView()->panels()[0]->content();
    QCOMPARE(throughput.series.size(), 1);
    QCOMPARE(throughput.series[0].data.points.size(), qsizetype(dataset.sweep()->points.size()));
    QVERIFY(window->document()->isModified());
}

void TestImport::badFileShowsAnInlineErrorWithLine()
{
    auto window = makeWindow();
    window->show();
    QSignalSpy finished(window->importer(), &ImportController::importFinished);
    const QString path = test::testDataPath(QStringLiteral("perf_analyzer/non_numeric.csv"));
    window->importer()->importFiles({ImportRequest{path, QStringLiteral("perf_analyzer"), {}, {}}});
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.at(0).at(1).toInt(), 1);
    QVERIFY(window->messageBar()->isVisible());
    QCOMPARE(window->messageBar()->kind(), MessageBar::Kind::Error);
    QVERIFY2(window->messageBar()->text().contains(path + QStringLiteral(":3:")),
             qPrintable(window->messageBar()->text()));
    QCOMPARE(window->document()->project().datasets.size(), std::size_t(0));
}

void TestImport::importDialogShowsDetectionAndNeedsAMapping()
{
    ImportDialog dialog({test::testDataPath(QStringLiteral("perf_analyzer/concurrency.csv")),
                         test::testDataPath(QStringLiteral("generic_csv/sweep_ms.csv"))});
    QCOMPARE(dialog.fileCount(), 2);
    QVERIFY2(dialog.detectionText(0).startsWith(QStringLiteral("perf_analyzer: ")),
             qPrintable(dialog.detectionText(0)));
    const auto requests = dialog.requests();
    QVERIFY(requests[0].format.isEmpty()); // left at "Detected"
    QVERIFY(requests[1].format.isEmpty() || readerNeedsMapping(requests[1].format));
    auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    QVERIFY(!ok->isEnabled()); // the generic CSV has no mapping yet
    dialog.setFormat(1, QStringLiteral("perf_analyzer"));
    QVERIFY(ok->isEnabled());
}

// Regression: a file imported with "Read as" left at "Detected" had the provenance "Detected
// because: chosen by the user".
void TestImport::provenanceSaysWhyItWasDetected()
{
    auto window = makeWindow();
    QSignalSpy finished(window->importer(), &ImportController::importFinished);
    ImportDialog dialog({test::testDataPath(QStringLiteral("perf_analyzer/concurrency.csv"))});
    window->importer()->importFiles(dialog.requests());
    QVERIFY(finished.wait(20000));
    QCOMPARE(window->document()->project().datasets.size(), std::size_t(1));
    const auto& provenance = window->document()->project().datasets.front().provenance;
    QCOMPARE(provenance.reader, std::string("perf_analyzer"));
    QCOMPARE(QString::fromStdString(provenance.detectedBecause),
             dialog.detectionText(0).mid(QStringLiteral("perf_analyzer: ").size()));
    QVERIFY(provenance.detectedBecause.find("chosen by the user") == std::string::npos);
}

void TestImport::distinguishingNames_data()
{
    QTest::addColumn<QStringList>("paths");
    QTest::addColumn<QStringList>("names");
    QTest::newRow("different names")
        << QStringList{QStringLiteral("/d/a/x.csv"), QStringLiteral("/d/b/y.csv")}
        << QStringList{QStringLiteral("x.csv"), QStringLiteral("y.csv")};
    QTest::newRow("same name, other folder")
        << QStringList{QStringLiteral("/d/run1/shared/x.csv"),
                       QStringLiteral("/d/run2/shared/x.csv"), QStringLiteral("/d/z.csv")}
        << QStringList{QStringLiteral("run1/shared/x.csv"), QStringLiteral("run2/shared/x.csv"),
                       QStringLiteral("z.csv")};
    QTest::newRow("same file twice")
        << QStringList{QStringLiteral("/d/x.csv"), QStringLiteral("/d/x.csv")}
        << QStringList{QStringLiteral("d/x.csv"), QStringLiteral("d/x.csv")};
}

void TestImport::distinguishingNames()
{
    QFETCH(QStringList, paths);
    QFETCH(QStringList, names);
    QCOMPARE(widgets::distinguishingNames(paths), names);
}

// Regression: two files were both shown as "triton_perfor…" in the import dialog.
void TestImport::importDialogTellsFilesApart()
{
    const QString a = test::testDataPath(
        QStringLiteral("model_analyzer/concurrency/metrics-model-inference.csv"));
    const QString b = test::testDataPath(
        QStringLiteral("model_analyzer/request_rate/metrics-model-inference.csv"));
    QStringList paths{a, b};
    const QString shared = test::sharedDataDir();
    const QString triton =
        shared + QStringLiteral("/triton/perf_analyzer/Mutinifni_DeepLearningExamples/PyTorch/"
                                "Forecasting/TFT/runner_workspace/executor/shared/");
    if (!shared.isEmpty())
        paths << triton + QStringLiteral("triton_performance_offline.csv")
              << triton + QStringLiteral("triton_performance_online.csv");
    ImportDialog dialog(paths);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto* table = dialog.findChild<QTableWidget*>();
    QVERIFY(table);
    QCOMPARE(table->item(0, 0)->text(), QStringLiteral("concurrency/metrics-model-inference.csv"));
    QCOMPARE(table->item(1, 0)->text(), QStringLiteral("request_rate/metrics-model-inference.csv"));
    // Every name fits its column: nothing is elided.
    for (int row = 0; row < table->rowCount(); ++row) {
        const QString text = table->item(row, 0)->text();
        QVERIFY2(table->columnWidth(0) >= table->fontMetrics().horizontalAdvance(text),
                 qPrintable(text));
    }
    if (shared.isEmpty())
        QSKIP("Shared data folder not found: the two Triton perf_analyzer files were NOT checked");
    QCOMPARE(table->item(2, 0)->text(), QStringLiteral("triton_performance_offline.csv"));
    QCOMPARE(table->item(3, 0)->text(), QStringLiteral("triton_performance_online.csv"));
}

void TestImport::mappingDialogStartsFromTheSuggestion()
{
    const QString path = test::testDataPath(QStringLiteral("generic_csv/sweep_ms.csv"));
    auto preview = io::previewCsv(path.toStdString());
    QVERIFY(preview);
    QCOMPARE(preview->headers.size(), std::size_t(7));
    const auto suggested =
        io::suggestColumnMapping(preview->headers, preview->rows.front(), io::MappingTarget::Sweep);
    ColumnMappingDialog dialog(QStringLiteral("sweep_ms.csv"), *preview, io::MappingTarget::Sweep,
                               suggested);
    QVERIFY(dialog.mapping() == suggested);
    dialog.setBinding(QStringLiteral("latency_p99"), QStringLiteral("p99_ms"),
                      QStringLiteral("us"));
    const io::ColumnBinding* p99 = dialog.mapping().find("latency_p99");
    QVERIFY(p99);
    QCOMPARE(p99->unit, std::string("us"));
    // The options round-trip through the reader's own validation.
    QVERIFY(io::columnMappingFromJson(dialog.readerOptions(), io::MappingTarget::Sweep, "x"));
}

void TestImport::cancellingALongImportAddsNothing()
{
    // ~60 MB of perf_analyzer rows: long enough to cancel while it reads.
    const QString path = m_dir.filePath(QStringLiteral("long.csv"));
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("Concurrency,Inferences/Second,p50 latency,p99 latency\n");
        QByteArray block;
        for (int i = 1; i <= 20000; ++i)
            block += QByteArray::number(i) + ",1000.5,900,1200\n";
        for (int k = 0; k < 170; ++k)
            file.write(block);
    }
    auto window = makeWindow();
    QSignalSpy ended(window->jobs(), &JobRunner::jobEnded);
    window->importer()->importFiles({ImportRequest{path, QStringLiteral("perf_analyzer"), {}, {}}});
    QTRY_VERIFY(window->jobs()->isRunning(QStringLiteral("import")));
    window->jobs()->cancel(QStringLiteral("import"));
    // Other lanes (the model and simulation of the empty project) may end first: find the
    // import's own end.
    const auto importEnd = [&ended]() -> std::optional<bool> {
        for (const QList<QVariant>& args : ended) {
            if (args.at(0).toString() == QStringLiteral("import"))
                return args.at(1).toBool();
        }
        return std::nullopt;
    };
    QTRY_VERIFY_WITH_TIMEOUT(importEnd().has_value(), 20000);
    QCOMPARE(*importEnd(), true); // ended as cancelled
    QVERIFY(window->jobs()->waitForIdle(20000));
    QCOMPARE(window->document()->project().datasets.size(), std::size_t(0));
    QVERIFY(!window->document()->isModified());
    QVERIFY(window->messageBar()->text().contains(QStringLiteral("cancelled")));
}

QTEST_MAIN(TestImport)
/// LLM benchmark runs and kernel traces are kept by path, not in the project file: opened again,
/// the project reads them in the background; a file that is gone is named, never silent.
void TestImport::reopenedProjectReadsItsReferencedFilesAgain()
{
    QTemporaryDir folder;
    const QString bench = folder.filePath(QStringLiteral("vllm_rate_sweep.jsonl"));
    QVERIFY(QFile::copy(test::sourceDir() + QStringLiteral("/tests/data/llm/vllm_rate_sweep.jsonl"),
                        bench));
    const QString projectPath = folder.filePath(QStringLiteral("llm.bsproj"));
    {
        auto window = makeWindow();
        QVERIFY(test::importInto(*window, bench));
        const auto& dataset = window->document()->project().datasets.back();
        QCOMPARE(dataset.kind, data::DatasetKind::LlmRuns);
        QVERIFY(io::saveProject(window->document()->project(), projectPath.toStdString()));
    }
    {
        auto window = makeWindow();
        QSignalSpy reloaded(window->importer(), &ImportController::referencedDatasetsReloaded);
        QVERIFY(window->files()->openProject(projectPath));
        QVERIFY(reloaded.wait(30000));
        QCOMPARE(reloaded.at(0).at(0).toInt(), 1);
        const auto& dataset = window->document()->project().datasets.back();
        QVERIFY(dataset.isLoaded());
        QVERIFY(dataset.llmRuns() && dataset.llmRuns()->runs.size() == 4);
    }
    // The file gone: the dataset stays listed, unread, and the message bar names the file.
    QVERIFY(QFile::remove(bench));
    auto window = makeWindow();
    QSignalSpy reloaded(window->importer(), &ImportController::referencedDatasetsReloaded);
    QVERIFY(window->files()->openProject(projectPath));
    QVERIFY(reloaded.wait(30000));
    QCOMPARE(reloaded.at(0).at(1).toInt(), 1);
    QVERIFY(!window->document()->project().datasets.back().isLoaded());
    QVERIFY2(window->messageBar()->text().contains(QStringLiteral("vllm_rate_sweep.jsonl")),
             qPrintable(window->messageBar()->text()));
}

#include "tst_import.moc"
