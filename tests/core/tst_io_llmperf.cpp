// Ray LLMPerf summary and individual-responses JSON -> data::LlmRunSet (issue 18).
//
// Figures on the real pair (../shared/data/llm/llmperf-leaderboard/raw_data/.../perplexity_70b
// .json) worked out with python3 from json.load(): the summary's results_ttft_s_quantiles_p99
// 0.6586804771299839, results_num_completed_requests 148, results_mean_output_throughput_
// token_per_s 126.05102586791163, num_concurrent_requests 5, results_number_errors 2. The
// individual file: 150 objects, 2 with error_code 429 (zeros in every latency); over the 148
// others numpy's 'linear' p99 of ttft_s, written out by hand, is 0.6586804771299839 - the
// summary's own figure, which it would not be with the two zeros in (0.6586500967099838).

#include "analysis/llmrunanalysis.h"
#include "iotesthelpers.h"
#include "testsupport.h"

using namespace bs;

namespace {

const QString kSummary =
    QStringLiteral("/llm/llmperf-leaderboard/raw_data/summary/perplexity_70b.json");
const QString kIndividual =
    QStringLiteral("/llm/llmperf-leaderboard/raw_data/individual/perplexity_70b.json");

Expected<data::Dataset> readShared(const QString& root, const QString& file)
{
    return io::readDataset(QString(root + file).toStdString());
}

} // namespace

class TestIoLlmPerf : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void summary();
    void individualResponsesDropFailures();
    void constructedIndividualResponses();
    void badInput_data();
    void badInput();
    void labelsOfTheWrongTypeAreNotFatal();
};

void TestIoLlmPerf::summary()
{
    BS_REQUIRE_SHARED_DATA(root);
    auto dataset = readShared(root, kSummary);
    BS_VERIFY_READ(dataset);
    QCOMPARE(dataset->provenance.reader, std::string("llmperf"));
    const auto& run = dataset->llmRuns()->runs.front();
    QCOMPARE(run.metrics.at("ttft").percentileS.at("99"), 0.6586804771299839);
    QCOMPARE(*run.completed, std::int64_t(148));
    QCOMPARE(*run.outputTokensPerS, 126.05102586791163);
    QCOMPARE(*run.maxConcurrency, 5.0);
    QCOMPARE(run.model, std::string("llama-2-70b-chat"));
    QCOMPARE(test::warningLines(*dataset),
             QStringList{QStringLiteral("0: 2 requests failed (error codes {429.0: 2}); LLMPerf's "
                                        "statistics leave them out")});
}

void TestIoLlmPerf::individualResponsesDropFailures()
{
    BS_REQUIRE_SHARED_DATA(root);
    auto dataset = readShared(root, kIndividual);
    BS_VERIFY_READ(dataset);
    const auto& run = dataset->llmRuns()->runs.front();
    QCOMPARE(run.requests.size(), std::size_t(150));
    QCOMPARE(*run.completed, std::int64_t(148));
    const auto a = analysis::analyzeLlmRuns(*dataset->llmRuns()).front();
    QCOMPARE(a.failed, std::uint64_t(2));
    QCOMPARE(a.ttft.count, std::uint64_t(148));
    QVERIFY(std::fabs(a.ttft.percentiles[3].value - 0.6586804771299839) < 1e-12);
    QVERIFY(test::warningLines(*dataset).join(u'\n').contains(
        QStringLiteral("2 of 150 requests failed (error codes 429: 2)")));
}

// Three requests, the middle one failed (429, zeros): TTFT 0.3 and 0.5 s only; the failed one
// keeps its token counts and its message but no latency.
void TestIoLlmPerf::constructedIndividualResponses()
{
    auto dataset = test::readFixture(QStringLiteral("llm/llmperf_individual_small.json"));
    BS_VERIFY_READ(dataset);
    const auto& run = dataset->llmRuns()->runs.front();
    QCOMPARE(run.requests.size(), std::size_t(3));
    QVERIFY(!run.requests[1].ok);
    QCOMPARE(run.requests[1].error, std::string("rate limited"));
    QVERIFY(!run.requests[1].ttftS);
    QCOMPARE(*run.requests[2].tpotS, 0.04);
    QCOMPARE(*run.requests[2].e2eS, 4.5);
    const auto a = analysis::analyzeLlmRuns(*dataset->llmRuns()).front();
    QCOMPARE(a.ttft.count, std::uint64_t(2));
    QCOMPARE(a.ttft.percentiles[0].value, 0.4); // the median of 0.3 and 0.5
}

void TestIoLlmPerf::badInput_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::newRow("negative TTFT")
        << "llmperf_negative_ttft.json"
        << "0:0: \"request 1.ttft_s\" holds -0.3, not a non-negative finite number";
    QTest::newRow("p99 not a number")
        << "llmperf_summary_bad_p99.json"
        << "0:0: \"results_ttft_s_quantiles_p99\" holds \"fast\", not a non-negative finite number";
    QTest::newRow("not LLMPerf") << "aiperf_small.json"
                                 << "0:0: not an LLMPerf summary (no \"results_ttft_s_mean\" or "
                                    "\"results_num_completed_requests\") or individual-responses "
                                    "file (an array of objects with \"ttft_s\" and \"error_code\")";
}

void TestIoLlmPerf::badInput()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    auto dataset = test::readFixtureAs(QStringLiteral("llm/") + file, "llmperf");
    QVERIFY(!dataset);
    QCOMPARE(test::whereAndWhy(dataset.error()), expected);
}

void TestIoLlmPerf::labelsOfTheWrongTypeAreNotFatal()
{
    // Found by fuzz_llmperf: a number where the model name belongs threw out of the reader.
    const std::string text = R"({
    "model":  2,
    "results_ttft_s_quantiles_p99": "fast",
    "results_num_completed_requests": 3
})";
    io::ReadOptions options;
    options.format = "llmperf";
    auto dataset = io::readDatasetFromBytes(text, "summary.json", options);
    // The reader gets past the numeric model name and reports the real problem.
    QVERIFY(!dataset);
    QVERIFY2(dataset.error().toString().find("results_ttft_s_quantiles_p99") != std::string::npos,
             dataset.error().toString().c_str());
}

QTEST_APPLESS_MAIN(TestIoLlmPerf)
#include "tst_io_llmperf.moc"
