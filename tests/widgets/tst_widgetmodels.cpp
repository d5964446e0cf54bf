#include "charts/sweepcharts.h"
#include "document/projectdocument.h"
#include "io/projectfile.h"
#include "io/readdataset.h"
#include "models/datasetlistmodel.h"
#include "models/seriestablemodel.h"
#include "testsupport.h"

#include <QAbstractItemModelTester>
#include <QUndoStack>
#include <QtTest>

using namespace bs;
using namespace bs::widgets;

namespace {
data::Project demoProject()
{
    auto project = io::loadProject(test::sourceDir().toStdString() + "/resources/demo/demo.bsproj");
    return project ? *project : data::Project{};
}
} // namespace

class TestWidgetModels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void datasetListModelPassesTheTester();
    void datasetEditsAreUndoable();
    void seriesTableModelPassesTheTester();
    void seriesCsvQuotesNames();
    void sweepChartsUseDisplayUnits();
    void perfAnalyzerRunsAreSeparateLines();
};

void TestWidgetModels::datasetListModelPassesTheTester()
{
    ProjectDocument document;
    DatasetListModel model(&document);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    document.reset(demoProject(), {});
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.data(model.index(0, DatasetListModel::KindColumn)).toString(),
             QStringLiteral("Sweep"));
    QCOMPARE(model.data(model.index(0, DatasetListModel::RoleColumn)).toString(),
             QStringLiteral("Baseline"));
    QCOMPARE(model.data(model.index(1, DatasetListModel::RowsColumn), DatasetListModel::SortRole)
                 .toLongLong(),
             9);
    QVERIFY(model.setData(model.index(1, DatasetListModel::NameColumn), QStringLiteral("Capped")));
    QCOMPARE(model.data(model.index(1, DatasetListModel::NameColumn)).toString(),
             QStringLiteral("Capped"));
}

void TestWidgetModels::datasetEditsAreUndoable()
{
    ProjectDocument document;
    document.reset(demoProject(), {});
    QVERIFY(!document.isModified());
    QSignalSpy modified(&document, &ProjectDocument::modifiedChanged);
    document.setDatasetRole(QStringLiteral("ds2"), data::DatasetRole::Baseline);
    // Baseline is unique: the old baseline lost its role.
    QCOMPARE(document.project().datasets[0].role, data::DatasetRole::None);
    QCOMPARE(document.project().datasets[1].role, data::DatasetRole::Baseline);
    QVERIFY(document.isModified());
    QCOMPARE(modified.count(), 1);
    document.undoStack()->undo();
    QCOMPARE(document.project().datasets[0].role, data::DatasetRole::Baseline);
    QCOMPARE(document.project().datasets[1].role, data::DatasetRole::Candidate);
    QVERIFY(!document.isModified());

    data::RunTags tags = document.project().datasets[0].tags;
    tags.firmware = "550.54.15";
    document.setDatasetTags(QStringLiteral("ds1"), tags);
    QCOMPARE(document.project().datasets[0].tags.firmware, std::string("550.54.15"));
    document.removeDataset(QStringLiteral("ds2"));
    QCOMPARE(document.project().datasets.size(), std::size_t(3));
    document.undoStack()->undo();
    document.undoStack()->undo();
    QCOMPARE(document.project().datasets.size(), std::size_t(4));
    QCOMPARE(document.project().datasets[0].tags.firmware, std::string("535.104.05"));
}

void TestWidgetModels::seriesTableModelPassesTheTester()
{
    SeriesTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    SeriesData a{QStringLiteral("A"),
                 QStringLiteral("Batch size (items)"),
                 QStringLiteral("Throughput (inferences/s)"),
                 {QPointF(1, 10), QPointF(2, 19.5)}};
    SeriesData b{QStringLiteral("B"), a.xTitle, a.yTitle, {QPointF(4, 33)}};
    model.setSeries({a, b});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("Batch size (items)"));
    QCOMPARE(model.data(model.index(2, 0)).toString(), QStringLiteral("B"));
    QCOMPARE(model.data(model.index(1, 2), Qt::UserRole).toDouble(), 19.5);
    model.setSeries({});
    QCOMPARE(model.rowCount(), 0);
}

