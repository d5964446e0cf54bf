#include "io/datasetsummary.h"
#include "iotesthelpers.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace bs;
using data::EventCategory;
using data::EventPhase;

namespace {

const data::KernelEvent* findEvent(const data::KernelTrace& t, const std::string& name,
                                   std::size_t nth = 0)
{
    for (const auto& e : t.events) {
        if (t.nameOf(e) == name && nth-- == 0)
            return &e;
    }
    return nullptr;
}

std::size_t countCategory(const data::KernelTrace& t, EventCategory category)
{
    return std::size_t(
        std::count_if(t.events.begin(), t.events.end(),
                      [&](const data::KernelEvent& e) { return e.category == category; }));
}

/// A synthetic trace in memory: `events` kernels with names long enough that tokens straddle
/// the parser's 1 MiB refills.
std::string syntheticTrace(int events, std::size_t nameLength)
{
    std::string text = "{\"traceEvents\": [\n";
    for (int i = 0; i < events; ++i) {
        std::string name = "kernel_" + std::to_string(i % 97) + "_";
        name.resize(nameLength, char('a' + i % 26));
        text += "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + name +
                "\", \"pid\": 0, \"tid\": 7, \"ts\": " + std::to_string(1000000 + i * 10) +
                ".25, \"dur\": 5, \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": " +
                std::to_string(i) + "}}" + (i + 1 < events ? ",\n" : "\n");
    }
    return text + "]}\n";
}

} // namespace

class TestIoKineto : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsCurrentKinetoTrace();
    void keepsMetadataAndIds();
    void gzipGivesTheSameEvents();
    void readsOldCategories();
    void readsOpenArrayForm();
    void mtiaDeviceActivityIsKernels();
    void operatorProfilerStepIsAnAnnotation();
    void kernelCountMatchesQJsonDocument_data();
    void kernelCountMatchesQJsonDocument();
    void tokensAcrossRefillsAndHugeNames();
    void badInput_data();
    void badInput();
    void cancelStopsTheParse();
};

void TestIoKineto::readsCurrentKinetoTrace()
{
    auto read = test::readFixture(QStringLiteral("kineto/current.json"));
    BS_VERIFY_READ(read);
    QCOMPARE(read->provenance.reader, std::string("kineto_trace"));
    const auto t = read->kernelTrace();
    QVERIFY(t);
    QCOMPARE(t->events.size(), std::size_t(12));
    QCOMPARE(countCategory(*t, EventCategory::Kernel), std::size_t(2));
    QCOMPARE(countCategory(*t, EventCategory::Memcpy), std::size_t(1));
    QCOMPARE(countCategory(*t, EventCategory::Runtime), std::size_t(1));
    QCOMPARE(countCategory(*t, EventCategory::CpuOp), std::size_t(1));
    QCOMPARE(countCategory(*t, EventCategory::UserAnnotation), std::size_t(1));
    QCOMPARE(countCategory(*t, EventCategory::Python), std::size_t(2));
    QCOMPARE(countCategory(*t, EventCategory::Flow), std::size_t(2));
    QCOMPARE(t->originUs, 1695835542513900.0);

    const auto* step = findEvent(*t, "ProfilerStep#1");
    QVERIFY(step);
    QCOMPARE(step->startS, 100.5e-6); // fractional µs kept
    QCOMPARE(step->durationS, 2000.25e-6);
    QCOMPARE(step->externalId, std::int64_t(1));

    const std::string kernelName = "ampere_sgemm_128x64_nn \"caf\xc3\xa9\"";
    const auto* k = findEvent(*t, kernelName);
    QVERIFY(k);
    QCOMPARE(k->startS, 350e-6);
    QCOMPARE(k->durationS, 100e-6);
    QCOMPARE(k->device, std::int16_t(0));
    QCOMPARE(k->stream, 7);
    QCOMPARE(k->tid, 7);
    QCOMPARE(k->correlation, std::int64_t(42));
    QCOMPARE(k->externalId, std::int64_t(7));
    QCOMPARE(k->phase, EventPhase::Complete);
    QCOMPARE(findEvent(*t, kernelName, 1)->nameId, k->nameId); // interned once
    QCOMPARE(std::count(t->names.begin(), t->names.end(), kernelName), std::ptrdiff_t(1));

    const auto* launch = findEvent(*t, "cudaLaunchKernel");
    QCOMPARE(launch->correlation, std::int64_t(42));
    QCOMPARE(launch->device, std::int16_t(-1)); // host event
    QCOMPARE(launch->durationS, 10.125e-6);

    const auto* flowStart = findEvent(*t, "ac2g");
    QCOMPARE(flowStart->phase, EventPhase::FlowStart);
    QCOMPARE(flowStart->correlation, std::int64_t(42));
    QCOMPARE(findEvent(*t, "ac2g", 1)->phase, EventPhase::FlowEnd);

    // B/E pairs, nested, on a thread id too large for 32 bits.
    const auto* forward = findEvent(*t, "forward");
    const auto* inner = findEvent(*t, "inner");
    QVERIFY(forward && inner);
    QCOMPARE(forward->startS, 110e-6);
    QCOMPARE(forward->durationS, 100e-6);
    QCOMPARE(inner->durationS, 10.75e-6);
    QCOMPARE(inner->tid, forward->tid);
    QCOMPARE(findEvent(*t, "Iteration Start: PyTorch Profiler")->phase, EventPhase::Instant);

    QCOMPARE(test::warningLines(*read),
             QStringList{QStringLiteral("50: events with \"ph\": \"C\" (counter) are not kept")});
    const auto summary = io::summarizeDataset(*read);
    QCOMPARE(summary["key_figures"]["kernel_count"].get<int>(), 2);
    // Device 0: kernels [350,450] and [400,500] µs and a memcpy [450,530] µs -> 180 µs busy.
    QVERIFY(qAbs(summary["key_figures"]["gpu_busy_time_s"].get<double>() - 180e-6) < 1e-12);
}

