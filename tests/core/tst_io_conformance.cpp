// Conformance on the real files in the shared data folder (see its README): every file is read
// (or rejected with a clear error), and figures are checked against the files themselves,
// counted or parsed here another way (Qt's JSON parser, QDateTime, plain string splitting).
#include "io/datasetsummary.h"
#include "iotesthelpers.h"
#include "util/sha256.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <cmath>

using namespace bs;

namespace {

/// What each file in the folder must give: a reader name, or "rejected".
struct Expectation
{
    const char* pattern;
    const char* reader;
};

const Expectation kExpectations[] = {
    {R"(^README\.md$)", "rejected"},
    {R"(^arrival_traces/.*\.csv$)", "azure_llm_trace"},
    {R"(^kineto_traces/.*\.json\.gz$)", "kineto_trace"},
    // LLM serving runs: the MLPerf LoadGen logs are read by the MLPerf readers, the LLM
    // benchmark formats (vLLM results and CI tables, SGLang, GenAI-Perf, AIPerf, LLMPerf, engine
    // logs) by theirs; every other file there is refused with a clear error, checked here.
    {R"(^llm/.*/mlperf_log_detail\.txt$)", "mlperf_detail"},
    {R"(^llm/.*/mlperf_log_summary\.txt$)", "mlperf_summary"},
    {R"(^llm/llm-k8s/.*/serving_.*\.json$)", "llm_benchmark"},
    {R"(^llm/llm-k8s/.*/benchmark_results\.json$)", "vllm_result_table"},
    {R"(^llm/h200-benchmarks/sglang/.*\.jsonl$)", "llm_benchmark"},
    {R"(^llm/k8s-dev/bench/.*/profile_export_(genai_perf|aiperf)\.json$)", "genai_perf"},
    {R"(^llm/llmperf-leaderboard/raw_data/.*\.json$)", "llmperf"},
    {R"(^llm/llmservingsim/.*/vllm/requests\.jsonl$)", "llm_request_log"},
    {R"(^llm/llmservingsim/.*/vllm/timeseries\.csv$)", "llm_engine_series"},
    {R"(^llm/)", "rejected"},
    {R"(^mlperf/.*/mlperf_log_summary\.txt$)", "mlperf_summary"},
    {R"(^mlperf/.*/mlperf_log_detail\.txt$)", "mlperf_detail"},
    {R"(^mlperf/.*/spl\.txt$)", "mlperf_spl"},
    {R"(^mlperf/.*\.(json|conf|log)$)", "rejected"},
    {R"(^mlperf/.*/(analyzer_table\.csv|ptd_logs\.txt)$)", "rejected"},
    {R"(^power_logs/.*/nvidia_output_\d+\.log$)", "nvidia_smi"},
    {R"(^power_logs/.*/(nvidia_spec|pyjoules_output).*\.log$)", "rejected"},
    {R"(^triton/model_analyzer/.*/golden-metrics-.*\.csv$)", "model_analyzer"},
    {R"(^triton/model_analyzer/.*\.ckpt$)", "model_analyzer_checkpoint"},
    {R"(^triton/perf_analyzer/.*\.csv$)", "perf_analyzer"},
    {R"(^triton/perf_analyzer/.*\.log$)", "rejected"},
};

QString expectedReader(const QString& relative)
{
    for (const auto& e : kExpectations) {
        if (QRegularExpression(QString::fromLatin1(e.pattern)).match(relative).hasMatch())
            return QString::fromLatin1(e.reader);
    }
    return {};
}

QStringList allFiles(const QString& root)
{
    QStringList files;
    QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        files << QDir(root).relativeFilePath(it.next());
    files.sort();
    return files;
}

/// Decompressed bytes of a file (gzip or plain) through the byte source.
QByteArray decompressed(const QString& path)
{
    auto source = io::openByteSource(path.toStdString());
    if (!source)
        return {};
    auto text = io::readAll(**source, std::uint64_t(1) << 30);
    return text ? QByteArray::fromStdString(*text) : QByteArray();
}

/// "MM-DD-YYYY HH:MM:SS.mmm" as Unix seconds, by QDateTime.
double splTime(const QString& text)
{
    auto t = QDateTime::fromString(text, QStringLiteral("MM-dd-yyyy HH:mm:ss.zzz"));
    t.setTimeSpec(Qt::UTC);
    return double(t.toMSecsSinceEpoch()) / 1000.0;
}

/// Mean of the spl.txt total power over [begin, end], parsed here by splitting lines.
std::pair<double, int> splMean(const QString& path, double begin, double end)
{
    double sum = 0.0;
    int n = 0;
    for (const auto& line : test::readFile(path).split('\n')) {
        const auto f = QString::fromLatin1(line).split(QLatin1Char(','));
        if (f.size() < 4)
            continue;
        const double t = splTime(f[1]);
        if (t >= begin && t <= end && f[3].toDouble() != -1.0) { // -1: no reading
            sum += f[3].toDouble();
            ++n;
        }
    }
    return {n ? sum / n : 0.0, n};
}

QString metadata(const data::Dataset& d, const char* key)
{
    const auto& m = d.sweep()->metadata;
    const auto it = m.find(key);
    return it == m.end() ? QString() : QString::fromStdString(it->second);
}

} // namespace

