// The bad-input corpus: every reader gets an empty, a binary, a truncated, a UTF-16, a UTF-8 BOM,
// a CRLF, a huge-line, NaN / Inf / negative, a duplicate-header and a mixed-format file, generated
// here into a temporary folder from a small valid file per reader. Each must end in a specific
// error (code, line and a message fragment) or read with a specific warning, and a file that
// differs from the valid one only in its encoding details (BOM, CRLF) must read to exactly the
// same content: no crash, no vague error, no wrong number.
#include "io/datasetjson.h"
#include "iotesthelpers.h"

#include <QDir>
#include <QTemporaryDir>

using namespace bs;

namespace {

constexpr int kReads = -1; ///< The `code` column's value for "reads (maybe with a warning)".

/// A small valid file per reader; every bad variant below is made from these.
const char* const kPerfAnalyzer = "Concurrency,Inferences/Second,p50 latency,p99 latency\n"
                                  "1,100.5,1000,2000\n"
                                  "2,180,1100,2500\n";
const char* const kModelAnalyzer =
    "Model,Batch,Concurrency,Model Config Path,Throughput (infer/sec),p99 Latency (ms),"
    "Avg Latency (ms)\n"
    "resnet,4,8,resnet_config_0,1200.5,12.5,9.25\n"
    "resnet,8,8,resnet_config_0,1900,25,18\n";
const char* const kMlperfSummary = "================================================\n"
                                   "MLPerf Results Summary\n"
                                   "================================================\n"
                                   "SUT name : LWIS\n"
                                   "Scenario : Offline\n"
                                   "Mode     : PerformanceOnly\n"
                                   "Samples per second : 1234.5\n"
                                   "Result is : VALID\n"
                                   "Min latency (ns) : 600000\n"
                                   "Mean latency (ns) : 651880\n"
                                   "99.00 percentile latency (ns) : 699000\n";
const char* const kMlperfDetail =
    ":::MLLOG {\"key\": \"effective_scenario\", \"value\": \"Offline\", \"time_ms\": 0.02}\n"
    ":::MLLOG {\"key\": \"effective_test_mode\", \"value\": \"PerformanceOnly\", \"time_ms\": "
    "0.02}\n"
    ":::MLLOG {\"key\": \"result_samples_per_second\", \"value\": 1234.5, \"time_ms\": 1}\n"
    ":::MLLOG {\"key\": \"result_validity\", \"value\": \"VALID\", \"time_ms\": 1}\n"
    ":::MLLOG {\"key\": \"result_mean_latency_ns\", \"value\": 651880, \"time_ms\": 1}\n";
const char* const kSpl = "Time,01-02-2023 00:00:10.000,Watts,100.0,Volts,230.0,Amps,0.5,PF,0.9,"
                         "Mark,test\n"
                         "Time,01-02-2023 00:00:11.000,Watts,110.0,Volts,230.0,Amps,0.5,PF,0.9,"
                         "Mark,test\n";
const char* const kKineto =
    "{\"traceEvents\": [\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": 7, \"ts\": 100, "
    "\"dur\": 20, \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 1}},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
    "\"tid\": 1, \"ts\": 90, \"dur\": 5, \"args\": {\"correlation\": 1}}\n"
    "]}\n";
const char* const kNvidiaSmi = "index, timestamp, power.draw [W], utilization.gpu [%]\n"
                               "0, 2023/11/22 21:23:17.673, 24.38 W, 0 %\n"
                               "1, 2023/11/22 21:23:17.675, 30.00 W, 5 %\n";
const char* const kSweepCsv = "batch,throughput,p99 (ms)\n"
                              "1,100,9\n"
                              "8,640,20\n";
const char* const kDleCsv = "Batch size,Throughput Avg,Latency Avg (ms),Latency 99% (ms)\n"
                            "1,101,9.87,9.86\n"
                            "8,584,13.68,13.68\n";
const char* const kPowerCsv = "time,power [W]\n"
                              "2024-01-01T00:00:00Z,100.5\n"
                              "2024-01-01T00:00:01Z,200\n";
const char* const kRequestCsv = "arrival_ms,completion_ms,tenant\n"
                                "0,12.5,alpha\n"
                                "1.5,14,beta\n";
// Azure traces end without a newline.
const char* const kAzure = "TIMESTAMP,ContextTokens,GeneratedTokens\n"
                           "2023-11-16 18:17:03.9799600,4808,10\n"
                           "2023-11-16 18:17:04.0319600,3180,8";

const char* const kBurstGpt =
    "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n"
    "5,ChatGPT,472,18,490,Conversation log\n"
    "45,GPT-4,1087,0,1087,API log\n";
const char* const kMooncake =
    "{\"timestamp\": 0, \"input_length\": 6955, \"output_length\": 52, \"hash_ids\": [46]}\n"
    "{\"timestamp\": 1500, \"input_length\": 6472, \"output_length\": 26, \"hash_ids\": []}\n";
const char* const kLlmBenchmark =
    "{\"backend\": \"vllm\", \"completed\": 1, \"duration\": 1.0, \"mean_ttft_ms\": 5.0}\n"
    "{\"backend\": \"sglang\", \"completed\": 1, \"duration\": 2.0, \"median_ttft_ms\": 5.0, "
    "\"median_e2e_latency_ms\": 9.0}\n";
const char* const kRequestLog =
    "{\"request_id\": \"a\", \"input_toks\": 10, \"output_toks\": 5, \"arrival_time\": 1.7e9, "
    "\"queued_ts\": 100.0, \"scheduled_ts\": 100.5, \"first_token_ts\": 101.0, "
    "\"last_token_ts\": 103.0}\n"
    "{\"request_id\": \"b\", \"input_toks\": 20, \"output_toks\": 2, \"arrival_time\": 1.7e9, "
    "\"queued_ts\": 101.0, \"scheduled_ts\": 101.0, \"first_token_ts\": 102.0, "
    "\"last_token_ts\": 102.5}\n";
const char* const kEngineSeries =
    "t,prompt_throughput,gen_throughput,running,waiting,kv_cache_pct\n"
    "1.0,10.0,0.0,1,0,5.0\n"
    "2.0,20.0,2.0,1,1,10.0\n";
const char* const kGenAiPerf =
    "{\n"
    "  \"request_throughput\": {\"unit\": \"requests/sec\", \"avg\": 1.0},\n"
    "  \"time_to_first_token\": {\"unit\": \"ms\", \"avg\": 50.0}\n"
    "}\n";
const char* const kLlmPerf =
    "[\n"
    "  {\"error_code\": null, \"ttft_s\": 0.3, \"end_to_end_latency_s\": 2.3, "
    "\"number_output_tokens\": 100, \"number_input_tokens\": 50}\n"
    "]\n";
const char* const kModelAnalyzerCheckpoint =
    "{\n"
    "  \"ResultManager.results\": {\"_results\": {\"m\": {\"m_config_0\": [\n"
    "    {\"_model_run_configs\": [{\"_model_config_variant\": {\"model_config\": "
    "{\"maxBatchSize\": 8, \"dynamicBatching\": {}}}}]},\n"
    "    {\"m -b 1 --concurrency-range=1\": {\"_model_config_measurements\": [{\n"
    "      \"_model_specific_pa_params\": {\"batch-size\": 1, \"concurrency-range\": 1},\n"
    "      \"_non_gpu_data\": [[\"perf_throughput\", {\"_value\": 2500.0}], "
    "[\"perf_latency_p99\", {\"_value\": 0.5}]]}]}}\n"
    "  ]}}}\n"
    "}\n";
const char* const kTrtllmBench =
    "{\n"
    "    \"world_info\": {\"max_batch_size\": 64, \"max_num_tokens\": 2048},\n"
    "    \"performance\": {\"total_latency_ms\": 2150.0, \"request_throughput_req_s\": 1.86}\n"
    "}\n";
const char* const kVllmResultTable =
    "[{\"Test name\": \"tp8_pp1_qps_04\", \"# of req.\": 200, \"Tput (req/s)\": 3.2, "
    "\"Output Tput (tok/s)\": 674.0, \"Total Tput (tok/s)\": 1351.0, "
    "\"Median TTFT (ms)\": 49.5}]";
const char* const kAiperfRecords =
    "{\"metadata\":{\"request_start_ns\":1000,\"request_end_ns\":5000},\"metrics\":"
    "{\"time_to_first_token\":{\"value\":1.5,\"unit\":\"ms\"}},\"error\":null}\n"
    "{\"metadata\":{\"request_start_ns\":2000,\"request_end_ns\":6000},\"metrics\":"
    "{\"time_to_first_token\":{\"value\":2.5,\"unit\":\"ms\"}},\"error\":null}\n";
const char* const kGenAiPerfCsv = "Metric,avg,p99\n"
                                  "Time To First Token (ms),50.0,90.0\n"
                                  "\n"
                                  "Metric,Value\n"
                                  "Request Throughput (per sec),1.5\n";
const char* const kBailian =
    "{\"chat_id\": 1, \"timestamp\": 61.1, \"input_length\": 521, \"output_length\": 132, "
    "\"type\": \"text\"}\n"
    "{\"chat_id\": 2, \"timestamp\": 62.5, \"input_length\": 800, \"output_length\": 40, "
    "\"type\": \"search\"}\n";

QByteArray withCrlf(QByteArray text)
{
    return text.replace("\n", "\r\n");
}

QByteArray utf16WithBom(const QByteArray& utf8)
{
    QByteArray out("\xff\xfe", 2);
    for (const QChar c : QString::fromUtf8(utf8)) {
        out.append(char(c.unicode() & 0xff));
        out.append(char(c.unicode() >> 8));
    }
    return out;
}

/// The start of an ELF executable: what a wrongly chosen file from a build folder looks like.
QByteArray binary()
{
    return QByteArray("\x7f"
                      "ELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00\x3e\x00",
                      20);
}

/// One line of 17 MiB (the line readers stop at 16 MiB).
QByteArray hugeLine()
{
    static const QByteArray line = QByteArray(17 << 20, '7');
    return line;
}

/// The valid file with its `n`-th line (0-based) replaced.
QByteArray replaceLine(const char* valid, int n, const QByteArray& line)
{
    QList<QByteArray> lines = QByteArray(valid).split('\n');
    lines[n] = line;
    return lines.join('\n');
}

/// The valid file cut `bytes` before its end.
QByteArray cut(const char* valid, int bytes)
{
    const QByteArray text(valid);
    return text.left(text.size() - bytes);
}

/// Content as text (JSON for the data values), to compare two reads exactly.
std::string contentText(const data::Dataset& dataset)
{
    if (const auto sweep = dataset.sweep())
        return io::toJson(*sweep).dump();
    if (const auto trace = dataset.requestTrace())
        return io::toJson(*trace).dump();
    if (const auto series = dataset.powerSeries())
        return io::toJson(*series).dump();
    std::string out;
    if (const auto trace = dataset.kernelTrace()) {
        for (const auto& e : trace->events) {
            out += trace->nameOf(e) + " " + std::to_string(e.startS) + " " +
                   std::to_string(e.durationS) + " " + std::to_string(e.device) + " " +
                   std::to_string(e.correlation) + "\n";
        }
    }
    return out;
}

void addRow(const char* name, const char* reader, const QByteArray& content, int code, qint64 line,
            const QString& fragment, const QByteArray& sameAs = {})
{
    QTest::newRow(name) << QString::fromLatin1(reader) << content << code << line << fragment
                        << sameAs;
}

/// The rows every line-based reader answers the same way.
void addEncodingRows(const char* reader, const char* valid)
{
    const auto tag = [reader](const char* what) -> QByteArray {
        return QByteArray(reader) + ": " + what;
    };
    addRow(tag("empty").constData(), reader, {}, int(ErrorCode::Format), 0,
           QStringLiteral("the file is empty"));
    addRow(tag("binary").constData(), reader, binary(), int(ErrorCode::Format), 1,
           QStringLiteral("binary data (a NUL byte) in what should be a text file"));
    addRow(tag("UTF-16 with BOM").constData(), reader, utf16WithBom(valid), int(ErrorCode::Format),
           1, QStringLiteral("the file is UTF-16 encoded"));
    addRow(tag("UTF-8 BOM").constData(), reader, QByteArray("\xef\xbb\xbf") + valid, kReads, -1, {},
           valid);
    addRow(tag("CRLF").constData(), reader, withCrlf(valid), kReads, -1, {}, valid);
}

/// The encoding rows of a reader of one JSON document; `binary` is its message for a NUL byte.
void addJsonEncodingRows(const char* reader, const char* valid, const QString& binaryMessage)
{
    const auto tag = [reader](const char* what) -> QByteArray {
        return QByteArray(reader) + ": " + what;
    };
    const int format = int(ErrorCode::Format);
    addRow(tag("empty").constData(), reader, {}, format, 0, QStringLiteral("the file is empty"));
    addRow(tag("binary").constData(), reader, binary(), format, 1, binaryMessage);
    addRow(tag("UTF-16 with BOM").constData(), reader, utf16WithBom(valid), format, 1,
           QStringLiteral("the file is UTF-16 encoded"));
    addRow(tag("UTF-8 BOM").constData(), reader, QByteArray("\xef\xbb\xbf") + valid, kReads, -1, {},
           valid);
    addRow(tag("CRLF").constData(), reader, withCrlf(valid), kReads, -1, {}, valid);
}

void addHugeLineRow(const char* reader, const char* valid, qint64 line)
{
    const QByteArray name = QByteArray(reader) + ": huge line";
    addRow(name.constData(), reader, replaceLine(valid, int(line - 1), hugeLine()),
           int(ErrorCode::Limit), line, QStringLiteral("line longer than 16777216 bytes"));
}

const QString kNotFinite = QStringLiteral("which is not a finite number");
const QString kNegative = QStringLiteral("a negative value is not valid here");
const QString kCutShort = QStringLiteral("the file ends without a line ending, as if it was cut "
                                         "short");

} // namespace