void TestIoKineto::keepsMetadataAndIds()
{
    auto read = test::readFixture(QStringLiteral("kineto/current.json"));
    BS_VERIFY_READ(read);
    const auto& m = read->kernelTrace()->metadata;
    QCOMPARE(m.at("process_name.1234"), std::string("python3.10"));
    QCOMPARE(m.at("thread_name.0.7"), std::string("stream 7"));
    QCOMPARE(m.at("schemaVersion"), std::string("1"));
    QCOMPARE(m.at("traceName"), std::string("current.json"));
    QCOMPARE(m.at("distributedInfo"), std::string("{\"rank\": 0, \"world_size\": 1}"));
    QVERIFY(m.at("deviceProperties").find("NVIDIA A100-SXM4-80GB") != std::string::npos);
    QCOMPARE(m.at("id_value.-2"), std::string("140245613422400"));
    QCOMPARE(m.at("id_name.-3"), std::string("Spans"));
    QCOMPARE(findEvent(*read->kernelTrace(), "PyTorch Profiler (0)")->pid, -3);
}

void TestIoKineto::gzipGivesTheSameEvents()
{
    auto plain = test::readFixture(QStringLiteral("kineto/current.json"));
    auto gz = test::readFixture(QStringLiteral("kineto/current.json.gz"));
    BS_VERIFY_READ(plain);
    BS_VERIFY_READ(gz);
    const auto& a = plain->kernelTrace()->events;
    const auto& b = gz->kernelTrace()->events;
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].startS, b[i].startS);
        QCOMPARE(a[i].nameId, b[i].nameId);
        QCOMPARE(a[i].correlation, b[i].correlation);
    }
    QCOMPARE(plain->kernelTrace()->names, gz->kernelTrace()->names);
}

