#include "iotesthelpers.h"

using namespace bs;

class TestIoRequestTrace : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsGenericCsvWithSuggestedMapping();
    void readsCalendarTimesAndLatency();
    void readsAzureTraceAtFullResolution();
    void keepsUnsortedArrivalsWithOneWarning();
    void readsSemicolonsAndQuotes();
    void explicitMappingIsUsedAndValidated();
    void badInput_data();
    void badInput();
    void readsFromBytes();
    void readsMooncakeJsonl();
    void readsBailianJsonl();
    void readsBurstGpt();
    void jsonlErrors_data();
    void jsonlErrors();
};

void TestIoRequestTrace::readsGenericCsvWithSuggestedMapping()
{
    auto read = test::readFixture(QStringLiteral("request_trace/generic_ms.csv"));
    BS_VERIFY_READ(read);
    QCOMPARE(read->provenance.reader, std::string("request_trace_csv"));
    const auto trace = read->requestTrace();
    QVERIFY(trace);
    QCOMPARE(trace->size(), std::size_t(3));
    QCOMPARE(trace->arrivalS[1], 1.5e-3);
    QCOMPARE(trace->completionS[0], 12.5e-3);
    QCOMPARE(trace->batchId, (std::vector<std::int64_t>{1, 1, 2}));
    QCOMPARE(trace->batchSize, (std::vector<std::int32_t>{2, 2, 1}));
    QCOMPARE(trace->streamNames, (std::vector<std::string>{"alpha", "beta"}));
    QCOMPARE(trace->streamIndex, (std::vector<std::uint32_t>{0, 1, 0}));
    QCOMPARE(trace->inputTokens, (std::vector<std::int32_t>{100, 50, 70}));
    QCOMPARE(trace->outputTokens, (std::vector<std::int32_t>{20, 10, 5}));
    QCOMPARE(trace->originEpochS, 0.0);
    QVERIFY(trace->dispatchS.empty());
    // The suggested mapping is saved so a reload reads the file the same way.
    const auto saved = nlohmann::json::parse(read->readerOptionsJson);
    QCOMPARE(saved["columns"]["arrival"]["column"].get<std::string>(), std::string("arrival_ms"));
    QCOMPARE(saved["columns"]["arrival"]["unit"].get<std::string>(), std::string("ms"));
    QCOMPARE(saved["columns"]["stream"]["column"].get<std::string>(), std::string("tenant"));
    QVERIFY(!saved["columns"].contains("latency"));
}

void TestIoRequestTrace::readsCalendarTimesAndLatency()
{
    auto read = test::readFixture(QStringLiteral("request_trace/datetime_latency.csv"));
    BS_VERIFY_READ(read);
    const auto trace = read->requestTrace();
    QCOMPARE(trace->originEpochS, 1709251199.5); // 2024-02-29T23:59:59.5Z
    QCOMPARE(trace->arrivalS, (std::vector<double>{0.0, 0.5, 1.75}));
    QCOMPARE(trace->completionS, (std::vector<double>{0.25, 0.6, 2.75}));
    QCOMPARE(trace->streamNames, (std::vector<std::string>{"a", "b"}));
}

void TestIoRequestTrace::readsAzureTraceAtFullResolution()
{
    auto read = test::readFixture(QStringLiteral("request_trace/azure_small.csv"));
    BS_VERIFY_READ(read);
    QCOMPARE(read->provenance.reader, std::string("azure_llm_trace"));
    QCOMPARE(read->provenance.detectedBecause,
             std::string("CSV header is \"TIMESTAMP,ContextTokens,GeneratedTokens\" (Azure LLM "
                         "inference trace)"));
    const auto trace = read->requestTrace();
    QCOMPARE(trace->size(), std::size_t(5)); // the last row has no newline
    // 2023-11-16 18:17:03 UTC = 1700158623
    QCOMPARE(trace->originEpochS, 1700158623.97996);
    QCOMPARE(trace->arrivalS[0], 0.0);
    QVERIFY(qAbs(trace->arrivalS[1] - 0.052) < 1e-12);
    // Two arrivals 100 ns apart stay 100 ns apart.
    QVERIFY(qAbs((trace->arrivalS[4] - trace->arrivalS[3]) - 1e-7) < 1e-12);
    QCOMPARE(trace->inputTokens.back(), 549);
    QCOMPARE(trace->outputTokens.back(), 173);
    QVERIFY(trace->completionS.empty());
    QCOMPARE(read->readerOptionsJson, std::string("{}"));
}

