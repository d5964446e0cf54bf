// GenAI-Perf / AIPerf profile export CSV -> data::LlmRunSet (issue 18, item 3).
//
// tests/data/llm/aiperf_small.csv is aiperf_small.json written in AIPerf's CSV layout (three
// blocks: statistics, "Metric,Value", GPU telemetry; docs/tutorials/working-with-profile-
// exports.md), so the CSV must give the JSON's run: TTFT p99 120 ms, 2 req/s, 100 tok/s, 10
// requests, 5 s, the busy GPU's energy counter rise (10.0015 - 10.0) MJ = 1500 J. It has no
// input_config, so no model and no concurrency. genaiperf_small.csv is in GenAI-Perf's older
// layout (p99 first, "(per sec)" throughputs, thousands separators): TTFT p99 "4,119.33" ms
// -> 4.11933 s, output "1,274.63" tok/s, 200 requests.

#include "iotesthelpers.h"

using namespace bs;

class TestIoGenAiPerfCsv : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sameRunAsTheJson();
    void genAiPerfLayout();
    void badInput_data();
    void badInput();
    void secondExportInOneFile();
};

void TestIoGenAiPerfCsv::sameRunAsTheJson()
{
    auto csv = test::readFixture(QStringLiteral("llm/aiperf_small.csv"));
    auto json = test::readFixture(QStringLiteral("llm/aiperf_small.json"));
    BS_VERIFY_READ(csv);
    BS_VERIFY_READ(json);
    QCOMPARE(csv->provenance.reader, std::string("genai_perf_csv"));
    QCOMPARE(csv->provenance.detectedBecause,
             std::string("CSV header starts with \"Metric,avg\" (GenAI-Perf or AIPerf profile "
                         "export CSV)"));
    const auto& c = csv->llmRuns()->runs.front();
    const auto& j = json->llmRuns()->runs.front();
    QCOMPARE(c.tool, std::string("aiperf"));
    QCOMPARE(c.tool, j.tool);
    QCOMPARE(c.metrics.at("ttft").percentileS.at("99"), 0.12);
    for (const auto& [name, metric] : j.metrics) {
        QVERIFY2(c.metrics.count(name), name.c_str());
        QCOMPARE(c.metrics.at(name).percentileS, metric.percentileS);
        QCOMPARE(c.metrics.at(name).meanS, metric.meanS);
        QCOMPARE(c.metrics.at(name).definition, metric.definition);
    }
    QCOMPARE(*c.requestsPerS, 2.0);
    QCOMPARE(c.requestsPerS, j.requestsPerS);
    QCOMPARE(c.outputTokensPerS, j.outputTokensPerS);
    QCOMPARE(c.durationS, j.durationS);
    QCOMPARE(*c.completed, std::int64_t(10));
    QCOMPARE(c.promptTokensTotal, j.promptTokensTotal);
    QCOMPARE(c.outputTokensTotal, j.outputTokensTotal);
    QCOMPARE(c.gpus.size(), std::size_t(2));
    QCOMPARE(c.gpus.size(), j.gpus.size());
    QVERIFY(std::fabs(*c.gpus[0].energyCounterRiseJ - 1500.0) < 1e-6);
    QCOMPARE(c.gpus[0].meanPowerW, j.gpus[0].meanPowerW);
    QCOMPARE(c.gpus[0].maxTemperatureC, j.gpus[0].maxTemperatureC);
    QCOMPARE(c.gpus[1].meanUtilizationPct, j.gpus[1].meanUtilizationPct);
    QVERIFY(c.model.empty());
    QVERIFY(!c.maxConcurrency);
    QCOMPARE(test::warningLines(*csv), test::warningLines(*json)); // 2 failed requests
}

void TestIoGenAiPerfCsv::genAiPerfLayout()
{
    auto dataset = test::readFixture(QStringLiteral("llm/genaiperf_small.csv"));
    BS_VERIFY_READ(dataset);
    const auto& run = dataset->llmRuns()->runs.front();
    QCOMPARE(run.tool, std::string("genai-perf"));
    QVERIFY(std::fabs(run.metrics.at("ttft").percentileS.at("99") - 4.11933) < 1e-12);
    QVERIFY(std::fabs(*run.metrics.at("ttft").medianS - 0.78754) < 1e-12);
    QVERIFY(std::fabs(*run.metrics.at("e2e").maxS - 9.38337) < 1e-12);
    QCOMPARE(*run.outputTokensPerS, 1274.63);
    QCOMPARE(*run.requestsPerS, 13.16);
    QCOMPARE(*run.completed, std::int64_t(200));
    QCOMPARE(run.knobs.at("input_sequence_length.avg"), std::string("550 tokens"));
}

void TestIoGenAiPerfCsv::badInput_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::newRow("word in a cell")
        << "genaiperf_csv_bad_cell.csv"
        << "3:44: \"inter_token_latency.p99\" holds \"fast\", not a finite number";
    QTest::newRow("negative p99") << "genaiperf_csv_negative_p99.csv"
                                  << "2:0: \"time_to_first_token.p99\" holds -4119.33, not a "
                                     "non-negative finite number";
}

void TestIoGenAiPerfCsv::badInput()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    auto dataset = test::readFixture(QStringLiteral("llm/") + file);
    QVERIFY(!dataset);
    QCOMPARE(test::whereAndWhy(dataset.error()), expected);
}

void TestIoGenAiPerfCsv::secondExportInOneFile()
{
    const std::string text = "Metric,Value\nRequest Throughput (requests/sec),2\n\n"
                             "Metric,Value\nRequest Throughput (requests/sec),3\n";
    auto dataset = io::readDatasetFromBytes(text, "two.csv");
    QVERIFY(!dataset);
    QCOMPARE(test::whereAndWhy(dataset.error()),
             QStringLiteral("5:0: \"request_throughput\" appears again (first on line 2); the "
                            "file holds more than one export"));
}

QTEST_APPLESS_MAIN(TestIoGenAiPerfCsv)
#include "tst_io_genaiperfcsv.moc"