void TestWidgetModels::seriesCsvQuotesNames()
{
    SeriesData s{QStringLiteral("Baseline, \"400 W\""),
                 QStringLiteral("Batch size (items)"),
                 QStringLiteral("Latency (ms)"),
                 {QPointF(8, 1.25)}};
    QCOMPARE(seriesToCsv({s}), QStringLiteral("series,Batch size (items),Latency (ms)\n"
                                              "\"Baseline, \"\"400 W\"\"\",8,1.25\n"));
}

void TestWidgetModels::sweepChartsUseDisplayUnits()
{
    const data::Project project = demoProject();
    QList<SweepInput> inputs;
    for (const auto& d : project.datasets)
        inputs.append({QString::fromStdString(d.name), d.role, d.sweep()});
    SweepChartOptions options;
    options.slaP99Ms = 15.0;
    const ChartContent latency = sweepLatencyChart(inputs, {}, options);
    QCOMPARE(latency.series.size(), 4); // p99 and p50 for both sweeps
    const auto& firstPoint = latency.series[0].data.points.front();
    QCOMPARE(firstPoint.x(), 1.0);
    QCOMPARE(firstPoint.y(), project.datasets[0].sweep()->points[0].latencyP99S.value() * 1e3);
    QCOMPARE(latency.references.size(), 1);
    QCOMPARE(latency.references[0].value, 15.0);
    QCOMPARE(latency.series[0].colour, baselineColour());
    QCOMPARE(latency.series[1].colour, candidateColour());
    const ChartContent energy = sweepEnergyChart(inputs, {}, options);
    QCOMPARE(energy.yTitle, QStringLiteral("Energy per inference (mJ)"));
    QCOMPARE(energy.series[0].data.points[0].y(),
             project.datasets[0].sweep()->points[0].energyPerInferenceJ.value() * 1e3);
    QCOMPARE(suggestedXAxis(inputs), SweepXAxis::BatchSize);
}

// Regression: a perf_analyzer CSV holding several runs (each with its own header) was drawn as
// one zig-zag line through all of them; each run is its own line now.
void TestWidgetModels::perfAnalyzerRunsAreSeparateLines()
{
    BS_REQUIRE_SHARED_DATA(shared);
    const QString path =
        shared + QStringLiteral("/triton/perf_analyzer/Mutinifni_DeepLearningExamples/"
                                "PyTorch/Forecasting/TFT/runner_workspace/executor/"
                                "shared/triton_performance_offline.csv");
    auto read = io::readDataset(path.toStdString());
    QVERIFY2(read, read ? "" : read.error().toString().c_str());
    const auto table = read->sweep();
    // Independent count of the runs: the file's header lines.
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const int headers = int(file.readAll().count("Batch,Concurrency,"));
    QCOMPARE(headers, 5);
    const QList<SweepInput> inputs{{QStringLiteral("offline"), data::DatasetRole::Baseline, table}};
    const ChartContent throughput = sweepThroughputChart(inputs, {}, SweepChartOptions{});
    QCOMPARE(throughput.series.size(), headers);
    QCOMPARE(throughput.series[0].data.name, QStringLiteral("offline · run 1"));
    QCOMPARE(throughput.series[0].data.points.size(), 11); // batch 1 ... 1024
    QCOMPARE(throughput.series[1].data.points.size(), 11);
    QCOMPARE(throughput.series[4].data.points.size(), 1);
    QCOMPARE(throughput.series[0].colour, baselineColour());
    QVERIFY(throughput.series[1].colour != baselineColour());
    // Each line is one run: its points are that run's rows, in batch order.
    for (int i = 0; i < 11; ++i) {
        QCOMPARE(throughput.series[1].data.points[i].x(),
                 double(table->points[std::size_t(11 + i)].batchSize));
        QCOMPARE(throughput.series[1].data.points[i].y(),
                 *table->points[std::size_t(11 + i)].throughputPerS);
    }
}

QTEST_MAIN(TestWidgetModels)
#include "tst_widgetmodels.moc"
