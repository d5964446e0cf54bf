// TensorRT-LLM trtllm-bench --report_json -> data::LlmRunSet (issue 18, item 1).
//
// No public report exists: tests/data/llm/trtllm_bench_report.json is built from the schema of
// TensorRT-LLM's tensorrt_llm/bench/dataclasses/reporting.py (get_statistics_dict) and
// statistics.py (PercentileStats.from_iterable: sorted[int(n * q)]), for four requests
// (start, first token, end in ms; input, output tokens): (0, 120, 1120, 100, 51),
// (50, 200, 1700, 200, 101), (100, 400, 1400, 150, 41), (150, 250, 2150, 50, 81).
// Worked out with python3: total latency 2150 ms; 4 / 2.15 s = 1.8604651162790697 req/s;
// output 274 tokens / 2.15 s = 127.44186046511628 tok/s; (274 + 500) / 2.15 = 360 tok/s, so
// prompt tokens 360 - 127.44 = 232.55813953488372 tok/s; TTFT 120, 150, 300, 100 ms: p50 =
// sorted[2] = 150 ms, p99 = sorted[3] = 300 ms, mean 167.5 ms; TPOT (end - first) / (out - 1)
// = 20, 15, 25, 23.75 ms: p50 23.75 ms; E2E 1120, 1650, 1300, 2000 ms: p99 2000 ms.

#include "analysis/llmrunanalysis.h"
#include "io/llmrunsummary.h"
#include "iotesthelpers.h"

using namespace bs;

class TestIoTrtllmBench : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void report();
    void detectedWithReason();
    void analyzeUsesTheReportedPercentiles();
    void badInput_data();
    void badInput();
    void notAnObject();
};

void TestIoTrtllmBench::report()
{
    auto dataset = test::readFixture(QStringLiteral("llm/trtllm_bench_report.json"));
    BS_VERIFY_READ(dataset);
    QCOMPARE(dataset->provenance.reader, std::string("trtllm_bench"));
    const auto& run = dataset->llmRuns()->runs.front();
    QCOMPARE(run.tool, std::string("trtllm-bench"));
    QCOMPARE(run.model, std::string("meta-llama/Llama-3.1-8B"));
    QCOMPARE(run.backend, std::string("Pytorch"));
    QCOMPARE(*run.completed, std::int64_t(4));
    QCOMPARE(*run.durationS, 2.15);
    QCOMPARE(*run.requestsPerS, 1.8604651162790697);
    QCOMPARE(*run.outputTokensPerS, 127.44186046511628);
    QCOMPARE(*run.totalTokensPerS, 360.0);
    QVERIFY(std::fabs(*run.promptTokensPerS - 232.55813953488372) < 1e-9);
    const auto& ttft = run.metrics.at("ttft");
    QCOMPARE(ttft.percentileS.at("99"), 0.3);
    QCOMPARE(*ttft.medianS, 0.15);
    QCOMPARE(*ttft.meanS, 0.1675);
    QCOMPARE(*ttft.minS, 0.1);
    QCOMPARE(run.metrics.at("tpot").percentileS.at("50"), 0.02375);
    QCOMPARE(run.metrics.at("e2e").percentileS.at("99"), 2.0);
    QVERIFY(run.metrics.at("tpot").definition.find("first token excluded") != std::string::npos);
    QCOMPARE(run.knobs.at("world_info.max_batch_size"), std::string("64"));
    QCOMPARE(run.knobs.at("world_info.max_num_tokens"), std::string("2048"));
    QCOMPARE(run.knobs.at("world_info.scheduling_policy"), std::string("GUARANTEED_NO_EVICT"));
    QCOMPARE(run.knobs.at("world_info.kv_cache_percentage"), std::string("0.9"));
    QCOMPARE(run.knobs.at("machine.name"), std::string("NVIDIA H100 80GB HBM3"));
    QCOMPARE(run.knobs.at("dataset.isl_stats.maximum"), std::string("200"));
    QCOMPARE(run.knobs.at("streaming_metrics.gen_tps_percentiles.p50"), std::string("50.0"));
    // Latency percentiles are metrics in seconds, not knobs in ms as well.
    QVERIFY(!run.knobs.count("streaming_metrics.ttft_percentiles.p99"));
}

void TestIoTrtllmBench::detectedWithReason()
{
    auto dataset = test::readFixture(QStringLiteral("llm/trtllm_bench_report.json"));
    BS_VERIFY_READ(dataset);
    QCOMPARE(dataset->provenance.detectedBecause,
             std::string("JSON object with \"world_info\" and \"performance\" sections "
                         "(TensorRT-LLM trtllm-bench report)"));
    const auto summary = io::llmRunSetSummary(*dataset->llmRuns());
    QCOMPARE(summary["runs"][0]["metrics"]["ttft"]["p99_s"].get<double>(), 0.3);
    QCOMPARE(summary["runs"][0]["knobs"]["world_info.max_batch_size"].get<std::string>(),
             std::string("64"));
}

// Without per-request records the analysis has the tool's p99s only: 300 ms TTFT, 25 ms TPOT.
void TestIoTrtllmBench::analyzeUsesTheReportedPercentiles()
{
    auto dataset = test::readFixture(QStringLiteral("llm/trtllm_bench_report.json"));
    BS_VERIFY_READ(dataset);
    const auto a = analysis::analyzeLlmRuns(*dataset->llmRuns()).front();
    QCOMPARE(a.ttft.count, std::uint64_t(0));
    QCOMPARE(a.reportedP99S.at("ttft"), 0.3);
    QCOMPARE(a.reportedP99S.at("tpot"), 0.025);
    QCOMPARE(*a.outputTokensPerS, 127.44186046511628);
}

void TestIoTrtllmBench::badInput_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::newRow("fractional batch size")
        << "trtllm_bench_bad_batch.json"
        << "0:0: \"world_info.max_batch_size\" holds 2.5, not a whole positive number";
    QTest::newRow("negative TTFT p99")
        << "trtllm_bench_negative_ttft.json"
        << "0:0: \"streaming_metrics.ttft_percentiles.p99\" holds -300, not a non-negative "
           "finite number";
    QTest::newRow("not a report") << "aiperf_small.json"
                                  << "0:0: not a trtllm-bench report: no \"world_info\" section";
}

void TestIoTrtllmBench::badInput()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    auto dataset = test::readFixtureAs(QStringLiteral("llm/") + file, "trtllm_bench");
    QVERIFY(!dataset);
    QCOMPARE(test::whereAndWhy(dataset.error()), expected);
}

void TestIoTrtllmBench::notAnObject()
{
    const std::string text = R"({"world_info": [1, 2], "performance": {}})";
    io::ReadOptions options;
    options.format = "trtllm_bench";
    auto dataset = io::readDatasetFromBytes(text, "report.json", options);
    QVERIFY(!dataset);
    QCOMPARE(test::whereAndWhy(dataset.error()),
             QStringLiteral("0:0: \"world_info\" holds [1,2], not an object"));
}

QTEST_APPLESS_MAIN(TestIoTrtllmBench)
#include "tst_io_trtllmbench.moc"
