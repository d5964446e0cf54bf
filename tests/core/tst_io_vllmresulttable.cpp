// vLLM's benchmark CI result table (benchmark_results.json) -> data::LlmRunSet. The fixture
// tests/data/llm/vllm_result_table.json has three serving tests (1 req/s; unlimited; unlimited
// capped at 8 concurrent requests, with "Successful req." and E2EL columns as newer tables
// have) and a latency test; the real table in the shared data (vLLM serving Llama-3.3-70B on
// 8x A100 40 GB, llm/llm-k8s) must agree with the full result of its own 4 req/s run.
#include "analysis/llmrunanalysis.h"
#include "io/llmrunsummary.h"
#include "iotesthelpers.h"

#include <cmath>

using namespace bs;

namespace {

const char* kSharedTable =
    "/llm/llm-k8s/results_serving_meta-llama-Llama-3.3-70B-Instruct/01_tp8_pp1/"
    "benchmark_results.json";
const char* kSharedRun = "/llm/llm-k8s/results_serving_meta-llama-Llama-3.3-70B-Instruct/"
                         "01_tp8_pp1/serving_meta-llama-Llama-3.3-70B-Instruct_tp8_pp1_sharegpt_"
                         "qps_04.json";

bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b));
}

} // namespace

class TestIoVllmResultTable : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void servingTestsBecomeRuns();
    void rateAndCapComeFromTheTestName();
    void detectedWithReason();
    void sharedTableAgreesWithItsOwnRun();
};

void TestIoVllmResultTable::servingTestsBecomeRuns()
{
    auto dataset = test::readFixture(QStringLiteral("llm/vllm_result_table.json"));
    BS_VERIFY_READ(dataset);
    QCOMPARE(dataset->provenance.reader, std::string("vllm_result_table"));
    const auto& runs = dataset->llmRuns()->runs;
    QCOMPARE(runs.size(), std::size_t(3));
    const auto& first = runs.front();
    QCOMPARE(first.tool, std::string("vllm"));
    QCOMPARE(*first.completed, std::int64_t(200));
    QCOMPARE(*first.requestsPerS, 0.98);
    QCOMPARE(*first.outputTokensPerS, 196.0);
    QCOMPARE(*first.totalTokensPerS, 441.0);
    QCOMPARE(*first.promptTokensPerS, 245.0); // total - output
    QVERIFY(!first.durationS && !first.promptTokensTotal && !first.outputTokensTotal);
    const auto& ttft = first.metrics.at("ttft");
    QVERIFY(near(*ttft.meanS, 0.030));
    QVERIFY(near(*ttft.medianS, 0.028));
    QVERIFY(near(ttft.percentileS.at("99"), 0.060));
    QVERIFY(near(first.metrics.at("itl").percentileS.at("99"), 0.020));
    QVERIFY(near(*first.metrics.at("tpot").medianS, 0.0075));
    QVERIFY(first.metrics.at("itl").definition.find("pooled") != std::string::npos);
    QCOMPARE(first.knobs.at("test_name"), std::string("serving_llama8B_tp1_sharegpt_qps_1"));
    QCOMPARE(first.knobs.at("gpu_type"), std::string("H100 x 1"));
    // Latency statistics are metrics, not knobs as well.
    QVERIFY(!first.knobs.count("P99 TTFT (ms)"));
    const auto& capped = runs.back();
    QCOMPARE(*capped.completed, std::int64_t(199)); // "Successful req."
    QVERIFY(near(*capped.metrics.at("e2e").medianS, 1.9));
    QVERIFY(near(capped.metrics.at("e2e").percentileS.at("99"), 4.1));
    QCOMPARE(capped.knobs.at("Max Concurrency"), std::string("8"));
    QCOMPARE(test::warningLines(*dataset),
             QStringList{QStringLiteral("0: 1 of 4 rows are latency or throughput tests (no "
                                        "\"Tput (req/s)\"), not serving runs: skipped")});
}

