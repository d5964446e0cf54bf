// The small parts every reader stands on: numbers, dates, CSV splitting, warnings, detection.
#include "io/csvsplitter.h"
#include "io/datetime.h"
#include "io/fastsha256.h"
#include "io/numbercell.h"
#include "io/readwarnings.h"
#include "iotesthelpers.h"

#include <cmath>

using namespace bs;

class TestIoTextCells : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void numbers_data();
    void numbers();
    void dates_data();
    void dates();
    void csvSplitting();
    void unclosedQuoteIsAnError();
    void warningsAreSummarisedOnce();
    void detection_data();
    void detection();
    void everyReaderIsListed();
    void fastSha256MatchesThePortableOne();
};

void TestIoTextCells::numbers_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<double>("value");
    QTest::newRow("integer") << "42" << true << 42.0;
    QTest::newRow("spaces and plus") << " +2.5 " << true << 2.5;
    QTest::newRow("exponent") << "1e-3" << true << 1e-3;
    QTest::newRow("underflow is zero") << "1e-400" << true << 0.0;
    QTest::newRow("overflow is infinite") << "1e400" << true << double(INFINITY);
    QTest::newRow("trailing text") << "12abc" << false << 0.0;
    QTest::newRow("comma decimal") << "1,5" << false << 0.0;
    QTest::newRow("empty") << "" << false << 0.0;
}

void TestIoTextCells::numbers()
{
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(double, value);
    const auto parsed = io::parseNumber(text.toStdString());
    QCOMPARE(parsed.has_value(), ok);
    if (ok)
        QCOMPARE(*parsed, value);
}

void TestIoTextCells::dates_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<qint64>("seconds");
    QTest::addColumn<double>("fraction");
    QTest::newRow("azure, 7 digits")
        << "2023-11-16 18:17:03.9799600" << true << qint64(1700158623) << 0.97996;
    QTest::newRow("iso with Z") << "2024-02-29T23:59:59.5Z" << true << qint64(1709251199) << 0.5;
    QTest::newRow("offset") << "2024-03-01T01:00:00+01:00" << true << qint64(1709251200) << 0.0;
    QTest::newRow("nvidia-smi") << "2023/11/22 21:23:17.673" << true << qint64(1700688197) << 0.673;
    QTest::newRow("mlperf power") << "02-23-2022 12:31:34.910" << true << qint64(1645619494)
                                  << 0.91;
    QTest::newRow("no leap day") << "2023-02-29 00:00:00" << false << qint64(0) << 0.0;
    QTest::newRow("month 13") << "2023-13-01 00:00:00" << false << qint64(0) << 0.0;
    QTest::newRow("hour 24") << "2023-01-01 24:00:00" << false << qint64(0) << 0.0;
    QTest::newRow("date only") << "2023-01-01" << false << qint64(0) << 0.0;
    QTest::newRow("trailing text") << "2023-01-01 00:00:00 UTC" << false << qint64(0) << 0.0;
}

void TestIoTextCells::dates()
{
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(qint64, seconds);
    QFETCH(double, fraction);
    const auto parsed = io::parseDateTime(text.toStdString());
    QCOMPARE(parsed.has_value(), ok);
    if (ok) {
        QCOMPARE(parsed->seconds, std::int64_t(seconds));
        QVERIFY(std::fabs(parsed->fraction - fraction) < 1e-12);
    }
}

