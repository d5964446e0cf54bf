// The LLM replay charts' measured side: the inter-token latency CDF of a run that records its
// gaps (vLLM's itls) is drawn from every gap of every request, pooled as vLLM pools them,
// beside the simulated gaps of the same requests replayed.
#include "analysis/llmrunanalysis.h"
#include "charts/llmreplaycharts.h"
#include "io/readdataset.h"
#include "llmsim/runreplay.h"
#include "servinglogengine.h"
#include "testsupport.h"

#include <QtTest>

using namespace bs;
using namespace bs::widgets;

namespace {

const SeriesSpec* seriesNamed(const ChartContent& content, const QString& name)
{
    for (const auto& series : content.series)
        if (series.data.name == name)
            return &series;
    return nullptr;
}

} // namespace

class TestLlmReplayCharts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void measuredItlIsEveryRecordedGap()
    {
        auto dataset = io::readDataset(
            test::testDataPath(QStringLiteral("llm/servinglog/requests.jsonl")).toStdString());
        QVERIFY(dataset && dataset->llmRuns());
        data::LlmRun run = dataset->llmRuns()->runs.front();
        QCOMPARE(run.requests.size(), std::size_t(3));
        // Gaps that add up to each request's first -> last token: a (5 tokens, 2 s) and c
        // (3 tokens, 1 s); b wrote one token and has none.
        run.requests[0].itlS = {0.4, 0.5, 0.6, 0.5};
        run.requests[2].itlS = {0.3, 0.7};
        data::LlmRunSet set;
        set.runs = {run};
        const auto measured = analysis::analyzeLlmRuns(set).front();
        auto replay = llmsim::replayRun(run, test::servingLogEngine(), test::servingLogEngine(),
                                        std::nullopt);
        QVERIFY2(replay, replay ? "" : replay.error().message.c_str());

        const ChartContent chart = llmItlCdfChart(measured, &*replay, {});
        const SeriesSpec* drawn = seriesNamed(chart, QStringLiteral("ITL measured"));
        QVERIFY(drawn);
        const QList<QPointF> want = {{300.0, 1.0 / 6.0}, {400.0, 2.0 / 6.0}, {500.0, 3.0 / 6.0},
                                     {500.0, 4.0 / 6.0}, {600.0, 5.0 / 6.0}, {700.0, 1.0}};
        QCOMPARE(drawn->data.points.size(), want.size());
        for (qsizetype i = 0; i < want.size(); ++i) {
            QVERIFY(std::abs(drawn->data.points[i].x() - want[i].x()) < 1e-9);
            QVERIFY(std::abs(drawn->data.points[i].y() - want[i].y()) < 1e-12);
        }
        QCOMPARE(drawn->style, SeriesStyle::Step);
        // The simulated gaps of the same requests, dashed in the same colour.
        const SeriesSpec* simulated = seriesNamed(chart, QStringLiteral("ITL simulated"));
        QVERIFY(simulated && !simulated->data.points.isEmpty());
        QCOMPARE(simulated->style, SeriesStyle::Dashed);
        QCOMPARE(simulated->colour, drawn->colour);
        QCOMPARE(simulated->data.points.back().y(), 1.0);

        // A run without recorded gaps draws the simulated side alone.
        data::LlmRunSet bare;
        bare.runs = {dataset->llmRuns()->runs.front()};
        const ChartContent alone =
            llmItlCdfChart(analysis::analyzeLlmRuns(bare).front(), &*replay, {});
        QVERIFY(!seriesNamed(alone, QStringLiteral("ITL measured")));
        QVERIFY(seriesNamed(alone, QStringLiteral("ITL simulated")));
    }
};

QTEST_GUILESS_MAIN(TestLlmReplayCharts)
#include "tst_llmreplaycharts.moc"