class TestIoBadInput : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void badInput_data();
    void badInput();
    void everyReaderIsCovered();

private:
    QTemporaryDir m_dir;
};

void TestIoBadInput::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void TestIoBadInput::badInput_data()
{
    QTest::addColumn<QString>("reader");
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<int>("code");          ///< ErrorCode, or kReads.
    QTest::addColumn<qint64>("line");       ///< Of the error or warning; -1: not checked.
    QTest::addColumn<QString>("fragment");  ///< Of the error, or of a warning when it reads.
    QTest::addColumn<QByteArray>("sameAs"); ///< When set: must read to the same content.

    const int format = int(ErrorCode::Format);
    const int value = int(ErrorCode::Value);
    const int limit = int(ErrorCode::Limit);

    // perf_analyzer
    const char* r = "perf_analyzer";
    addEncodingRows(r, kPerfAnalyzer);
    addRow("perf_analyzer: truncated in a row", r, cut(kPerfAnalyzer, 8), format, 3,
           QStringLiteral("the row has 3 fields but the header has 4"));
    addRow("perf_analyzer: truncated in the last cell", r, cut(kPerfAnalyzer, 3), kReads, 3,
           kCutShort);
    addHugeLineRow(r, kPerfAnalyzer, 2);
    addRow("perf_analyzer: NaN", r, replaceLine(kPerfAnalyzer, 1, "1,nan,1000,2000"), value, 2,
           QStringLiteral("column \"Inferences/Second\" holds \"nan\", ") + kNotFinite);
    addRow("perf_analyzer: Inf", r, replaceLine(kPerfAnalyzer, 1, "1,100.5,inf,2000"), value, 2,
           QStringLiteral("column \"p50 latency\" holds \"inf\", ") + kNotFinite);
    addRow("perf_analyzer: negative", r, replaceLine(kPerfAnalyzer, 1, "1,100.5,-1000,2000"), value,
           2, QStringLiteral("column \"p50 latency\" holds -1000; ") + kNegative);
    addRow("perf_analyzer: duplicate header", r,
           replaceLine(kPerfAnalyzer, 0, "Concurrency,Inferences/Second,p99 latency,p99 latency"),
           format, 1,
           QStringLiteral("the header names column \"p99 latency\" twice (fields 3 and 4)"));
    addRow("perf_analyzer: Model Analyzer rows appended", r,
           QByteArray(kPerfAnalyzer) + kModelAnalyzer, format, 4,
           QStringLiteral("not a perf_analyzer CSV header: there is no \"Inferences/Second\" "
                          "column"));

    // Model Analyzer
    r = "model_analyzer";
    addEncodingRows(r, kModelAnalyzer);
    addRow("model_analyzer: truncated in a row", r, cut(kModelAnalyzer, 20), format, 3,
           QStringLiteral("the row has 4 fields but the header has 7"));
    addRow("model_analyzer: truncated in the last cell", r, cut(kModelAnalyzer, 2), kReads, 3,
           kCutShort);
    addHugeLineRow(r, kModelAnalyzer, 2);
    addRow("model_analyzer: NaN", r,
           replaceLine(kModelAnalyzer, 1, "resnet,4,8,resnet_config_0,nan,12.5,9.25"), value, 2,
           QStringLiteral("column \"Throughput (infer/sec)\" holds \"nan\", ") + kNotFinite);
    addRow("model_analyzer: Inf", r,
           replaceLine(kModelAnalyzer, 1, "resnet,4,8,resnet_config_0,1200.5,inf,9.25"), value, 2,
           QStringLiteral("column \"p99 Latency (ms)\" holds \"inf\", ") + kNotFinite);
    addRow("model_analyzer: negative", r,
           replaceLine(kModelAnalyzer, 1, "resnet,4,8,resnet_config_0,1200.5,12.5,-9.25"), value, 2,
           QStringLiteral("column \"Avg Latency (ms)\" holds -9.25; ") + kNegative);
    addRow("model_analyzer: duplicate header", r,
           replaceLine(kModelAnalyzer, 0,
                       "Model,Batch,Concurrency,Model Config Path,Throughput (infer/sec),"
                       "p99 Latency (ms),p99 Latency (ms)"),
           format, 1,
           QStringLiteral("the header names column \"p99 Latency (ms)\" twice (fields 6 and 7)"));
    addRow("model_analyzer: nvidia-smi rows appended", r,
           QByteArray(kModelAnalyzer) + "0, 2023/11/22 21:23:17.673, 24.38 W, 0 %\n", format, 4,
           QStringLiteral("the row has 4 fields but the header has 7"));

    // MLPerf LoadGen summary
    r = "mlperf_summary";
    addEncodingRows(r, kMlperfSummary);
    addRow("mlperf_summary: truncated before the scenario", r, QByteArray(kMlperfSummary).left(120),
           format, 0,
           QStringLiteral("not an MLPerf LoadGen summary: no \"MLPerf Results Summary\" title or "
                          "no \"Scenario\" line"));
    addRow("mlperf_summary: truncated in the last value", r, cut(kMlperfSummary, 3), kReads, 11,
           kCutShort);
    addHugeLineRow(r, kMlperfSummary, 4);
    addRow("mlperf_summary: NaN", r, replaceLine(kMlperfSummary, 6, "Samples per second : nan"),
           value, 7, QStringLiteral("\"Samples per second\" holds \"nan\", ") + kNotFinite);
    addRow("mlperf_summary: Inf", r, replaceLine(kMlperfSummary, 9, "Mean latency (ns) : inf"),
           value, 10, QStringLiteral("\"Mean latency (ns)\" holds \"inf\", ") + kNotFinite);
    addRow("mlperf_summary: negative", r, replaceLine(kMlperfSummary, 8, "Min latency (ns) : -5"),
           value, 9, QStringLiteral("\"Min latency (ns)\" holds -5; ") + kNegative);
    addRow("mlperf_summary: duplicate key", r,
           QByteArray(kMlperfSummary) + "Samples per second : 99\n", format, 12,
           QStringLiteral("\"Samples per second\" appears again in \"MLPerf Results Summary\" "
                          "(first on line 7); the file holds more than one summary"));
    addRow("mlperf_summary: two summaries pasted together", r,
           QByteArray(kMlperfSummary) + kMlperfSummary, format, 13,
           QStringLiteral("a second \"MLPerf Results Summary\" title (the first is on line 2)"));

    // MLPerf LoadGen detail log
    r = "mlperf_detail";
    addEncodingRows(r, kMlperfDetail);
    addRow("mlperf_detail: truncated in a record", r, cut(kMlperfDetail, 20), format, 5,
           QStringLiteral("JSON syntax error in a :::MLLOG record at byte"));
    addHugeLineRow(r, kMlperfDetail, 2);
    addRow("mlperf_detail: NaN", r,
           replaceLine(kMlperfDetail, 2,
                       ":::MLLOG {\"key\": \"result_samples_per_second\", \"value\": \"nan\"}"),
           value, 3,
           QStringLiteral("\"result_samples_per_second\" holds \"nan\", which is not a "
                          "non-negative number"));
    addRow("mlperf_detail: Inf", r,
           replaceLine(kMlperfDetail, 2,
                       ":::MLLOG {\"key\": \"result_samples_per_second\", \"value\": 1e999}"),
           value, 3,
           QStringLiteral("a :::MLLOG record holds a number too large to read (number overflow "
                          "parsing '1e999')"));
    addRow("mlperf_detail: negative", r,
           replaceLine(kMlperfDetail, 4,
                       ":::MLLOG {\"key\": \"result_mean_latency_ns\", \"value\": -5}"),
           value, 5,
           QStringLiteral("\"result_mean_latency_ns\" holds -5, which is not a non-negative "
                          "number"));
    addRow("mlperf_detail: duplicate key", r,
           QByteArray(kMlperfDetail) +
               ":::MLLOG {\"key\": \"result_samples_per_second\", \"value\": 99}\n",
           format, 6,
           QStringLiteral("a second \"result_samples_per_second\" record (the first is on line "
                          "3); the log holds more than one run"));
    addRow("mlperf_detail: two logs pasted together", r, QByteArray(kMlperfDetail) + kMlperfDetail,
           format, 6,
           QStringLiteral("a second \"effective_scenario\" record (the first is on line 1)"));

    // MLPerf PTDaemon power log (no header: the duplicate row is a reading stepping back)
    r = "mlperf_spl";
    addEncodingRows(r, kSpl);
    addRow("mlperf_spl: truncated in the date", r, QByteArray(kSpl).left(110), format, 2,
           QStringLiteral("not an MLPerf power log line"));
    addRow("mlperf_spl: truncated in the last cell", r, cut(kSpl, 3), kReads, 2, kCutShort);
    addHugeLineRow(r, kSpl, 2);
    addRow("mlperf_spl: NaN", r,
           replaceLine(kSpl, 1, "Time,01-02-2023 00:00:11.000,Watts,nan,Volts,230.0"), value, 2,
           QStringLiteral("column \"Watts\" holds \"nan\", ") + kNotFinite);
    addRow("mlperf_spl: Inf", r,
           replaceLine(kSpl, 1, "Time,01-02-2023 00:00:11.000,Watts,inf,Volts,230.0"), value, 2,
           QStringLiteral("column \"Watts\" holds \"inf\", ") + kNotFinite);
    addRow("mlperf_spl: negative", r,
           replaceLine(kSpl, 1, "Time,01-02-2023 00:00:11.000,Watts,-5,Volts,230.0"), value, 2,
           QStringLiteral("column \"Watts\" holds -5; ") + kNegative);
    addRow("mlperf_spl: no reading (-1)", r,
           replaceLine(kSpl, 1, "Time,01-02-2023 00:00:11.000,Watts,-1,Volts,230.0"), kReads, 2,
           QStringLiteral("the meter reports no total power (Watts -1)"));
    addRow("mlperf_spl: a repeated earlier reading", r,
           QByteArray(kSpl) + QByteArray(kSpl).split('\n').first() + "\n", kReads, 3,
           QStringLiteral("this reading's time is before the one on the line above"));
    addRow("mlperf_spl: nvidia-smi rows appended", r,
           QByteArray(kSpl) + "0, 2023/11/22 21:23:17.673, 24.38 W, 0 %\n", format, 3,
           QStringLiteral("not an MLPerf power log line: expected \"Time,<date>,Watts,"));

    // Chrome trace / Kineto JSON (no lines: the huge "line" is a huge string token)
    r = "kineto_trace";
    addJsonEncodingRows(
        r, kKineto,
        QStringLiteral("binary data (a NUL byte at byte 7) in what should be a JSON file"));
    addRow("kineto_trace: truncated", r, cut(kKineto, 40), format, 3,
           QStringLiteral("the data ends inside a string"));
    addRow("kineto_trace: huge token", r,
           QByteArray("{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"") + hugeLine() + "\"}]}",
           limit, 1, QStringLiteral("a JSON token longer than 16777216 bytes"));
    addRow("kineto_trace: NaN", r, QByteArray(kKineto).replace("\"ts\": 100", "\"ts\": \"nan\""),
           value, 2, QStringLiteral("\"ts\" holds \"nan\", which is not a number"));
    addRow("kineto_trace: Inf", r, QByteArray(kKineto).replace("\"dur\": 20", "\"dur\": 1e999"),
           value, 2, QStringLiteral("\"dur\" holds \"1e999\", which is not a number"));
    addRow("kineto_trace: negative duration", r,
           QByteArray(kKineto).replace("\"dur\": 20", "\"dur\": -20"), value, 2,
           QStringLiteral("a trace event (\"gemm\") has a negative duration"));
    addRow("kineto_trace: duplicate key", r,
           QByteArray(kKineto).replace("\"ts\": 100,", "\"ts\": 100, \"ts\": 101,"), kReads, 2,
           QStringLiteral("a trace event has the key \"ts\" twice; the last value is used"));
    addRow("kineto_trace: CSV appended", r, QByteArray(kKineto) + kPerfAnalyzer, format, 5,
           QStringLiteral("unexpected data after the end of the trace"));

    // nvidia-smi
    r = "nvidia_smi";
    addEncodingRows(r, kNvidiaSmi);
    addRow("nvidia_smi: truncated in a row", r, cut(kNvidiaSmi, 25), format, 3,
           QStringLiteral("the row has 2 fields but the header has 4"));
    addRow("nvidia_smi: truncated in the last cell", r, cut(kNvidiaSmi, 3), kReads, 3, kCutShort);
    addHugeLineRow(r, kNvidiaSmi, 2);
    addRow("nvidia_smi: NaN", r,
           replaceLine(kNvidiaSmi, 1, "0, 2023/11/22 21:23:17.673, nan W, 0 %"), value, 2,
           QStringLiteral("column \"power.draw [W]\" holds \"nan\", ") + kNotFinite);
    addRow("nvidia_smi: Inf", r,
           replaceLine(kNvidiaSmi, 1, "0, 2023/11/22 21:23:17.673, 24.38 W, inf %"), value, 2,
           QStringLiteral("column \"utilization.gpu [%]\" holds \"inf\", ") + kNotFinite);
    addRow("nvidia_smi: negative", r,
           replaceLine(kNvidiaSmi, 1, "0, 2023/11/22 21:23:17.673, -24.38 W, 0 %"), value, 2,
           QStringLiteral("column \"power.draw [W]\" holds -24.38; ") + kNegative);
    addRow("nvidia_smi: duplicate header", r,
           replaceLine(kNvidiaSmi, 0, "index, timestamp, power.draw [W], power.draw"), format, 1,
           QStringLiteral("the header names column \"power.draw\" twice (fields 3 and 4)"));
    addRow("nvidia_smi: perf_analyzer rows appended", r, QByteArray(kNvidiaSmi) + kPerfAnalyzer,
           format, 4,
           QStringLiteral("column \"timestamp\" holds \"Inferences/Second\", which is not a "
                          "date and time"));

    // Generic sweep CSV (mapping suggested from the header)
    r = "sweep_csv";
    addEncodingRows(r, kSweepCsv);
    addRow("sweep_csv: truncated in a row", r, cut(kSweepCsv, 4), format, 3,
           QStringLiteral("the row has 2 fields but the header has 3"));
    addRow("sweep_csv: truncated in the last cell", r, cut(kSweepCsv, 2), kReads, 3, kCutShort);
    addHugeLineRow(r, kSweepCsv, 2);
    addRow("sweep_csv: NaN", r, replaceLine(kSweepCsv, 1, "1,nan,9"), value, 2,
           QStringLiteral("column \"throughput\" holds \"nan\", ") + kNotFinite);
    addRow("sweep_csv: Inf", r, replaceLine(kSweepCsv, 1, "1,100,inf"), value, 2,
           QStringLiteral("column \"p99 (ms)\" holds \"inf\", ") + kNotFinite);
    addRow("sweep_csv: negative", r, replaceLine(kSweepCsv, 1, "1,-100,9"), value, 2,
           QStringLiteral("column \"throughput\" holds -100; ") + kNegative);
    addRow("sweep_csv: duplicate header", r,
           replaceLine(kSweepCsv, 0, "batch,throughput,throughput"), format, 1,
           QStringLiteral("the header names column \"throughput\" twice (fields 2 and 3)"));
    addRow("sweep_csv: nvidia-smi rows appended", r,
           QByteArray(kSweepCsv) + "0, 2023/11/22 21:23:17.673, 24.38 W, 0 %\n", format, 4,
           QStringLiteral("the row has 4 fields but the header has 3"));

    // DeepLearningExamples result table (the sweep CSV reader with DLE header names)
    r = "dle_table";
    addEncodingRows(r, kDleCsv);
    addRow("dle_table: truncated in a row", r, cut(kDleCsv, 13), format, 3,
           QStringLiteral("the row has 2 fields but the header has 4"));
    addRow("dle_table: NaN", r, replaceLine(kDleCsv, 1, "1,101,nan,9.86"), value, 2,
           QStringLiteral("column \"Latency Avg (ms)\" holds \"nan\", ") + kNotFinite);

    // Generic power CSV
    r = "power_csv";
    addEncodingRows(r, kPowerCsv);
    addRow("power_csv: truncated in a row", r, cut(kPowerCsv, 6), format, 3,
           QStringLiteral("the row has 1 fields but the header has 2"));
    addRow("power_csv: truncated in the last cell", r, cut(kPowerCsv, 3), kReads, 3, kCutShort);
    addHugeLineRow(r, kPowerCsv, 2);
    addRow("power_csv: NaN", r, replaceLine(kPowerCsv, 1, "2024-01-01T00:00:00Z,nan"), value, 2,
           QStringLiteral("column \"power [W]\" holds \"nan\", ") + kNotFinite);
    addRow("power_csv: Inf", r, replaceLine(kPowerCsv, 1, "2024-01-01T00:00:00Z,inf"), value, 2,
           QStringLiteral("column \"power [W]\" holds \"inf\", ") + kNotFinite);
    addRow("power_csv: negative", r, replaceLine(kPowerCsv, 1, "2024-01-01T00:00:00Z,-100.5"),
           value, 2, QStringLiteral("column \"power [W]\" holds -100.5; ") + kNegative);
    addRow("power_csv: utilisation above 100%", r,
           "time,power [W],util %\n2024-01-01T00:00:00Z,100.5,35\n2024-01-01T00:00:01Z,200,135\n",
           value, 3,
           QStringLiteral("column \"util %\" holds a utilisation above 100%; check its unit"));
    addRow("power_csv: duplicate header", r, replaceLine(kPowerCsv, 0, "time,power [W],time"),
           format, 1, QStringLiteral("the header names column \"time\" twice (fields 1 and 3)"));
    addRow("power_csv: request rows appended", r, QByteArray(kPowerCsv) + kRequestCsv, format, 4,
           QStringLiteral("the row has 3 fields but the header has 2"));

    // Generic request-trace CSV
    r = "request_trace_csv";
    addEncodingRows(r, kRequestCsv);
    addRow("request_trace_csv: truncated in a row", r, cut(kRequestCsv, 9), format, 3,
           QStringLiteral("the row has 1 fields but the header has 3"));
    addRow("request_trace_csv: truncated in the last cell", r, cut(kRequestCsv, 3), kReads, 3,
           kCutShort);
    addHugeLineRow(r, kRequestCsv, 2);
    addRow("request_trace_csv: NaN", r, replaceLine(kRequestCsv, 1, "nan,12.5,alpha"), value, 2,
           QStringLiteral("column \"arrival_ms\" holds \"nan\", ") + kNotFinite);
    addRow("request_trace_csv: Inf", r, replaceLine(kRequestCsv, 1, "0,inf,alpha"), value, 2,
           QStringLiteral("column \"completion_ms\" holds \"inf\", ") + kNotFinite);
    addRow("request_trace_csv: negative", r, replaceLine(kRequestCsv, 1, "-3,12.5,alpha"), value, 2,
           QStringLiteral("column \"arrival_ms\" holds -3; ") + kNegative);
    addRow("request_trace_csv: completion before arrival", r,
           replaceLine(kRequestCsv, 2, "1.5,1,beta"), value, 3,
           QStringLiteral("the completion time is before the arrival time"));
    addRow("request_trace_csv: duplicate header", r,
           replaceLine(kRequestCsv, 0, "arrival_ms,completion_ms,arrival_ms"), format, 1,
           QStringLiteral("the header names column \"arrival_ms\" twice (fields 1 and 3)"));
    addRow("request_trace_csv: spl lines appended", r, QByteArray(kRequestCsv) + kSpl, format, 4,
           QStringLiteral("the row has 12 fields but the header has 3"));

    // Azure LLM trace (no final newline in the original)
    r = "azure_llm_trace";
    addEncodingRows(r, kAzure);
    addRow("azure_llm_trace: truncated in a row", r, cut(kAzure, 2), format, 3,
           QStringLiteral("the row has 2 fields but the header has 3"));
    addHugeLineRow(r, kAzure, 2);
    addRow("azure_llm_trace: NaN", r, replaceLine(kAzure, 1, "2023-11-16 18:17:03.9799600,nan,10"),
           value, 2, QStringLiteral("column \"ContextTokens\" holds \"nan\", ") + kNotFinite);
    addRow("azure_llm_trace: Inf", r,
           replaceLine(kAzure, 1, "2023-11-16 18:17:03.9799600,4808,inf"), value, 2,
           QStringLiteral("column \"GeneratedTokens\" holds \"inf\", ") + kNotFinite);
    addRow("azure_llm_trace: negative", r,
           replaceLine(kAzure, 1, "2023-11-16 18:17:03.9799600,-4808,10"), value, 2,
           QStringLiteral("column \"ContextTokens\" holds -4808; ") + kNegative);
    addRow("azure_llm_trace: date before 1970", r,
           replaceLine(kAzure, 1, "1969-12-31 23:59:59.5,4808,10"), value, 2,
           QStringLiteral("column \"TIMESTAMP\" holds \"1969-12-31 23:59:59.5\", before "
                          "1970-01-01"));
    addRow("azure_llm_trace: duplicate header", r,
           replaceLine(kAzure, 0, "TIMESTAMP,ContextTokens,ContextTokens"), format, 1,
           QStringLiteral("the header names column \"ContextTokens\" twice (fields 2 and 3)"));
    addRow("azure_llm_trace: perf_analyzer rows appended", r,
           QByteArray(kAzure) + "\n" + kPerfAnalyzer, format, 4,
           QStringLiteral("the row has 4 fields but the header has 3"));

    // BurstGPT trace
    r = "burstgpt_trace";
    addEncodingRows(r, kBurstGpt);
    addHugeLineRow(r, kBurstGpt, 2);
    addRow("burstgpt_trace: NaN", r, replaceLine(kBurstGpt, 1, "nan,ChatGPT,472,18,490,API log"),
           value, 2, QStringLiteral("column \"Timestamp\" holds \"nan\", ") + kNotFinite);
    addRow("burstgpt_trace: negative", r,
           replaceLine(kBurstGpt, 1, "5,ChatGPT,-472,18,490,API log"), value, 2,
           QStringLiteral("column \"Request tokens\" holds -472; ") + kNegative);

    // JSON Lines request traces
    for (const auto& [reader, valid] :
         {std::pair{"mooncake_trace", kMooncake}, std::pair{"bailian_trace", kBailian}}) {
        addEncodingRows(reader, valid);
        addHugeLineRow(reader, valid, 2);
        const QByteArray name = QByteArray(reader) + ": ";
        addRow(
            QByteArray(name + "negative timestamp").constData(), reader,
            replaceLine(valid, 1, "{\"timestamp\": -1, \"input_length\": 1, \"output_length\": 1}"),
            value, 2, QStringLiteral("\"timestamp\" holds -1; ") + kNegative);
        addRow(QByteArray(name + "NaN (not JSON)").constData(), reader,
               replaceLine(valid, 1,
                           "{\"timestamp\": NaN, \"input_length\": 1, \"output_length\": 1}"),
               format, 2, QStringLiteral("not a JSON object"));
        addRow(QByteArray(name + "fractional tokens").constData(), reader,
               replaceLine(valid, 1,
                           "{\"timestamp\": 1, \"input_length\": 1.5, \"output_length\": 1}"),
               value, 2, QStringLiteral("a token count is a whole number"));
        addRow(QByteArray(name + "CSV rows appended").constData(), reader,
               QByteArray(valid) + kBurstGpt, format, 3, QStringLiteral("not a JSON object"));
    }

    // LLM serving benchmark results (vLLM, SGLang), one run per line
    r = "llm_benchmark";
    addEncodingRows(r, kLlmBenchmark);
    addHugeLineRow(r, kLlmBenchmark, 2);
    addRow("llm_benchmark: negative TTFT", r,
           replaceLine(kLlmBenchmark, 1,
                       "{\"backend\": \"sglang\", \"completed\": 1, \"duration\": 2.0, "
                       "\"median_ttft_ms\": -5.0, \"median_e2e_latency_ms\": 9.0}"),
           value, 2,
           QStringLiteral("\"median_ttft_ms\" holds -5.0, which is not a non-negative finite "
                          "number"));
    addRow("llm_benchmark: CSV rows appended", r, QByteArray(kLlmBenchmark) + kBurstGpt, format, 3,
           QStringLiteral("not a JSON object"));

    // Serving engine request logs (JSON Lines) and engine state series (CSV)
    r = "llm_request_log";
    addEncodingRows(r, kRequestLog);
    addHugeLineRow(r, kRequestLog, 2);
    addRow("llm_request_log: negative queued_ts", r,
           replaceLine(kRequestLog, 1,
                       "{\"request_id\": \"b\", \"input_toks\": 1, \"output_toks\": 1, "
                       "\"queued_ts\": -1, \"scheduled_ts\": 0, \"first_token_ts\": 0, "
                       "\"last_token_ts\": 0}"),
           value, 2,
           QStringLiteral("\"queued_ts\" holds -1, not a non-negative number of seconds"));
    addRow("llm_request_log: last token before first", r,
           replaceLine(kRequestLog, 1,
                       "{\"request_id\": \"b\", \"input_toks\": 1, \"output_toks\": 1, "
                       "\"queued_ts\": 1, \"scheduled_ts\": 1, \"first_token_ts\": 3, "
                       "\"last_token_ts\": 2}"),
           value, 2, QStringLiteral("\"last_token_ts\" comes before \"first_token_ts\""));
    addRow("llm_request_log: key missing", r,
           replaceLine(kRequestLog, 1, "{\"request_id\": \"b\", \"queued_ts\": 1}"), format, 2,
           QStringLiteral("no \"first_token_ts\""));
    addRow("llm_request_log: CSV rows appended", r, QByteArray(kRequestLog) + kBurstGpt, format, 3,
           QStringLiteral("not a JSON object"));
    addRow("llm_request_log: cut short", r, QByteArray(kRequestLog).chopped(1), kReads, 2,
           kCutShort);
    // GenAI-Perf / AIPerf exports: one pretty-printed JSON document
    r = "genai_perf";
    addJsonEncodingRows(
        r, kGenAiPerf,
        QStringLiteral("binary data (a NUL byte) in what should be a text or JSON file"));
    addRow("genai_perf: truncated", r, cut(kGenAiPerf, 2), format, 4,
           QStringLiteral("JSON syntax error"));
    addRow("genai_perf: Inf", r, QByteArray(kGenAiPerf).replace("50.0", "1e999"), value, 3,
           QStringLiteral("the number 1e999 is too large to hold"));
    // Found by mutating the fixtures: a unit that is a number threw out of the reader.
    addRow("genai_perf: numeric unit", r, QByteArray(kGenAiPerf).replace("\"ms\"", "7"), format, 0,
           QStringLiteral("\"time_to_first_token.unit\" is 7, not a time unit"));
    addRow("genai_perf: a vLLM result", r, kLlmBenchmark, format, 2,
           QStringLiteral("JSON syntax error"));
    // LLMPerf summary / individual responses: one JSON document
    r = "llmperf";
    addJsonEncodingRows(r, kLlmPerf,
                        QStringLiteral("binary data (a NUL byte) in what should be a text or "
                                       "JSON file"));
    addRow("llmperf: negative end-to-end latency", r, QByteArray(kLlmPerf).replace("2.3", "-2.3"),
           value, 0, QStringLiteral("\"request 0.end_to_end_latency_s\" holds -2.3"));
    addRow("llmperf: fractional token count", r, QByteArray(kLlmPerf).replace("100", "99.5"), value,
           0,
           QStringLiteral("\"request 0.number_output_tokens\" holds 99.5, not a token "
                          "count"));
    // Model Analyzer checkpoint: one JSON document
    r = "model_analyzer_checkpoint";
    addJsonEncodingRows(r, kModelAnalyzerCheckpoint,
                        QStringLiteral("binary data (a NUL byte) in what should be a text or "
                                       "JSON file"));
    addRow("model_analyzer_checkpoint: truncated", r, cut(kModelAnalyzerCheckpoint, 3), format, 7,
           QStringLiteral("JSON syntax error"));
    addRow("model_analyzer_checkpoint: negative throughput", r,
           QByteArray(kModelAnalyzerCheckpoint).replace("2500.0", "-2500.0"), value, 0,
           QStringLiteral("the record \"perf_throughput\" has no non-negative \"_value\""));
    addRow("model_analyzer_checkpoint: batch size 0", r,
           QByteArray(kModelAnalyzerCheckpoint).replace("\"batch-size\": 1", "\"batch-size\": 0"),
           value, 0, QStringLiteral("\"batch-size\" must be from 1 to 1,000,000"));
    addRow("model_analyzer_checkpoint: a Kineto trace", r, kKineto, format, 0,
           QStringLiteral("not a Model Analyzer checkpoint"));
    // trtllm-bench report: one JSON document
    r = "trtllm_bench";
    addJsonEncodingRows(r, kTrtllmBench,
                        QStringLiteral("binary data (a NUL byte) in what should be a text or "
                                       "JSON file"));
    addRow("trtllm_bench: truncated", r, cut(kTrtllmBench, 3), format, 3,
           QStringLiteral("JSON syntax error"));
    addRow("trtllm_bench: batch size 0", r, QByteArray(kTrtllmBench).replace(": 64", ": 0"), value,
           0, QStringLiteral("\"world_info.max_batch_size\" holds 0, not a whole positive number"));
    // vLLM benchmark CI result table: one JSON array
    r = "vllm_result_table";
    addJsonEncodingRows(r, kVllmResultTable,
                        QStringLiteral("binary data (a NUL byte) in what should be a text or "
                                       "JSON file"));
    addRow("vllm_result_table: truncated", r, cut(kVllmResultTable, 1), format, 1,
           QStringLiteral("JSON syntax error"));
    addRow("vllm_result_table: negative TTFT", r,
           QByteArray(kVllmResultTable).replace("49.5", "-49.5"), value, 0,
           QStringLiteral("row 1 (\"tp8_pp1_qps_04\"): \"Median TTFT (ms)\""));
    addRow("vllm_result_table: rate 0", r, QByteArray(kVllmResultTable).replace("qps_04", "qps_0"),
           value, 0, QStringLiteral("whose \"qps_0\" is not a rate or a count above 0"));
    addRow("vllm_result_table: output above total", r,
           QByteArray(kVllmResultTable).replace("1351.0", "351.0"), value, 0,
           QStringLiteral("\"Output Tput (tok/s)\" exceeds \"Total Tput (tok/s)\""));
    addRow("vllm_result_table: fractional count", r,
           QByteArray(kVllmResultTable).replace(": 200", ": 200.5"), value, 0,
           QStringLiteral("\"# of req.\" holds 200.5, not a whole number"));
    addRow("vllm_result_table: a count too large to hold", r,
           QByteArray(kVllmResultTable).replace(": 200", ": 1e300"), value, 0,
           QStringLiteral("\"# of req.\" holds 1e+300, not a whole number"));
    addRow("vllm_result_table: a fractional concurrency", r,
           QByteArray(kVllmResultTable).replace("qps_04", "qps_04_concurrency_1.5"), value, 0,
           QStringLiteral("whose \"concurrency_1.5\" is not a rate or a count above 0"));
    addRow("vllm_result_table: no serving test", r,
           QByteArray(kVllmResultTable).replace("Tput (req/s)", "Mean latency (ms)"), format, 0,
           QStringLiteral("the table holds no serving test"));
    addRow("vllm_result_table: an LLMPerf file", r, kLlmPerf, format, 0,
           QStringLiteral("not a vLLM benchmark result table"));
    // AIPerf per-request records (JSON Lines) and profile export CSV
    r = "aiperf_records";
    addEncodingRows(r, kAiperfRecords);
    addHugeLineRow(r, kAiperfRecords, 2);
    addRow("aiperf_records: end before start", r,
           QByteArray(kAiperfRecords).replace("\"request_end_ns\":6000", "\"request_end_ns\":1"),
           value, 2, QStringLiteral("\"metadata.request_end_ns\" comes before"));
    // Found by mutating the fixture: an overflowing number threw out of every JSON Lines reader.
    addRow("aiperf_records: 1e999", r, QByteArray(kAiperfRecords).replace("2.5", "1e999"), value, 2,
           QStringLiteral("the number 1e999 is too large to hold"));
    addRow("aiperf_records: cut short", r, QByteArray(kAiperfRecords).chopped(1), kReads, 2,
           kCutShort);
    r = "genai_perf_csv";
    addEncodingRows(r, kGenAiPerfCsv);
    addHugeLineRow(r, kGenAiPerfCsv, 2);
    addRow("genai_perf_csv: NaN p99", r, QByteArray(kGenAiPerfCsv).replace("90.0", "nan"), value, 2,
           QStringLiteral("\"time_to_first_token.p99\" holds \"nan\", not a finite number"));
    addRow("genai_perf_csv: cut short", r, QByteArray(kGenAiPerfCsv).chopped(1), kReads, 5,
           kCutShort);
    r = "llm_engine_series";
    addEncodingRows(r, kEngineSeries);
    addHugeLineRow(r, kEngineSeries, 3);
    addRow("llm_engine_series: NaN running", r,
           replaceLine(kEngineSeries, 2, "2.0,20.0,2.0,nan,1,10.0"), value, 3, kNotFinite);
    addRow("llm_engine_series: negative KV use", r,
           replaceLine(kEngineSeries, 2, "2.0,20.0,2.0,1,1,-10.0"), value, 3, kNegative);
    addRow("llm_engine_series: time repeats", r,
           replaceLine(kEngineSeries, 2, "1.0,20.0,2.0,1,1,10.0"), value, 3,
           QStringLiteral("t goes back or repeats"));
    addRow("llm_engine_series: column missing", r,
           replaceLine(kEngineSeries, 0, "t,prompt_throughput,gen_throughput,running,waiting"),
           format, 1, QStringLiteral("no \"kv_cache_pct\" column"));
    addRow("llm_engine_series: cut short", r, QByteArray(kEngineSeries).chopped(1), kReads, 3,
           kCutShort);
}

void TestIoBadInput::badInput()
{
    QFETCH(QString, reader);
    QFETCH(QByteArray, content);
    QFETCH(int, code);
    QFETCH(qint64, line);
    QFETCH(QString, fragment);
    QFETCH(QByteArray, sameAs);

    const QString tag = QString::fromLatin1(QTest::currentDataTag());
    const QString name = QStringLiteral("input.dat");
    auto write = [this, &name](const QString& folder, const QByteArray& bytes) {
        QDir(m_dir.path()).mkpath(folder);
        const QString path = m_dir.filePath(folder + QLatin1Char('/') + name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
            return QString();
        return path;
    };
    const QString path = write(tag, content);
    QVERIFY(!path.isEmpty());
    io::ReadOptions options;
    options.format = reader.toStdString();
    auto read = io::readDataset(path.toStdString(), options);
    QFile::remove(path); // the huge-line files are 17 MiB each

    if (code != kReads) {
        QVERIFY2(!read, "read, but an error was expected");
        const Error& error = read.error();
        const QString message = QString::fromStdString(error.message);
        QVERIFY2(message.contains(fragment), qPrintable(test::whereAndWhy(error)));
        QCOMPARE(int(error.code), code);
        if (line >= 0)
            QCOMPARE(error.line, line);
        QCOMPARE(QString::fromStdString(error.path), QFileInfo(path).absoluteFilePath());
        return;
    }
    BS_VERIFY_READ(read);
    if (!fragment.isEmpty()) {
        const auto& warnings = read->provenance.warnings;
        const auto found = std::find_if(warnings.begin(), warnings.end(), [&](const auto& w) {
            return QString::fromStdString(w.message).contains(fragment);
        });
        QVERIFY2(found != warnings.end(), qPrintable(test::warningLines(*read).join(u'\n')));
        if (line >= 0)
            QCOMPARE(found->line, line);
    }
    if (!sameAs.isEmpty()) {
        const QString cleanPath = write(tag + QStringLiteral(" (clean)"), sameAs);
        auto clean = io::readDataset(cleanPath.toStdString(), options);
        BS_VERIFY_READ(clean);
        QCOMPARE(read->kind, clean->kind);
        QCOMPARE(contentText(*read), contentText(*clean));
        QCOMPARE(test::warningLines(*read), test::warningLines(*clean));
    }
}

// A reader added to the registry must be added to the corpus above.
void TestIoBadInput::everyReaderIsCovered()
{
    QStringList covered = {
        QStringLiteral("perf_analyzer"),     QStringLiteral("model_analyzer"),
        QStringLiteral("mlperf_summary"),    QStringLiteral("mlperf_detail"),
        QStringLiteral("mlperf_spl"),        QStringLiteral("kineto_trace"),
        QStringLiteral("nvidia_smi"),        QStringLiteral("sweep_csv"),
        QStringLiteral("dle_table"),         QStringLiteral("power_csv"),
        QStringLiteral("request_trace_csv"), QStringLiteral("azure_llm_trace"),
        QStringLiteral("burstgpt_trace"),    QStringLiteral("mooncake_trace"),
        QStringLiteral("bailian_trace"),     QStringLiteral("llm_benchmark"),
        QStringLiteral("llm_request_log"),   QStringLiteral("llm_engine_series"),
        QStringLiteral("genai_perf"),        QStringLiteral("llmperf"),
        QStringLiteral("trtllm_bench"),      QStringLiteral("aiperf_records"),
        QStringLiteral("genai_perf_csv"),    QStringLiteral("model_analyzer_checkpoint"),
        QStringLiteral("vllm_result_table")};
    QStringList registered;
    for (const auto& info : io::availableReaders())
        registered << QString::fromStdString(info.name);
    covered.sort();
    registered.sort();
    QCOMPARE(registered, covered);
}

QTEST_APPLESS_MAIN(TestIoBadInput)
#include "tst_io_badinput.moc"