void TestIoRequestTrace::keepsUnsortedArrivalsWithOneWarning()
{
    auto read = test::readFixture(QStringLiteral("request_trace/unsorted.csv"));
    BS_VERIFY_READ(read);
    QCOMPARE(read->requestTrace()->arrivalS, (std::vector<double>{0.5, 0.2, 0.9, 0.1}));
    QCOMPARE(test::warningLines(*read),
             QStringList{QStringLiteral(
                 "3: arrivals are not in time order (this request arrives before the one on the "
                 "line above); kept in file order (and 1 more time, on line 5)")});
}

void TestIoRequestTrace::readsSemicolonsAndQuotes()
{
    auto read = test::readFixture(QStringLiteral("request_trace/semicolon_quoted.csv"));
    BS_VERIFY_READ(read);
    const auto trace = read->requestTrace();
    QCOMPARE(trace->completionS, (std::vector<double>{2.5, 3.0}));
    QCOMPARE(trace->streamNames, (std::vector<std::string>{"team;a", "team \"b\""}));
}

void TestIoRequestTrace::explicitMappingIsUsedAndValidated()
{
    const nlohmann::json mapping = {{"columns",
                                     {{"arrival", {{"column", "completion_ms"}, {"unit", "ms"}}},
                                      {"output_tokens", {{"column", "prompt_tokens"}}}}}};
    auto read = test::readFixtureAs(QStringLiteral("request_trace/generic_ms.csv"),
                                    "request_trace_csv", mapping);
    BS_VERIFY_READ(read);
    QCOMPARE(read->requestTrace()->arrivalS[2], 31e-3);
    QCOMPARE(read->requestTrace()->outputTokens[0], 100);
    QVERIFY(read->requestTrace()->inputTokens.empty());

    const nlohmann::json badUnit = {
        {"columns", {{"arrival", {{"column", "arrival_ms"}, {"unit", "W"}}}}}};
    auto bad = test::readFixtureAs(QStringLiteral("request_trace/generic_ms.csv"),
                                   "request_trace_csv", badUnit);
    QVERIFY(!bad);
    QCOMPARE(QString::fromStdString(bad.error().message),
             QStringLiteral("reader_options.columns.arrival.unit: \"W\" is not a unit for this "
                            "field (use one of: s, ms, us, ns, min, h, datetime)"));
    const nlohmann::json missing = {{"columns", {{"arrival", {{"column", "nope"}}}}}};
    bad = test::readFixtureAs(QStringLiteral("request_trace/generic_ms.csv"), "request_trace_csv",
                              missing);
    QVERIFY(!bad);
    QCOMPARE(test::whereAndWhy(bad.error()),
             QStringLiteral("1:0: the mapping names a column \"nope\" (for \"arrival\") that the "
                            "header does not have"));
    const nlohmann::json unknownField = {{"columns", {{"arival", {{"column", "arrival_ms"}}}}}};
    bad = test::readFixtureAs(QStringLiteral("request_trace/generic_ms.csv"), "request_trace_csv",
                              unknownField);
    QVERIFY(!bad);
    QCOMPARE(QString::fromStdString(bad.error().message),
             QStringLiteral("reader_options.columns.arival: is not a field of a request_trace "
                            "mapping"));
}

void TestIoRequestTrace::badInput_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::newRow("completion before arrival")
        << "completion_before_arrival.csv"
        << "3:5: column \"completion_s\": the completion time is before the arrival time (a "
           "negative latency)";
    QTest::newRow("negative latency")
        << "negative_latency.csv"
        << "2:5: column \"latency_ms\" holds -2; a negative value is not valid here";
    QTest::newRow("impossible date")
        << "azure_bad_date.csv"
        << "3:1: column \"TIMESTAMP\" holds \"2023-13-16 18:17:04.0319600\", which is not a "
           "date and time (YYYY-MM-DD HH:MM:SS[.fff])";
    QTest::newRow("negative tokens")
        << "azure_negative_tokens.csv"
        << "2:29: column \"ContextTokens\" holds -4808; a negative value is not valid here";
}