class TestIoConformance : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyFileIsReadOrRejected();
    void mlperfSummaryEqualsDetail();
    void mlperfPowerWindowMatchesSpl();
    void olderMlperfLogs();
    void kinetoCountsMatchQJsonDocument();
    void cpuOnlyTraceHasNoDeviceEvents();
    void perfAnalyzerRowsAndRuns();
    void modelAnalyzerJoin();

private:
    void checkpointAgreesWithTheReport(const QString& dir, const QList<QByteArray>& reportLines);

private Q_SLOTS:
    void azureTrace();
    void nvidiaSmiLog();
};

void TestIoConformance::everyFileIsReadOrRejected()
{
    BS_REQUIRE_SHARED_DATA(root);
    const QStringList files = allFiles(root);
    QVERIFY2(files.size() > 50, "the shared data folder looks incomplete");
    int sweeps = 0;
    QStringList unitWarnings;
    for (const auto& relative : files) {
        const QString expected = expectedReader(relative);
        QVERIFY2(
            !expected.isEmpty(),
            qPrintable(
                QStringLiteral("no expectation for %1: add one to kExpectations").arg(relative)));
        auto read = io::readDataset(QString(root + QLatin1Char('/') + relative).toStdString());
        if (expected == QStringLiteral("rejected")) {
            QVERIFY2(!read, qPrintable(relative + QStringLiteral(" should not be read")));
            const auto code = read.error().code;
            QVERIFY2(code == ErrorCode::Unsupported || code == ErrorCode::Format,
                     qPrintable(QString::fromStdString(read.error().toString())));
            QVERIFY(!read.error().message.empty());
            continue;
        }
        QVERIFY2(read, qPrintable(relative + QStringLiteral(": ") + test::describe(read)));
        QCOMPARE(QString::fromStdString(read->provenance.reader), expected);
        QCOMPARE(read->provenance.sha256,
                 *sha256OfFile(QString(root + QLatin1Char('/') + relative).toStdString()));
        if (!read->sweep())
            continue;
        // Issue 17: the latency unit cross-check raises no false alarm on real measurements.
        ++sweeps;
        for (const auto& w : read->provenance.warnings) {
            const std::string& m = w.message;
            if (m.find("stated unit") != std::string::npos ||
                m.find("gives no unit") != std::string::npos)
                unitWarnings << relative + QStringLiteral(": ") + QString::fromStdString(m);
        }
    }
    qInfo("latency units cross-checked in %d real sweep files; %lld warned", sweeps,
          qlonglong(unitWarnings.size()));
    for (const auto& w : unitWarnings)
        qInfo("%s", qPrintable(w));
    QVERIFY(sweeps >= 10);
    QVERIFY2(unitWarnings.isEmpty(), qPrintable(unitWarnings.join(QLatin1Char('\n'))));
}