void TestIoVllmResultTable::rateAndCapComeFromTheTestName()
{
    auto dataset = test::readFixture(QStringLiteral("llm/vllm_result_table.json"));
    BS_VERIFY_READ(dataset);
    const auto& runs = dataset->llmRuns()->runs;
    QCOMPARE(*runs[0].requestRatePerS, 1.0);
    QVERIFY(!runs[0].maxConcurrency);
    QVERIFY(!runs[1].requestRatePerS); // "qps_inf": unlimited, as benchmark_serving.py says it
    QCOMPARE(runs[1].knobs.at("request_rate"), std::string("inf"));
    QVERIFY(!runs[2].requestRatePerS);
    QCOMPARE(*runs[2].maxConcurrency, 8.0);
    const auto summary = io::llmRunSetSummary(*dataset->llmRuns());
    QCOMPARE(summary["runs"][0]["request_rate_per_s"].get<double>(), 1.0);
    // Every run sits on line 1: the analysis names each by its test.
    const auto analysed = analysis::toJson(analysis::analyzeLlmRuns(*dataset->llmRuns()), {});
    QCOMPARE(analysed["runs"][2]["test_name"].get<std::string>(),
             std::string("serving_llama8B_tp1_sharegpt_qps_inf_concurrency_8"));
}

void TestIoVllmResultTable::detectedWithReason()
{
    auto dataset = test::readFixture(QStringLiteral("llm/vllm_result_table.json"));
    BS_VERIFY_READ(dataset);
    QCOMPARE(dataset->provenance.detectedBecause,
             std::string("JSON array of objects with \"Test name\" and \"Tput (req/s)\" (vLLM "
                         "benchmark CI result table)"));
}

void TestIoVllmResultTable::sharedTableAgreesWithItsOwnRun()
{
    BS_REQUIRE_SHARED_FILE(tablePath, QString::fromLatin1(kSharedTable));
    BS_REQUIRE_SHARED_FILE(runPath, QString::fromLatin1(kSharedRun));
    auto table = io::readDataset(tablePath.toStdString());
    BS_VERIFY_READ(table);
    QCOMPARE(table->provenance.reader, std::string("vllm_result_table"));
    auto full = io::readDataset(runPath.toStdString());
    BS_VERIFY_READ(full);
    QCOMPARE(full->provenance.reader, std::string("llm_benchmark"));
    const auto& rows = table->llmRuns()->runs;
    QCOMPARE(rows.size(), std::size_t(4));
    QCOMPARE(*rows[0].requestRatePerS, 1.0);
    QCOMPARE(*rows[2].requestRatePerS, 16.0);
    QVERIFY(!rows[3].requestRatePerS); // qps_inf
    QCOMPARE(rows[0].knobs.at("gpu_type"), std::string("1xStandard_ND96asr_v4 x 1"));

    const auto& row = rows[1];
    const auto& run = full->llmRuns()->runs.front();
    QCOMPARE(*row.requestRatePerS, *run.requestRatePerS);
    QCOMPARE(*row.completed, *run.completed);
    QCOMPARE(*row.requestsPerS, *run.requestsPerS);
    QCOMPARE(*row.outputTokensPerS, *run.outputTokensPerS);
    QCOMPARE(*row.totalTokensPerS, *run.totalTokensPerS);
    for (const char* metric : {"ttft", "tpot", "itl"}) {
        const auto& a = row.metrics.at(metric);
        const auto& b = run.metrics.at(metric);
        QVERIFY2(near(*a.meanS, *b.meanS), metric);
        QVERIFY2(near(*a.medianS, *b.medianS), metric);
        QVERIFY2(near(a.percentileS.at("99"), b.percentileS.at("99")), metric);
    }
    // The table keeps rates only; the mean lengths they give are the run's totals per request.
    QVERIFY(std::abs(*row.promptTokensPerS / *row.requestsPerS -
                     double(*run.promptTokensTotal) / double(*run.completed)) < 1e-6);
}

QTEST_APPLESS_MAIN(TestIoVllmResultTable)
#include "tst_io_vllmresulttable.moc"
