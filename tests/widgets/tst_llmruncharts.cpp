// The LLM serving page's charts and tables as pure functions of constructed runs (issue 18):
// which x the rate sweep takes, when the CDF's x axis goes logarithmic, and what a table says
// when a figure is missing or comes from telemetry and the engine series.
#include "charts/llmruncharts.h"
#include "views/llmruntables.h"

#include <QLocale>
#include <QtTest>

using namespace bs;
using namespace bs::widgets;

namespace {

data::LlmRequest request(double arrivalS, double ttftS, double tpotS, int outputTokens)
{
    data::LlmRequest r;
    r.arrivalS = arrivalS;
    r.ttftS = ttftS;
    r.tpotS = tpotS;
    r.outputTokens = outputTokens;
    r.e2eS = ttftS + tpotS * (outputTokens - 1);
    for (int i = 1; i < outputTokens; ++i)
        r.itlS.push_back(tpotS);
    return r;
}

LlmRunsResult analysed(data::LlmRunSet set, analysis::LlmSla sla = {})
{
    LlmRunsResult result;
    result.analyses = analysis::analyzeLlmRuns(set, sla);
    result.set = std::make_shared<const data::LlmRunSet>(std::move(set));
    result.sla = sla;
    return result;
}

QString cell(const QList<LlmTableRow>& rows, const QString& label, int column)
{
    for (const auto& row : rows)
        if (row.cells.value(0) == label)
            return row.cells.value(column);
    return QStringLiteral("<no row %1>").arg(label);
}

} // namespace

class TestLlmRunCharts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void runLabelsNameToolDatasetRateConcurrencyAndLine();
    void concurrencyIsTheSweepAxisWhenNoRunHasARate();
    void cdfGoesLogarithmicOnlyWhenTheValuesSpanADecade();
    void runWhoseRequestsAllFailedSaysSo();
    void telemetryAndEngineSeriesFillTheEnergyAndInFlightRows();
};

void TestLlmRunCharts::runLabelsNameToolDatasetRateConcurrencyAndLine()
{
    data::LlmRun run;
    run.tool = "sglang";
    run.line = 7;
    run.knobs["dataset_name"] = "sharegpt";
    run.requestRatePerS = 8.0;
    QCOMPARE(llmRunLabel(run), QStringLiteral("sglang · sharegpt · 8 req/s · line 7"));
    data::LlmRun unlimited;
    unlimited.tool = "vllm";
    unlimited.line = 2;
    unlimited.knobs["request_rate"] = "inf";
    unlimited.maxConcurrency = 8.0;
    QCOMPARE(llmRunLabel(unlimited),
             QStringLiteral("vllm · unlimited rate · concurrency 8 · line 2"));
}

void TestLlmRunCharts::concurrencyIsTheSweepAxisWhenNoRunHasARate()
{
    data::LlmRunSet set;
    for (const double concurrency : {16.0, 4.0}) {
        data::LlmRun run;
        run.tool = "genai-perf";
        run.line = 1;
        run.maxConcurrency = concurrency;
        run.outputTokensPerS = concurrency * 100.0;
        set.runs.push_back(run);
    }
    data::LlmRun uncapped;
    uncapped.tool = "genai-perf";
    uncapped.line = 3;
    uncapped.outputTokensPerS = 5000.0;
    set.runs.push_back(uncapped);
    QCOMPARE(llmSweepAxis(set), LlmSweepAxis::Concurrency);
    const auto result = analysed(set);
    const ChartContent chart = llmSweepThroughputChart(result);
    QCOMPARE(chart.xTitle, QStringLiteral("Concurrency limit (requests)"));
    QCOMPARE(chart.series.size(), 1);
    // Sorted by x; the run without a limit is left out and named in the caption.
    QCOMPARE(chart.series[0].data.points, (QList<QPointF>{{4.0, 400.0}, {16.0, 1600.0}}));
    const QString caption = llmSweepCaption(result);
    QVERIFY(caption.contains(QStringLiteral("concurrency limit (no run names a request rate)")));
    QVERIFY(caption.contains(QStringLiteral("genai-perf · line 3 (no concurrency limit)")));
    // Neither p99 nor records: the p99 charts say why instead of drawing nothing silently.
    const ChartContent p99 = llmSweepP99Chart(result, LlmSweepLatency::Tpot);
    QVERIFY(p99.series.isEmpty());
    QVERIFY(p99.emptyText.contains(QStringLiteral("p99 TPOT")));

    data::LlmRunSet none;
    none.runs.push_back(uncapped);
    QCOMPARE(llmSweepAxis(none), LlmSweepAxis::None);
    QVERIFY(llmSweepThroughputChart(analysed(none)).series.isEmpty());
    QVERIFY(llmSweepCaption(analysed(none)).contains(QStringLiteral("No run names")));
}