void TestIoConformance::mlperfSummaryEqualsDetail()
{
    BS_REQUIRE_SHARED_DATA(root);
    int pairs = 0;
    for (const auto& relative : allFiles(root + QStringLiteral("/mlperf/inference_results_v2.0"))) {
        if (!relative.endsWith(QStringLiteral("mlperf_log_summary.txt")))
            continue;
        const QString dir =
            root + QStringLiteral("/mlperf/inference_results_v2.0/") + QFileInfo(relative).path();
        auto summary =
            io::readDataset(QString(dir + QStringLiteral("/mlperf_log_summary.txt")).toStdString());
        auto detail =
            io::readDataset(QString(dir + QStringLiteral("/mlperf_log_detail.txt")).toStdString());
        BS_VERIFY_READ(summary);
        BS_VERIFY_READ(detail);
        const auto& s = summary->sweep()->points.at(0);
        const auto& d = detail->sweep()->points.at(0);
        // Latencies are whole nanoseconds in both logs: equal exactly.
        QCOMPARE(*s.latencyP99S, *d.latencyP99S);
        QCOMPARE(*s.latencyP50S, *d.latencyP50S);
        QCOMPARE(*s.latencyP90S, *d.latencyP90S);
        QCOMPARE(*s.latencyP999S, *d.latencyP999S);
        QCOMPARE(*s.latencyMeanS, *d.latencyMeanS);
        // The detail log rounds the Server QPS to a whole number.
        QVERIFY2(std::fabs(*s.throughputPerS - *d.throughputPerS) <= 0.5, qPrintable(dir));
        QCOMPARE(metadata(*summary, "scenario"), metadata(*detail, "scenario"));
        QCOMPARE(metadata(*summary, "result_validity"), metadata(*detail, "result_validity"));
        QCOMPARE(metadata(*summary, "target_qps"), metadata(*detail, "target_qps"));
        QCOMPARE(metadata(*summary, "early_stopping_satisfied"),
                 metadata(*detail, "early_stopping_satisfied"));
        // And the summary's p99 is the number written in its own text.
        const QString text =
            QString::fromLatin1(test::readFile(dir + QStringLiteral("/mlperf_log_summary.txt")));
        const auto match =
            QRegularExpression(QStringLiteral(R"(99\.00 percentile latency \(ns\)\s*:\s*(\d+))"))
                .match(text);
        QVERIFY(match.hasMatch());
        QCOMPARE(*s.latencyP99S, match.captured(1).toDouble() / 1e9);
        ++pairs;
    }
    QCOMPARE(pairs, 8);
}

void TestIoConformance::mlperfPowerWindowMatchesSpl()
{
    BS_REQUIRE_SHARED_DATA(root);
    int checked = 0, skippedRanging = 0;
    for (const auto& relative : allFiles(root + QStringLiteral("/mlperf/inference_results_v2.0"))) {
        if (!relative.endsWith(QStringLiteral("mlperf_log_detail.txt")))
            continue;
        const QString dir =
            root + QStringLiteral("/mlperf/inference_results_v2.0/") + QFileInfo(relative).path();
        auto detail =
            io::readDataset(QString(dir + QStringLiteral("/mlperf_log_detail.txt")).toStdString());
        BS_VERIFY_READ(detail);
        const double begin = splTime(metadata(*detail, "power_begin"));
        const double end = splTime(metadata(*detail, "power_end"));
        const auto [mean, readings] = splMean(dir + QStringLiteral("/spl.txt"), begin, end);
        const auto& p = detail->sweep()->points.at(0);
        if (readings < 100) {
            // bert-99 ranging runs: the meter gave no totals (-1) for most of the window, so
            // no average power is claimed.
            QVERIFY(!p.powerW);
            QVERIFY(relative.contains(QStringLiteral("bert-99")) &&
                    relative.contains(QStringLiteral("ranging")));
            QVERIFY(test::warningLines(*detail)
                        .join(QLatin1Char('\n'))
                        .contains(QStringLiteral("power is not reported")));
            ++skippedRanging;
            continue;
        }
        QVERIFY(readings > 100);
        QVERIFY2(std::fabs(*p.powerW - mean) < 1e-9 * mean, qPrintable(dir));
        QCOMPARE(metadata(*detail, "power_readings"), QString::number(readings));
        const double samples = double(*p.sampleCount);
        QVERIFY(std::fabs(*p.energyPerInferenceJ - mean * (end - begin) / samples) <
                1e-6 * *p.energyPerInferenceJ);
        // Multi-channel meter: the total is the sum of three channels.
        QCOMPARE(metadata(*detail, "meter_channels"), QStringLiteral("3"));
        ++checked;
    }
    QCOMPARE(checked, 6);
    QCOMPARE(skippedRanging, 2);
}