void TestIoKineto::readsOldCategories()
{
    auto read = test::readFixture(QStringLiteral("kineto/old_categories.json"));
    BS_VERIFY_READ(read);
    const auto t = read->kernelTrace();
    QCOMPARE(t->events.size(), std::size_t(6));
    QCOMPARE(countCategory(*t, EventCategory::Kernel), std::size_t(1));
    QCOMPARE(countCategory(*t, EventCategory::Runtime), std::size_t(1));
    QCOMPARE(countCategory(*t, EventCategory::Memcpy), std::size_t(1));
    QCOMPARE(countCategory(*t, EventCategory::Flow), std::size_t(2));
    const auto* kernel = findEvent(*t, "void at::native::elementwise_kernel<128, 4>(int)");
    QCOMPARE(kernel->externalId, std::int64_t(0)); // "external id", lower case
    QCOMPARE(kernel->correlation, std::int64_t(538860));
    QCOMPARE(kernel->device, std::int16_t(0));
    QCOMPARE(t->metadata.at("distributedInfo"), std::string("{\"rank\": 1}"));
    QVERIFY(read->provenance.warnings.empty());
}

void TestIoKineto::readsOpenArrayForm()
{
    auto read = test::readFixture(QStringLiteral("kineto/array_open.json"));
    BS_VERIFY_READ(read);
    const auto t = read->kernelTrace();
    QCOMPARE(t->events.size(), std::size_t(2));
    QCOMPARE(t->originUs, 10.5);
    QCOMPARE(t->events[1].startS, 2.5e-6);
    QCOMPARE(t->events[0].stream, 1); // "0x1"
    QCOMPARE(test::warningLines(*read),
             QStringList{QStringLiteral("0: the event array is not closed with ']' (the Chrome "
                                        "trace format allows this); all events were read")});
}

// Regression: an MTIA trace was "no device activity ... a CPU-only profile" because only CUDA
// and ROCm category names counted as device work.
void TestIoKineto::mtiaDeviceActivityIsKernels()
{
    auto read = test::readFixture(QStringLiteral("kineto/mtia.json"));
    BS_VERIFY_READ(read);
    const auto t = read->kernelTrace();
    QCOMPARE(countCategory(*t, EventCategory::Kernel), std::size_t(2));
    QCOMPARE(countCategory(*t, EventCategory::Runtime), std::size_t(2));
    const auto* kernel = findEvent(*t, "mm_kernel");
    QVERIFY(kernel);
    QCOMPARE(kernel->device, std::int16_t(0));
    QCOMPARE(kernel->correlation, std::int64_t(11));
    QVERIFY(read->provenance.warnings.empty());
}

// Regression: older profilers write ProfilerStep#N with category "Operator"; it is the step
// annotation, not a CPU op, while other "Operator" events stay CPU ops.
void TestIoKineto::operatorProfilerStepIsAnAnnotation()
{
    auto read = test::readFixture(QStringLiteral("kineto/operator_steps.json"));
    BS_VERIFY_READ(read);
    const auto t = read->kernelTrace();
    QCOMPARE(findEvent(*t, "ProfilerStep#1")->category, EventCategory::UserAnnotation);
    QCOMPARE(findEvent(*t, "ProfilerStep#2")->category, EventCategory::UserAnnotation);
    QCOMPARE(findEvent(*t, "aten::relu")->category, EventCategory::CpuOp);
    QCOMPARE(countCategory(*t, EventCategory::Kernel), std::size_t(2));
}

void TestIoKineto::kernelCountMatchesQJsonDocument_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("current") << "kineto/current.json";
    QTest::newRow("old categories") << "kineto/old_categories.json";
}

void TestIoKineto::kernelCountMatchesQJsonDocument()
{
    QFETCH(QString, file);
    // An independent count: Qt's DOM parser over the same file.
    const auto doc = QJsonDocument::fromJson(test::readFile(test::testDataPath(file)));
    int kernels = 0, kept = 0;
    for (const auto& v : doc.object().value(QStringLiteral("traceEvents")).toArray()) {
        const auto e = v.toObject();
        const auto cat = e.value(QStringLiteral("cat")).toString().toLower();
        const auto ph = e.value(QStringLiteral("ph")).toString();
        kernels += (cat == QStringLiteral("kernel") && ph == QStringLiteral("X"));
        kept +=
            (ph == QStringLiteral("X") || ph == QStringLiteral("i") || ph == QStringLiteral("s") ||
             ph == QStringLiteral("f") || ph == QStringLiteral("E"));
    }
    auto read = test::readFixture(file);
    BS_VERIFY_READ(read);
    QCOMPARE(countCategory(*read->kernelTrace(), EventCategory::Kernel), std::size_t(kernels));
    QCOMPARE(read->kernelTrace()->events.size(), std::size_t(kept));
}