void TestLlmRunCharts::cdfGoesLogarithmicOnlyWhenTheValuesSpanADecade()
{
    data::LlmRun narrow;
    narrow.tool = "vllm";
    // TTFT 100..130 ms, TPOT 20 ms, E2E 100 + 3 x 20 = 160..190 ms: 20..190 ms, under 10x.
    for (int i = 0; i < 4; ++i)
        narrow.requests.push_back(request(i, 0.100 + 0.01 * i, 0.020, 4));
    const auto narrowResult = analysed({{narrow}});
    const ChartContent linear =
        llmLatencyCdfChart(narrowResult.analyses[0], QStringLiteral("r"), {});
    QCOMPARE(linear.series.size(), 4);
    QVERIFY(!linear.logX);

    data::LlmRun wide = narrow;
    wide.requests.push_back(request(5, 2.0, 0.020, 4)); // a 2 s TTFT: 20 ms .. 2.06 s
    const auto wideResult = analysed({{wide}});
    QVERIFY(llmLatencyCdfChart(wideResult.analyses[0], QStringLiteral("r"), {}).logX);
}

void TestLlmRunCharts::runWhoseRequestsAllFailedSaysSo()
{
    data::LlmRun run;
    run.tool = "llmperf";
    for (int i = 0; i < 3; ++i) {
        auto r = request(i, 0.1, 0.01, 3);
        r.ok = false;
        r.error = "429";
        run.requests.push_back(r);
    }
    const auto result = analysed({{run}});
    const auto& a = result.analyses[0];
    const ChartContent cdf = llmLatencyCdfChart(a, QStringLiteral("r"), {});
    QVERIFY(cdf.series.isEmpty());
    QCOMPARE(cdf.emptyText, QStringLiteral("Every request of this run failed: no latency to draw"));
    const auto percentiles = llmPercentileRows(run, a);
    QCOMPARE(percentiles.size(), 12);
    QCOMPARE(cell(percentiles, QStringLiteral("TTFT p99"), 1),
             QStringLiteral("every request of this run failed"));
    QVERIFY(!percentiles[0].computedMs);
    const auto figures = llmFigureRows(run, a, {});
    QCOMPARE(cell(figures, QStringLiteral("Failed requests"), 1), QStringLiteral("3 (100 %)"));
}

void TestLlmRunCharts::telemetryAndEngineSeriesFillTheEnergyAndInFlightRows()
{
    data::LlmRun run;
    run.tool = "vllm_request_log";
    run.outputTokensPerS = 200.0;
    run.requestsPerS = 2.0;
    run.durationS = 2.0;
    // Two requests, each 1 s end to end, over a 1.5 s window: 2 / 1.5 = 1.333 in flight.
    run.requests.push_back(request(0.0, 0.1, 0.1, 10));
    run.requests.push_back(request(0.5, 0.1, 0.1, 10));
    data::LlmGpuTelemetry busy;
    busy.gpu = "0";
    busy.meanPowerW = 300.0;
    busy.meanUtilizationPct = 80.0;
    data::LlmGpuTelemetry idle;
    idle.gpu = "1";
    idle.meanPowerW = 60.0;
    idle.meanUtilizationPct = 0.0;
    run.gpus = {busy, idle};
    for (const int running : {1, 2})
        run.engineSeries.push_back({double(running), 0.0, 0.0, running, 0, 0.0});
    analysis::LlmSla sla;
    sla.tpotS = 0.05; // no request meets it
    const auto result = analysed({{run}}, sla);
    const auto figures = llmFigureRows(run, result.analyses[0], sla);

    // 300 W of the busy GPU over 200 tokens/s.
    QCOMPARE(cell(figures, QStringLiteral("Energy per output token"), 1),
             QLocale().toString(1.5) + QStringLiteral(" J/token"));
    QVERIFY(cell(figures, QStringLiteral("Energy per output token"), 2)
                .startsWith(QStringLiteral("mean power 300 W of GPU 0 ÷")));
    QCOMPARE(cell(figures, QStringLiteral("Energy per request"), 1),
             QLocale().toString(150) + QStringLiteral(" J/request"));
    QCOMPARE(cell(figures, QStringLiteral("Mean in flight (Little's law)"), 1),
             QLocale().toString(2.0 / 1.5, 'g', 4) + QStringLiteral(" requests"));
    // Engine: (1 + 2) / 2 = 1.5, 12.5 % above Little's law.
    QCOMPARE(cell(figures, QStringLiteral("Mean in flight (engine series)"), 1),
             QLocale().toString(1.5) + QStringLiteral(" requests (") + QLocale().toString(1.5) +
                 QStringLiteral(" running)"));
    QVERIFY(cell(figures, QStringLiteral("Mean in flight (engine series)"), 2)
                .endsWith(QStringLiteral("+%1 % against Little's law")
                              .arg(QLocale().toString(12.5, 'f', 1))));
    QCOMPARE(cell(figures, QStringLiteral("Goodput"), 1),
             QStringLiteral("0 req/s — 0 of 2 requests (0 %)"));
}

QTEST_MAIN(TestLlmRunCharts)
#include "tst_llmruncharts.moc"
