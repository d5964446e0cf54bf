// Serving engine request logs and engine state series (LLMServingSim requests.jsonl and
// timeseries.csv) -> data::LlmRunSet, and the Little's law cross-check (issue 18).
//
// Figures on the real run (../shared/data/llm/llmservingsim/...) were worked out independently
// with python3 (json/csv modules, numpy's 'linear' percentile written out by hand):
// 300 lines; TTFT = first_token_ts - queued_ts, p99 137.35629556203884 s (the origin's own
// validation/summary.txt says 137356.3 ms); TPOT p99 0.05600391667863733 s (summary: 56.0 ms);
// 195,753 output tokens over first queued -> last token = 183.56745551199856 s, so
// 1066.381834699479 tokens/s; sum(E2E) / window = 141.4928155981181 requests in flight; the
// engine series' mean running + waiting over its 184 samples = 141.08152173913044.

#include "analysis/llmrunanalysis.h"
#include "iotesthelpers.h"
#include "testsupport.h"

using namespace bs;

namespace {

const QString kRun = QStringLiteral("/llm/llmservingsim/bench/examples/RTX4090/Llama-3.1-8B/vllm/");

Expected<data::Dataset> readShared(const QString& root, const char* name)
{
    return io::readDataset(QString(root + kRun + QLatin1String(name)).toStdString());
}

const data::LlmRun& onlyRun(const data::Dataset& dataset)
{
    return dataset.llmRuns()->runs.front();
}

} // namespace

class TestIoLlmRequestLog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realRunWithSiblings();
    void realEngineSeriesAlone();
    void fixtureFigures();
    void siblingsCanBeLeftOut();
    void goodputUnderSla();
    void badInput_data();
    void badInput();
};

void TestIoLlmRequestLog::realRunWithSiblings()
{
    BS_REQUIRE_SHARED_DATA(root);
    auto dataset = readShared(root, "requests.jsonl");
    BS_VERIFY_READ(dataset);
    QCOMPARE(dataset->provenance.reader, std::string("llm_request_log"));
    const auto& run = onlyRun(*dataset);
    QCOMPARE(run.requests.size(), std::size_t(300));
    QCOMPARE(run.engineSeries.size(), std::size_t(184));
    QCOMPARE(run.knobs.at("engine.max_num_batched_tokens"), std::string("2048"));
    QCOMPARE(run.knobs.at("kv_cache.num_kv_tokens"), std::string("41408"));
    QCOMPARE(*run.outputTokensTotal, std::int64_t(195753));
    QVERIFY(std::fabs(*run.outputTokensPerS - 1066.381834699479) < 1e-9);
    const auto a = analysis::analyzeLlmRuns(*dataset->llmRuns()).front();
    QCOMPARE(a.ttft.count, std::uint64_t(300));
    QVERIFY(std::fabs(a.ttft.percentiles[3].value - 137.35629556203884) < 1e-9); // p99
    QVERIFY(std::fabs(a.tpot.percentiles[3].value - 0.05600391667863733) < 1e-12);
    QVERIFY(std::fabs(*a.inFlight.fromRequests - 141.4928155981181) < 1e-9);
    QVERIFY(std::fabs(*a.inFlight.fromEngineSeries - 141.08152173913044) < 1e-9);
    // Two independent measurements of one quantity: they agree to 0.3%.
    QVERIFY(std::fabs(*a.inFlight.relativeDifference) < 0.005);
}

void TestIoLlmRequestLog::realEngineSeriesAlone()
{
    BS_REQUIRE_SHARED_DATA(root);
    auto dataset = readShared(root, "timeseries.csv");
    BS_VERIFY_READ(dataset);
    QCOMPARE(dataset->provenance.reader, std::string("llm_engine_series"));
    const auto& series = onlyRun(*dataset).engineSeries;
    QCOMPARE(series.size(), std::size_t(184));
    QCOMPARE(series.back().timeS, 184.0);
    int maxRunning = 0, maxWaiting = 0;
    for (const auto& s : series) {
        maxRunning = std::max(maxRunning, int(s.running));
        maxWaiting = std::max(maxWaiting, int(s.waiting));
    }
    // The README's "at most 49 requests ran at once and up to 234 waited".
    QCOMPARE(maxRunning, 49);
    QCOMPARE(maxWaiting, 234);
}