void TestIoRequestTrace::badInput()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    auto read = test::readFixture(QStringLiteral("request_trace/") + file);
    QVERIFY(!read);
    QCOMPARE(test::whereAndWhy(read.error()), expected);
}

void TestIoRequestTrace::readsFromBytes()
{
    auto read = io::readDatasetFromBytes("arrival_s,completion_s\n1,2\n", "memory.csv");
    BS_VERIFY_READ(read);
    QCOMPARE(read->provenance.path, std::string("memory.csv"));
    QCOMPARE(read->provenance.sizeBytes, std::uint64_t(27));
    QCOMPARE(read->requestTrace()->completionS, std::vector<double>{2.0});
    // SHA-256 of the bytes themselves.
    QCOMPARE(read->provenance.sha256.size(), std::size_t(64));
    auto empty = io::readDatasetFromBytes("", "nothing.csv");
    QVERIFY(!empty);
    QCOMPARE(QString::fromStdString(empty.error().toString()),
             QStringLiteral("nothing.csv: the file is empty"));
}

// Regression: Mooncake, Alibaba (Bailian) and BurstGPT request traces were not recognised.
void TestIoRequestTrace::readsMooncakeJsonl()
{
    auto read = test::readFixture(QStringLiteral("request_trace/mooncake.jsonl"));
    BS_VERIFY_READ(read);
    QCOMPARE(read->provenance.reader, std::string("mooncake_trace"));
    const auto trace = read->requestTrace();
    QCOMPARE(trace->arrivalS, (std::vector<double>{0.0, 1.5, 1.5, 3.25})); // ms -> s
    QCOMPARE(trace->inputTokens, (std::vector<std::int32_t>{6955, 6472, 120, 3000}));
    QCOMPARE(trace->outputTokens, (std::vector<std::int32_t>{52, 26, 8, 100}));
    QVERIFY(trace->streamIndex.empty());
    QVERIFY(read->provenance.warnings.empty());
}

void TestIoRequestTrace::readsBailianJsonl()
{
    auto read = test::readFixture(QStringLiteral("request_trace/bailian.jsonl"));
    BS_VERIFY_READ(read);
    QCOMPARE(read->provenance.reader, std::string("bailian_trace"));
    const auto trace = read->requestTrace();
    QCOMPARE(trace->arrivalS, (std::vector<double>{61.114, 62.5, 63.0})); // seconds as written
    QCOMPARE(trace->outputTokens, (std::vector<std::int32_t>{132, 40, 300}));
    QCOMPARE(trace->streamNames, (std::vector<std::string>{"text", "search"}));
    QCOMPARE(trace->streamIndex, (std::vector<std::uint32_t>{0, 1, 0}));
}

void TestIoRequestTrace::readsBurstGpt()
{
    auto read = test::readFixture(QStringLiteral("request_trace/burstgpt.csv"));
    BS_VERIFY_READ(read);
    QCOMPARE(read->provenance.reader, std::string("burstgpt_trace"));
    const auto trace = read->requestTrace();
    QCOMPARE(trace->arrivalS, (std::vector<double>{5.0, 45.5, 118.0}));
    QCOMPARE(trace->inputTokens, (std::vector<std::int32_t>{472, 1087, 417}));
    QCOMPARE(trace->outputTokens, (std::vector<std::int32_t>{18, 0, 217})); // a failed request
    QCOMPARE(trace->streamNames, (std::vector<std::string>{"ChatGPT", "GPT-4"}));
}

void TestIoRequestTrace::jsonlErrors_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::newRow("missing field") << "mooncake_missing_field.jsonl"
                                   << "2:0: the record has no \"input_length\" field";
    // The column is the last byte of the token that broke the syntax ("output_length", bytes
    // 38 to 52 of line 2, follows 10 without a comma).
    QTest::newRow("syntax error")
        << "mooncake_syntax_error.jsonl"
        << "2:52: not a JSON object: syntax error while parsing object - unexpected string "
           "literal; expected '}'";
}

void TestIoRequestTrace::jsonlErrors()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    auto read = test::readFixture(QStringLiteral("request_trace/") + file);
    QVERIFY(!read);
    QVERIFY2(test::whereAndWhy(read.error()).startsWith(expected),
             qPrintable(test::whereAndWhy(read.error())));
}

QTEST_APPLESS_MAIN(TestIoRequestTrace)
#include "tst_io_requesttrace.moc"