void TestIoConformance::olderMlperfLogs()
{
    BS_REQUIRE_SHARED_DATA(root);
    const QString base =
        root +
        QStringLiteral("/mlperf/inference_results_v0.7/closed/NVIDIA/results/T4x8_TRT/resnet50/");
    for (const char* run :
         {"Offline/performance/run_1", "Server/performance/run_1", "Server/performance/run_5"}) {
        const QString dir = base + QString::fromLatin1(run);
        auto summary =
            io::readDataset(QString(dir + QStringLiteral("/mlperf_log_summary.txt")).toStdString());
        auto detail =
            io::readDataset(QString(dir + QStringLiteral("/mlperf_log_detail.txt")).toStdString());
        BS_VERIFY_READ(summary);
        BS_VERIFY_READ(detail);
        QCOMPARE(metadata(*detail, "loadgen_log_form"), QStringLiteral("text (pre-v1.0)"));
        QCOMPARE(metadata(*summary, "scenario"), metadata(*detail, "scenario"));
        QCOMPARE(metadata(*summary, "target_qps"), metadata(*detail, "target_qps"));
        QVERIFY(!metadata(*detail, "power_begin").isEmpty());
        QVERIFY(summary->sweep()->points[0].latencyP99S.has_value());
    }
}

void TestIoConformance::kinetoCountsMatchQJsonDocument()
{
    BS_REQUIRE_SHARED_DATA(root);
    int traces = 0;
    for (const auto& relative : allFiles(root + QStringLiteral("/kineto_traces"))) {
        const QString path = root + QStringLiteral("/kineto_traces/") + relative;
        const auto doc = QJsonDocument::fromJson(decompressed(path));
        QVERIFY(doc.isObject());
        int kernels = 0, memcpy = 0, kept = 0, flows = 0;
        for (const auto& v : doc.object().value(QStringLiteral("traceEvents")).toArray()) {
            const auto e = v.toObject();
            const QString ph = e.value(QStringLiteral("ph")).toString();
            const QString cat = e.value(QStringLiteral("cat")).toString().toLower();
            kernels += ph == QStringLiteral("X") && cat == QStringLiteral("kernel");
            memcpy += ph == QStringLiteral("X") &&
                      (cat == QStringLiteral("gpu_memcpy") || cat == QStringLiteral("memcpy"));
            flows += ph == QStringLiteral("s") || ph == QStringLiteral("f");
            kept += ph == QStringLiteral("X") || ph == QStringLiteral("i") ||
                    ph == QStringLiteral("s") || ph == QStringLiteral("f");
        }
        auto read = io::readDataset(path.toStdString());
        BS_VERIFY_READ(read);
        const auto summary = io::summarizeDataset(*read);
        const auto& byCategory = summary["key_figures"]["events_by_category"];
        QCOMPARE(summary["key_figures"]["kernel_count"].get<int>(), kernels);
        QCOMPARE(byCategory.value("memcpy", 0), memcpy);
        QCOMPARE(byCategory.value("flow", 0), flows);
        QCOMPARE(int(read->kernelTrace()->events.size()), kept);
        ++traces;
    }
    QCOMPARE(traces, 5);
}