// Fixture: queued at 100, 101, 102; first tokens 101, 102, 104; last 103, 102, 105; 5, 1, 3
// output tokens. TTFT 1, 1, 2 s; E2E 3, 1, 3 s; TPOT 2/4 = 0.5, none, 1/2 = 0.5 s; window
// 100 -> 105 = 5 s, sum(E2E) = 7 s, so 1.4 in flight; the series' running + waiting 1, 2, 1,
// 2, 1 also average 1.4.
void TestIoLlmRequestLog::fixtureFigures()
{
    auto dataset = test::readFixture(QStringLiteral("llm/servinglog/requests.jsonl"));
    BS_VERIFY_READ(dataset);
    QVERIFY2(dataset->provenance.detectedBecause.find("joined with timeseries.csv and meta.json") !=
                 std::string::npos,
             dataset->provenance.detectedBecause.c_str());
    const auto& run = onlyRun(*dataset);
    QCOMPARE(run.requests.size(), std::size_t(3));
    QCOMPARE(*run.requests[2].arrivalS, 2.0);
    QCOMPARE(*run.requests[2].ttftS, 2.0);
    QCOMPARE(*run.requests[0].queueS, 0.5);
    QCOMPARE(*run.requests[0].tpotS, 0.5);
    QVERIFY(!run.requests[1].tpotS);
    QCOMPARE(*run.durationS, 5.0);
    QCOMPARE(*run.outputTokensPerS, 9.0 / 5.0);
    QCOMPARE(*run.promptTokensPerS, 60.0 / 5.0);
    QCOMPARE(run.model, std::string("tiny/model"));
    QCOMPARE(run.knobs.at("engine.max_num_seqs"), std::string("4"));
    QCOMPARE(run.knobs.at("hardware.device_name"), std::string("Test GPU"));
    const auto a = analysis::analyzeLlmRuns(*dataset->llmRuns()).front();
    QCOMPARE(*a.inFlight.fromRequests, 1.4);
    QCOMPARE(*a.inFlight.fromEngineSeries, 1.4);
    QCOMPARE(*a.inFlight.runningFromEngineSeries, 1.0);
    QVERIFY(!a.goodput); // no SLA given
}

void TestIoLlmRequestLog::siblingsCanBeLeftOut()
{
    auto dataset = test::readFixtureAs(QStringLiteral("llm/servinglog_badseries/requests.jsonl"),
                                       "llm_request_log", {{"siblings", false}});
    BS_VERIFY_READ(dataset);
    QVERIFY(onlyRun(*dataset).engineSeries.empty());
    const auto a = analysis::analyzeLlmRuns(*dataset->llmRuns()).front();
    QVERIFY(!a.inFlight.fromEngineSeries);
    QVERIFY(!a.inFlight.relativeDifference);
}

// TTFT <= 1.5 s and TPOT <= 0.6 s: requests a and b meet it (b has no TPOT: one output token),
// c's TTFT of 2 s does not; 2 good over the 5 s window = 0.4 req/s.
void TestIoLlmRequestLog::goodputUnderSla()
{
    auto dataset = test::readFixture(QStringLiteral("llm/servinglog/requests.jsonl"));
    BS_VERIFY_READ(dataset);
    const auto a = analysis::analyzeLlmRuns(*dataset->llmRuns(), {1.5, 0.6}).front();
    QVERIFY(a.goodput);
    QCOMPARE(a.goodput->judged, std::uint64_t(3));
    QCOMPARE(a.goodput->good, std::uint64_t(2));
    QCOMPARE(a.goodput->perS, 0.4);
    // A TPOT limit of 0.4 s fails a and c (0.5 s each); b still passes.
    const auto strict = analysis::analyzeLlmRuns(*dataset->llmRuns(), {{}, 0.4}).front();
    QCOMPARE(strict.goodput->good, std::uint64_t(1));
}

void TestIoLlmRequestLog::badInput_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::newRow("first token before scheduled")
        << "requestlog_out_of_order.jsonl"
        << "2:0: \"first_token_ts\" comes before \"scheduled_ts\"; a request is queued, "
           "scheduled, then streams its first and last token";
    QTest::newRow("fractional token count") << "requestlog_bad_tokens.jsonl"
                                            << "1:0: \"input_toks\" holds 10.5, not a token count";
    QTest::newRow("engine series beside it goes back in time")
        << "servinglog_badseries/requests.jsonl"
        << "0:0: cannot join the engine series beside it: timeseries.csv:4:1: t goes back or "
           "repeats (2.0 s after 3 s); the samples must be in time order (read without "
           "it with the reader option {\"siblings\": false})";
    QTest::newRow("fractional running count")
        << "engine_series_fractional_count.csv"
        << "3:14: column \"running\" holds 1.5; a whole number is needed";
}

void TestIoLlmRequestLog::badInput()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    auto dataset = test::readFixture(QStringLiteral("llm/") + file);
    QVERIFY(!dataset);
    QCOMPARE(test::whereAndWhy(dataset.error()), expected);
}

QTEST_APPLESS_MAIN(TestIoLlmRequestLog)
#include "tst_io_llmrequestlog.moc"
