// NVIDIA GenAI-Perf and AIPerf profile exports -> data::LlmRunSet, with GPU telemetry and the
// energy per output token worked out from it (issue 18).
//
// Figures on the real files (../shared/data/llm/k8s-dev/bench/...) were worked out with python3
// from json.load(): GenAI-Perf: request_count 35, time_to_first_token.p99 2342.05304546 ms,
// output_token_throughput 12.095750218698175 tokens/s; GPU "3" is the only one with
// gpu_utilization above 0; its gpu_power_usage.avg 196.18470231213874 W / 12.095750218698175
// = 16.219308332679297 J per output token; its energy counter rose (878.3300806670001 -
// 878.279657229) MJ = 50423.438 J. AIPerf: request_count 100, time_to_first_token.p99
// 99.64934874 ms, benchmark_duration 519.597973721 s, total_osl 28348 (reasoning + visible:
// 54.5576 tokens/s x 519.598 s), serving GPU gpu_0 at 94.61787741935483 W / 54.55756456668085
// tokens/s = 1.7342760471595433 J per output token.

#include "analysis/llmrunanalysis.h"
#include "iotesthelpers.h"
#include "testsupport.h"

using namespace bs;

namespace {

const QString kGenAiPerf = QStringLiteral("/llm/k8s-dev/bench/etl/profile_export_genai_perf.json");
const QString kAiPerf = QStringLiteral("/llm/k8s-dev/bench/aiperf/profile_export_aiperf.json");

Expected<data::Dataset> readShared(const QString& root, const QString& file)
{
    return io::readDataset(QString(root + file).toStdString());
}

bool near(double actual, double expected, double relative = 1e-12)
{
    return std::fabs(actual - expected) <= relative * std::fabs(expected);
}

} // namespace

class TestIoGenAiPerf : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void genAiPerfExport();
    void aiPerfExport();
    void constructedAiPerfExport();
    void badInput_data();
    void badInput();
};

void TestIoGenAiPerf::genAiPerfExport()
{
    BS_REQUIRE_SHARED_DATA(root);
    auto dataset = readShared(root, kGenAiPerf);
    BS_VERIFY_READ(dataset);
    QCOMPARE(dataset->provenance.reader, std::string("genai_perf"));
    const auto& run = dataset->llmRuns()->runs.front();
    QCOMPARE(run.tool, std::string("genai-perf"));
    QCOMPARE(*run.completed, std::int64_t(35));
    QVERIFY(near(run.metrics.at("ttft").percentileS.at("99"), 2.34205304546));
    QCOMPARE(*run.outputTokensPerS, 12.095750218698175);
    QCOMPARE(*run.maxConcurrency, 1.0);
    QCOMPARE(run.model, std::string("openai/gpt-oss-20b"));
    QCOMPARE(run.gpus.size(), std::size_t(8));
    QCOMPARE(run.gpus[3].gpu, std::string("3"));
    QVERIFY(near(*run.gpus[3].energyCounterRiseJ, 50423.438, 1e-6));
    const auto a = analysis::analyzeLlmRuns(*dataset->llmRuns()).front();
    QVERIFY(a.energy);
    QCOMPARE(a.energy->servingGpus, std::vector<std::string>{"3"});
    QVERIFY(near(*a.energy->perOutputTokenJ, 16.219308332679297));
}