void TestIoConformance::cpuOnlyTraceHasNoDeviceEvents()
{
    BS_REQUIRE_SHARED_DATA(root);
    const QString path =
        root +
        QStringLiteral("/kineto_traces/hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz");
    auto read = io::readDataset(path.toStdString());
    BS_VERIFY_READ(read);
    const auto t = read->kernelTrace();
    QVERIFY(!t->events.empty());
    for (const auto& e : t->events)
        QCOMPARE(e.device, std::int16_t(-1));
    QCOMPARE(io::gpuBusyTimeS(*t), 0.0);
    QVERIFY(test::warningLines(*read).contains(
        QStringLiteral("0: the trace has no device (GPU) events")));
}

void TestIoConformance::perfAnalyzerRowsAndRuns()
{
    BS_REQUIRE_SHARED_DATA(root);
    const QString dir =
        root + QStringLiteral("/triton/perf_analyzer/Mutinifni_DeepLearningExamples/PyTorch/"
                              "Forecasting/TFT/runner_workspace/executor/shared/");
    for (const char* name : {"triton_performance_offline.csv", "triton_performance_online.csv"}) {
        const QString path = dir + QString::fromLatin1(name);
        int headers = 0;
        QList<QStringList> rows;
        for (const auto& line : test::readFile(path).split('\n')) {
            const QString text = QString::fromLatin1(line).trimmed();
            if (text.isEmpty())
                continue;
            if (text.startsWith(QStringLiteral("Batch")))
                ++headers;
            else
                rows << text.split(QLatin1Char(','));
        }
        auto read = io::readDataset(path.toStdString());
        BS_VERIFY_READ(read);
        const auto& points = read->sweep()->points;
        QCOMPARE(int(points.size()), rows.size());
        QCOMPARE(metadata(*read, "runs"), QString::number(headers));
        for (int i = 0; i < rows.size(); ++i) {
            QCOMPARE(points[std::size_t(i)].batchSize, rows[i][0].toInt());
            QCOMPARE(*points[std::size_t(i)].throughputPerS, rows[i][2].toDouble());
            QCOMPARE(*points[std::size_t(i)].latencyP99S, rows[i][13].toDouble() / 1e6);
        }
    }
}

void TestIoConformance::modelAnalyzerJoin()
{
    BS_REQUIRE_SHARED_DATA(root);
    for (const char* run : {"single-model-ckpt", "request-rate-ckpt"}) {
        const QString dir = root + QStringLiteral("/triton/model_analyzer/tests/common/") +
                            QString::fromLatin1(run);
        // model/config/batch/load -> power, from the GPU file by plain splitting.
        QHash<QString, double> power;
        for (const auto& line :
             test::readFile(dir + QStringLiteral("/golden-metrics-model-gpu.csv"))
                 .split('\n')
                 .mid(1)) {
            const auto f = QString::fromLatin1(line).split(QLatin1Char(','));
            if (f.size() == 10)
                power[f[0] + f[4] + f[2] + QLatin1Char('/') + f[3]] += f[9].toDouble();
        }
        const QString inference = dir + QStringLiteral("/golden-metrics-model-inference.csv");
        auto read = io::readDataset(inference.toStdString());
        BS_VERIFY_READ(read);
        const auto lines =
            test::readFile(dir + QStringLiteral("/golden-metrics-model-inference.csv"))
                .trimmed()
                .split('\n');
        QCOMPARE(int(read->sweep()->points.size()), lines.size() - 1);
        for (int i = 1; i < lines.size(); ++i) {
            const auto f = QString::fromLatin1(lines[i]).split(QLatin1Char(','));
            const auto& p = read->sweep()->points[std::size_t(i - 1)];
            QCOMPARE(*p.throughputPerS, f[7].toDouble());
            QCOMPARE(*p.latencyP99S, f[8].toDouble() / 1000.0);
            QCOMPARE(*p.powerW, power.value(f[0] + f[3] + f[1] + QLatin1Char('/') + f[2]));
        }
        checkpointAgreesWithTheReport(dir, lines);
    }
}