void TestIoTextCells::csvSplitting()
{
    io::CsvSplitter split;
    QVERIFY(split.split(R"(a, "b,c" ,"say ""hi""",,last )"));
    QCOMPARE(split.size(), std::size_t(5));
    QCOMPARE(split[0], std::string_view("a"));
    QCOMPARE(split[1], std::string_view("b,c"));
    QCOMPARE(split[2], std::string_view("say \"hi\""));
    QCOMPARE(split[3], std::string_view(""));
    QCOMPARE(split[4], std::string_view("last"));
    QCOMPARE(split.column(1), std::int64_t(4));
    QCOMPARE(split.column(4), std::int64_t(25));
}

void TestIoTextCells::unclosedQuoteIsAnError()
{
    io::CsvSplitter split;
    const auto status = split.split("a,\"b,c");
    QVERIFY(!status);
    QCOMPARE(status.error().column, std::int64_t(3));
    QCOMPARE(status.error().message,
             std::string("a quoted field is not closed before the end of the line"));
    auto read = io::readDatasetFromBytes("arrival,completion\n1,\"2\n", "q.csv");
    QVERIFY(!read);
    QCOMPARE(test::whereAndWhy(read.error()),
             QStringLiteral("2:3: a quoted field is not closed before the end of the line"));
}

void TestIoTextCells::warningsAreSummarisedOnce()
{
    io::ReadWarnings warnings;
    for (int line = 10; line < 1010; ++line)
        warnings.add("odd", line, "an odd row");
    warnings.add("other", 0, "something else");
    const auto summary = warnings.summary();
    QCOMPARE(summary.size(), std::size_t(2));
    QCOMPARE(summary[0].line, std::int64_t(10));
    QCOMPARE(summary[0].message,
             std::string("an odd row (and 999 more times, on lines 11, 12, 13, 14, 15, ...)"));
    QCOMPARE(summary[1].message, std::string("something else"));
    QCOMPARE(warnings.count("odd"), std::uint64_t(1000));
}

void TestIoTextCells::detection_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    QTest::newRow("UTF-16") << QByteArray("\xff\xfeT\0I\0", 6)
                            << "error 1:1: the file is UTF-16 encoded; BatchScope reads UTF-8 text "
                               "(save it as UTF-8 and try again)";
    QTest::newRow("zip") << QByteArray("PK\x03\x04rest", 8)
                         << "error 0:0: the file is a ZIP archive; unpack it first (gzip is read "
                            "directly)";
    QTest::newRow("white space only")
        << QByteArray(" \n\t\n") << "error 0:0: the file holds only white space";
    QTest::newRow("BOM + Azure header")
        << QByteArray("\xef\xbb\xbfTIMESTAMP,ContextTokens,GeneratedTokens\n") << "azure_llm_trace";
    QTest::newRow("MLLOG") << QByteArray(":::MLLOG {\"key\": \"x\"}\n") << "mlperf_detail";
    QTest::newRow("chrome array") << QByteArray("[{\"ph\":\"X\"}") << "kineto_trace";
    QTest::newRow("model analyzer")
        << QByteArray("Model,Batch,Concurrency,Throughput (infer/sec)\n") << "model_analyzer";
    QTest::newRow("request rate perf_analyzer")
        << QByteArray("Request Rate,Inferences/Second,p99 latency\n") << "perf_analyzer";
    QTest::newRow("generic requests")
        << QByteArray("arrival_s,latency_ms\n1,2\n") << "request_trace_csv";
    QTest::newRow("BurstGPT") << QByteArray("Timestamp,Model,Request tokens,Response tokens,Total "
                                            "tokens,Log Type\n5,ChatGPT,472,18,490,API log\n")
                              << "burstgpt_trace";
    QTest::newRow("Mooncake JSONL")
        << QByteArray("{\"timestamp\": 27482, \"input_length\": 6955, \"output_length\": 52, "
                      "\"hash_ids\": [46, 47]}\n")
        << "mooncake_trace";
    QTest::newRow("Bailian JSONL")
        << QByteArray("{\"chat_id\": 159, \"parent_chat_id\": -1, \"timestamp\": 61.114, "
                      "\"input_length\": 521, \"output_length\": 132, \"type\": \"text\"}\n")
        << "bailian_trace";
    QTest::newRow("trtllm-bench report")
        << QByteArray(
               "{\n    \"engine\": {},\n    \"world_info\": {},\n    \"performance\": {}\n}\n")
        << "trtllm_bench";
    QTest::newRow("vLLM CI result table")
        << QByteArray(
               "[{\"Test name\": \"tp8_pp1_qps_01\", \"GPU\": \"1xStandard_ND96asr_v4 x 1\", "
               "\"# of req.\": 200, \"Tput (req/s)\": 0.97}]")
        << "vllm_result_table";
    QTest::newRow("AIPerf records")
        << QByteArray("{\"metadata\":{\"session_num\":0,\"request_start_ns\":1},\"metrics\":{}}\n")
        << "aiperf_records";
    QTest::newRow("AIPerf CSV") << QByteArray(
                                       "Metric,avg,min,max,p1\nRequest Latency (ms),1,1,1,1\n")
                                << "genai_perf_csv";
    QTest::newRow("GenAI-Perf CSV single values")
        << QByteArray("Metric,Value\nRequest Throughput (per sec),1\n") << "genai_perf_csv";
    QTest::newRow("Model Analyzer checkpoint")
        << QByteArray("{\n    \"ResultManager.results\": {\n        \"_results\": {}\n")
        << "model_analyzer_checkpoint";
    QTest::newRow("JSON with a timestamp but no token lengths")
        << QByteArray("{\"timestamp\": 1}\n")
        << "error 0:0: a JSON file, but not a Chrome/Kineto trace: no \"traceEvents\" key in its "
           "first 1 KiB (force a reader if it is one)";
}

void TestIoTextCells::detection()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    auto detected = io::detectFormatFromHead(bytes.toStdString(), "head", true);
    const QString got = detected ? QString::fromStdString(detected->reader)
                                 : QStringLiteral("error ") + test::whereAndWhy(detected.error());
    QCOMPARE(got, expected);
}

void TestIoTextCells::everyReaderIsListed()
{
    QStringList names;
    for (const auto& r : io::availableReaders())
        names << QString::fromStdString(r.name);
    QCOMPARE(names, (QStringList{QStringLiteral("perf_analyzer"),
                                 QStringLiteral("model_analyzer"),
                                 QStringLiteral("model_analyzer_checkpoint"),
                                 QStringLiteral("mlperf_summary"),
                                 QStringLiteral("mlperf_detail"),
                                 QStringLiteral("sweep_csv"),
                                 QStringLiteral("dle_table"),
                                 QStringLiteral("kineto_trace"),
                                 QStringLiteral("nvidia_smi"),
                                 QStringLiteral("mlperf_spl"),
                                 QStringLiteral("power_csv"),
                                 QStringLiteral("azure_llm_trace"),
                                 QStringLiteral("burstgpt_trace"),
                                 QStringLiteral("mooncake_trace"),
                                 QStringLiteral("bailian_trace"),
                                 QStringLiteral("llm_benchmark"),
                                 QStringLiteral("vllm_result_table"),
                                 QStringLiteral("genai_perf"),
                                 QStringLiteral("aiperf_records"),
                                 QStringLiteral("genai_perf_csv"),
                                 QStringLiteral("llmperf"),
                                 QStringLiteral("trtllm_bench"),
                                 QStringLiteral("llm_request_log"),
                                 QStringLiteral("llm_engine_series"),
                                 QStringLiteral("request_trace_csv")}));
    auto unknown = io::readDatasetFromBytes("x", "x.csv", {"nope", {}, {}});
    QVERIFY(!unknown);
    QCOMPARE(unknown.error().code, ErrorCode::Usage);
}

void TestIoTextCells::fastSha256MatchesThePortableOne()
{
    // Every length around the 55/56/64-byte padding edges, and a large input fed in odd chunks.
    std::string data;
    for (int i = 0; i < 5000; ++i)
        data += char((i * 7919) % 251);
    for (std::size_t length : {0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 5000}) {
        io::FastSha256 fast;
        Sha256 portable;
        fast.update(data.data(), length);
        portable.update(data.data(), length);
        QCOMPARE(fast.hexDigest(), portable.hexDigest());
    }
    io::FastSha256 chunked;
    Sha256 whole;
    for (std::size_t at = 0, step = 1; at < data.size(); at += step, step = step * 3 % 97 + 1)
        chunked.update(data.data() + at, std::min(step, data.size() - at));
    whole.update(data);
    QCOMPARE(chunked.hexDigest(), whole.hexDigest());
    io::FastSha256 abc;
    abc.update("abc", 3);
    QCOMPARE(abc.hexDigest(),
             std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    qInfo("FastSha256 uses the %s path on this CPU",
          io::FastSha256::hardwareAvailable() ? "hardware (SHA extensions)" : "portable");
}

QTEST_APPLESS_MAIN(TestIoTextCells)
#include "tst_io_textcells.moc"