void TestIoGenAiPerf::aiPerfExport()
{
    BS_REQUIRE_SHARED_DATA(root);
    auto dataset = readShared(root, kAiPerf);
    BS_VERIFY_READ(dataset);
    const auto& run = dataset->llmRuns()->runs.front();
    QCOMPARE(run.tool, std::string("aiperf"));
    QCOMPARE(*run.completed, std::int64_t(100));
    QVERIFY(near(run.metrics.at("ttft").percentileS.at("99"), 0.09964934874));
    QCOMPARE(*run.durationS, 519.597973721);
    QCOMPARE(*run.outputTokensTotal, std::int64_t(28348));
    QCOMPARE(run.gpus.front().name, std::string("NVIDIA A100-SXM4-80GB"));
    QVERIFY(run.metrics.count("itl")); // inter_chunk_latency
    QVERIFY(run.metrics.at("tpot").definition.find("inter_token_latency") != std::string::npos);
    const auto a = analysis::analyzeLlmRuns(*dataset->llmRuns()).front();
    QCOMPARE(a.energy->servingGpus, std::vector<std::string>{"gpu_0"});
    QVERIFY(near(*a.energy->perOutputTokenJ, 1.7342760471595433));
    QVERIFY(near(a.reportedP99S.at("ttft"), 0.09964934874));
}

// aiperf_small.json: gpu_0 at 250 W and 80% busy, gpu_1 idle (0%): 250 W / 100 tokens/s =
// 2.5 J per output token, 250 W / 2 req/s = 125 J per request; the counter rose 0.0015 MJ.
void TestIoGenAiPerf::constructedAiPerfExport()
{
    auto dataset = test::readFixture(QStringLiteral("llm/aiperf_small.json"));
    BS_VERIFY_READ(dataset);
    const auto& run = dataset->llmRuns()->runs.front();
    QCOMPARE(run.tool, std::string("aiperf"));
    QCOMPARE(*run.metrics.at("ttft").medianS, 0.04);
    QCOMPARE(*run.metrics.at("e2e").minS, 0.3);
    QCOMPARE(*run.metrics.at("tpot").meanS, 0.01);
    QCOMPARE(*run.maxConcurrency, 4.0);
    QCOMPARE(*run.promptTokensTotal, std::int64_t(1000));
    QVERIFY(near(*run.gpus[0].energyCounterRiseJ, 1500.0, 1e-9));
    QCOMPARE(*run.gpus[0].maxTemperatureC, 61.0);
    QCOMPARE(*run.gpus[0].meanSmClockMhz, 1400.0);
    for (const auto& [key, value] : run.knobs) // no API key, no command line that holds one
        QVERIFY2(value.find("secret") == std::string::npos, key.c_str());
    QCOMPARE(test::warningLines(*dataset),
             QStringList{
                 QStringLiteral("0: 2 requests failed; the tool left them out of its statistics")});
    const auto a = analysis::analyzeLlmRuns(*dataset->llmRuns()).front();
    QCOMPARE(a.energy->servingGpus, std::vector<std::string>{"gpu_0"});
    QCOMPARE(*a.energy->perOutputTokenJ, 2.5);
    QCOMPARE(*a.energy->perRequestJ, 125.0);
}

void TestIoGenAiPerf::badInput_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::newRow("power in an unknown unit")
        << "genaiperf_bad_power_unit.json"
        << "0:0: \"telemetry_stats.gpu_power_usage.0.unit\" is \"kWh\", a unit the reader does "
           "not know for gpu_power_usage";
    QTest::newRow("negative p99")
        << "genaiperf_negative_p99.json"
        << "0:0: \"time_to_first_token.p99\" holds -3.0, not a non-negative finite number";
    QTest::newRow("latency not in a time unit")
        << "genaiperf_latency_in_tokens.json"
        << "0:0: \"time_to_first_token.unit\" is \"tokens\", not a time unit (ms, sec, us, ns)";
    QTest::newRow("syntax error")
        << "genaiperf_syntax_error.json"
        << "3:44: JSON syntax error: syntax error while parsing object - unexpected string "
           "literal; expected '}'";
}

void TestIoGenAiPerf::badInput()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    auto dataset = test::readFixtureAs(QStringLiteral("llm/") + file, "genai_perf");
    QVERIFY(!dataset);
    QCOMPARE(test::whereAndWhy(dataset.error()), expected);
}

QTEST_APPLESS_MAIN(TestIoGenAiPerf)
#include "tst_io_genaiperf.moc"