void TestIoKineto::tokensAcrossRefillsAndHugeNames()
{
    // ~3.3 MB of events (tokens cross the 1 MiB refills at many places), then one name of
    // 3 MiB (longer than a refill chunk).
    auto read = io::readDatasetFromBytes(syntheticTrace(12000, 200), "synthetic.json");
    BS_VERIFY_READ(read);
    const auto t = read->kernelTrace();
    QCOMPARE(t->events.size(), std::size_t(12000));
    QCOMPARE(t->names.size(), std::size_t(12000 < 97 * 26 ? 12000 : 97 * 26));
    for (std::size_t i = 0; i < t->events.size(); i += 997) {
        const auto& e = t->events[i];
        QCOMPARE(e.correlation, std::int64_t(i));
        QCOMPARE(e.startS, double(i) * 10e-6);
        std::string expected = "kernel_" + std::to_string(i % 97) + "_";
        expected.resize(200, char('a' + i % 26));
        QCOMPARE(t->nameOf(e), expected);
    }
    auto huge = io::readDatasetFromBytes(syntheticTrace(3, std::size_t(3) << 20), "huge.json");
    BS_VERIFY_READ(huge);
    QCOMPARE(huge->kernelTrace()->names[0].size(), std::size_t(3) << 20);
}

void TestIoKineto::badInput_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("expected");
    QTest::newRow("JSON syntax error")
        << "syntax_error.json"
        << ""
        << "3:3: JSON syntax error at byte 103: expected ',' or ']' in the event array, found '{'";
    QTest::newRow("negative duration") << "negative_dur.json"
                                       << ""
                                       << "2:84: a trace event (\"k\") has a negative duration";
    QTest::newRow("non-numeric ts") << "bad_ts.json"
                                    << ""
                                    << "2:77: \"ts\" holds \"soon\", which is not a number";
    QTest::newRow("truncated JSON")
        << "truncated.json"
        << ""
        << "3:1: JSON syntax error at byte 102: the data ends inside the event array (truncated "
           "file?)";
    QTest::newRow("truncated gzip")
        << "truncated.json.gz"
        << ""
        << "0:0: truncated gzip data: the stream ends after 300 compressed bytes without its end "
           "marker";
    QTest::newRow("not a trace, detected")
        << "no_events.json"
        << ""
        << "0:0: a JSON file, but not a Chrome/Kineto trace: no \"traceEvents\" key in its first 1 "
           "KiB (force a reader if it is one)";
    QTest::newRow("not a trace, forced")
        << "no_events.json"
        << "kineto_trace"
        << "0:0: the JSON object has no \"traceEvents\" array; not a Chrome/Kineto trace";
    QTest::newRow("empty") << "empty.json"
                           << "kineto_trace"
                           << "0:0: the file is empty";
}

void TestIoKineto::badInput()
{
    QFETCH(QString, file);
    QFETCH(QString, format);
    QFETCH(QString, expected);
    auto read = test::readFixtureAs(QStringLiteral("kineto/") + file, format.toStdString());
    QVERIFY(!read);
    QCOMPARE(test::whereAndWhy(read.error()), expected);
}

void TestIoKineto::cancelStopsTheParse()
{
    CancelToken cancel;
    int reports = 0;
    Progress progress(
        [&](const ProgressUpdate&) {
            if (++reports == 2)
                cancel.cancel();
        },
        std::chrono::milliseconds(0));
    auto read =
        io::readDatasetFromBytes(syntheticTrace(20000, 200), "cancel.json", {}, progress, cancel);
    QVERIFY(!read);
    QCOMPARE(read.error().code, ErrorCode::Cancelled);
}

QTEST_APPLESS_MAIN(TestIoKineto)
#include "tst_io_kineto.moc"