void TestIoConformance::checkpointAgreesWithTheReport(const QString& dir,
                                                      const QList<QByteArray>& reportLines)
{
    // The checkpoint Model Analyzer wrote in the same run holds every row of its CSV report
    // (model, batch, load, config, ..., throughput, p99 ms), to the report's one decimal.
    auto read = io::readDataset(QString(dir + QStringLiteral("/0.ckpt")).toStdString());
    BS_VERIFY_READ(read);
    const auto& points = read->sweep()->points;
    QCOMPARE(int(points.size()), reportLines.size() - 1);
    for (int i = 1; i < reportLines.size(); ++i) {
        const auto f = QString::fromLatin1(reportLines[i]).split(QLatin1Char(','));
        const std::string series = QString(f[0] + QLatin1Char('/') + f[3]).toStdString();
        const auto it = std::find_if(points.begin(), points.end(), [&](const auto& p) {
            const double load = p.concurrency.value_or(p.requestRatePerS.value_or(0.0));
            return p.series == series && p.batchSize == f[1].toInt() && load == f[2].toDouble();
        });
        QVERIFY2(it != points.end(), reportLines[i].constData());
        QVERIFY2(std::abs(*it->throughputPerS - f[7].toDouble()) <= 0.05 + 1e-9,
                 reportLines[i].constData());
        QVERIFY2(std::abs(*it->latencyP99S * 1e3 - f[8].toDouble()) <= 0.05 + 1e-9,
                 reportLines[i].constData());
    }
}

void TestIoConformance::azureTrace()
{
    BS_REQUIRE_SHARED_DATA(root);
    const QString path =
        root + QStringLiteral("/arrival_traces/azure_llm_2023/AzureLLMInferenceTrace_code.csv");
    const auto lines = test::readFile(path).split('\n');
    QVERIFY(!lines.last().isEmpty()); // no newline after the last row
    auto read = io::readDataset(path.toStdString());
    BS_VERIFY_READ(read);
    const auto t = read->requestTrace();
    QCOMPARE(int(t->size()), lines.size() - 1);
    QCOMPARE(t->size(), std::size_t(8819));
    auto when = [](const QByteArray& line) {
        auto dt = QDateTime::fromString(QString::fromLatin1(line.left(23)),
                                        QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
        dt.setTimeSpec(Qt::UTC);
        return double(dt.toMSecsSinceEpoch()) / 1000.0;
    };
    const double first = when(lines[1]);
    const double last = when(lines.last());
    QVERIFY(std::fabs(t->originEpochS - first) < 1e-3);
    QVERIFY(std::fabs(t->arrivalS.back() - (last - first)) < 2e-3);
    qint64 context = 0, generated = 0;
    for (int i = 1; i < lines.size(); ++i) {
        const auto f = lines[i].split(',');
        context += f[1].toLongLong();
        generated += f[2].toLongLong();
    }
    const auto summary = io::summarizeDataset(*read);
    QCOMPARE(summary["key_figures"]["input_tokens_total"].get<qint64>(), context);
    QCOMPARE(summary["key_figures"]["output_tokens_total"].get<qint64>(), generated);
}

void TestIoConformance::nvidiaSmiLog()
{
    BS_REQUIRE_SHARED_DATA(root);
    const QString path =
        root +
        QStringLiteral("/power_logs/ob234_cpc_ob234/cpc-main/backup/nvidia_output_1700706197.log");
    double sum = 0.0;
    int samples = 0;
    for (const auto& line : test::readFile(path).split('\n').mid(1)) {
        const auto f = QString::fromLatin1(line).split(QStringLiteral(", "));
        if (f.size() < 3)
            continue;
        sum += f[2].chopped(2).toDouble(); // "24.38 W"
        ++samples;
    }
    auto read = io::readDataset(path.toStdString());
    BS_VERIFY_READ(read);
    const auto s = read->powerSeries();
    QCOMPARE(int(s->size()), samples);
    double mean = 0.0;
    for (double w : s->powerW)
        mean += w;
    QVERIFY(std::fabs(mean / double(s->size()) - sum / samples) < 1e-9);
}

QTEST_APPLESS_MAIN(TestIoConformance)
#include "tst_io_conformance.moc"
