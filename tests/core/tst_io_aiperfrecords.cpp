// AIPerf per-request profile_export.jsonl -> data::LlmRunSet with per-request records (issue 18,
// item 2).
//
// tests/data/llm/aiperf_records.jsonl follows the record layout of AIPerf's
// docs/tutorials/working-with-profile-exports.md (compact JSON, one record per line): a warm-up
// record, then requests starting at 0, 250, 500 and 1000 ms after the first, ending at 400,
// 1000, 520 and 1500 ms; the third failed (code 500, error_isl 300). Worked out with python3:
// window 1.5 s; 3 completed -> 2 req/s; output 5 + 4 + 3 = 12 tokens -> 8 tok/s; prompt
// 100 + 200 + 50 = 350 tokens; TTFT 100, 150, 300 ms (median 150 ms); TPOT (e2e - ttft) /
// (osl - 1) = 75, 200, 100 ms; ITL pooled over 4 + 3 + 2 = 9 gaps.

#include "analysis/llmrunanalysis.h"
#include "iotesthelpers.h"

using namespace bs;

class TestIoAiperfRecords : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void records();
    void analyzeFromRecords();
    void badInput_data();
    void badInput();
    void epochNanosecondsKeepTheirPrecision();
};

void TestIoAiperfRecords::records()
{
    auto dataset = test::readFixture(QStringLiteral("llm/aiperf_records.jsonl"));
    BS_VERIFY_READ(dataset);
    QCOMPARE(dataset->provenance.reader, std::string("aiperf_records"));
    QCOMPARE(dataset->provenance.detectedBecause,
             std::string("JSON Lines whose first record has \"metadata\" with "
                         "\"request_start_ns\" and \"metrics\" (AIPerf per-request "
                         "profile_export.jsonl)"));
    const auto& run = dataset->llmRuns()->runs.front();
    QCOMPARE(run.tool, std::string("aiperf"));
    QCOMPARE(run.requests.size(), std::size_t(4)); // the warm-up record is not one of them
    QCOMPARE(*run.completed, std::int64_t(3));
    QCOMPARE(*run.durationS, 1.5);
    QCOMPARE(*run.requestsPerS, 2.0);
    QCOMPARE(*run.outputTokensPerS, 8.0);
    QCOMPARE(*run.promptTokensTotal, std::int64_t(350));
    const auto& second = run.requests[1];
    QCOMPARE(*second.arrivalS, 0.25);
    QCOMPARE(*second.ttftS, 0.15);
    QCOMPARE(*second.tpotS, 0.2);
    QCOMPARE(*second.e2eS, 0.75);
    QCOMPARE(second.itlS, (std::vector<double>{0.2, 0.2, 0.2}));
    QCOMPARE(*second.promptTokens, std::int32_t(200));
    QCOMPARE(*second.outputTokens, std::int32_t(4));
    const auto& failed = run.requests[2];
    QVERIFY(!failed.ok);
    QVERIFY(!failed.ttftS);
    QCOMPARE(*failed.promptTokens, std::int32_t(300));
    QCOMPARE(failed.error, std::string("Server encountered an internal error"));
    QCOMPARE(test::warningLines(*dataset),
             (QStringList{QStringLiteral("0: 1 record of a phase other than \"profiling\" "
                                         "(warm-up) left out"),
                          QStringLiteral("0: 1 of 4 requests failed (error codes 500: 1); kept "
                                         "without latencies, left out of every statistic")}));
}

void TestIoAiperfRecords::analyzeFromRecords()
{
    auto dataset = test::readFixture(QStringLiteral("llm/aiperf_records.jsonl"));
    BS_VERIFY_READ(dataset);
    const auto a = analysis::analyzeLlmRuns(*dataset->llmRuns()).front();
    QCOMPARE(a.failed, std::uint64_t(1));
    QCOMPARE(a.ttft.count, std::uint64_t(3));
    QCOMPARE(a.ttft.percentiles[0].value, 0.15); // median of 0.1, 0.15, 0.3
    QCOMPARE(a.tpot.count, std::uint64_t(3));
    QCOMPARE(a.itl.count, std::uint64_t(9));
}

void TestIoAiperfRecords::badInput_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::newRow("negative TTFT")
        << "aiperf_records_negative_ttft.jsonl"
        << "2:0: \"metrics.time_to_first_token.value\" holds -150.0, not a non-negative finite "
           "number";
    QTest::newRow("latency in tokens")
        << "aiperf_records_bad_unit.jsonl"
        << "2:0: \"metrics.request_latency.unit\" is \"tokens\", not a time unit (ms, sec, us, "
           "ns)";
    QTest::newRow("not a record") << "vllm_append.jsonl"
                                  << "1:0: not an AIPerf record (an object with a \"metadata\" "
                                     "object)";
}

void TestIoAiperfRecords::badInput()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    auto dataset = test::readFixtureAs(QStringLiteral("llm/") + file, "aiperf_records");
    QVERIFY(!dataset);
    QCOMPARE(test::whereAndWhy(dataset.error()), expected);
}

// Two starts 1 ns apart at epoch 1.76e18 ns: as doubles they would be the same number.
void TestIoAiperfRecords::epochNanosecondsKeepTheirPrecision()
{
    const std::string text =
        R"({"metadata":{"request_start_ns":1759813207000000000,"request_end_ns":1759813208000000000},"metrics":{},"error":null})"
        "\n"
        R"({"metadata":{"request_start_ns":1759813207000000001,"request_end_ns":1759813208000000000},"metrics":{},"error":null})"
        "\n";
    auto dataset = io::readDatasetFromBytes(text, "profile_export.jsonl");
    BS_VERIFY_READ(dataset);
    const auto& run = dataset->llmRuns()->runs.front();
    QCOMPARE(*run.requests[1].arrivalS, 1e-9);
    QCOMPARE(*run.durationS, 1.0);
}

QTEST_APPLESS_MAIN(TestIoAiperfRecords)
#include "tst_io_aiperfrecords.moc"
