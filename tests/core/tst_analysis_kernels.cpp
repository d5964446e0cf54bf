// Kernel-trace analytics: a hand-computed fixture (tests/data/analysis/steps.json, figures
// derived in tests/data/analysis/README.md) and the real Kineto traces in ../shared/data,
// checked against counts made here independently from the raw JSON (zlib + QJsonDocument).

#include "analysis/analysisjson.h"
#include "analysis/kernelanalysis.h"
#include "analysis/taildrivers.h"
#include "io/readdataset.h"
#include "nearcompare.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <map>

using namespace bs;
using namespace bs::analysis;

namespace {

constexpr double kUs = 1e-6;

#define BS_NEAR(a, b) BS_NEAR_WITHIN(a, b, 1e-12)

KernelAnalysis analyse(const QString& path, KernelAnalysisOptions options = {})
{
    auto read = io::readDataset(path.toStdString());
    if (!read)
        qFatal("%s", read.error().toString().c_str());
    auto k = analyzeKernels(*read->kernelTrace(), options);
    if (!k)
        qFatal("%s", k.error().toString().c_str());
    return std::move(*k);
}

/// The raw events of a (gzipped) trace, read without BatchScope's reader.
QJsonArray rawEvents(const QString& path)
{
    gzFile f = gzopen(path.toLocal8Bit().constData(), "rb");
    QByteArray bytes;
    char buffer[65536];
    int n = 0;
    while ((n = gzread(f, buffer, sizeof buffer)) > 0)
        bytes.append(buffer, n);
    gzclose(f);
    return QJsonDocument::fromJson(bytes).object().value(QStringLiteral("traceEvents")).toArray();
}

QString catOf(const QJsonObject& e)
{
    return e.value(QStringLiteral("cat")).toString().toLower();
}

bool isDeviceActivity(const QJsonObject& e)
{
    const QString c = catOf(e);
    return e.value(QStringLiteral("ph")).toString() == QStringLiteral("X") &&
           (c == QStringLiteral("kernel") || c == QStringLiteral("gpu_memcpy") ||
            c == QStringLiteral("gpu_memset"));
}

/// Independent figures: device activity count, summed and merged (busy) time, launches joined
/// on correlation, and device activity per host span (by the launching call's start).
struct RawFigures
{
    int kernels = 0;
    int activities = 0;
    int joined = 0;
    double summedUs = 0.0;
    double busyUs = 0.0;
    std::vector<int> perSpan;
};

RawFigures rawFigures(const QJsonArray& events, const std::vector<std::pair<double, double>>& spans)
{
    RawFigures f;
    std::map<qint64, double> runtimeStart;
    for (const auto& v : events) {
        const auto e = v.toObject();
        if (catOf(e) == QStringLiteral("cuda_runtime") || catOf(e) == QStringLiteral("runtime"))
            runtimeStart[e.value(QStringLiteral("args"))
                             .toObject()
                             .value(QStringLiteral("correlation"))
                             .toInteger(-1)] = e.value(QStringLiteral("ts")).toDouble();
    }
    std::vector<std::pair<double, double>> intervals;
    f.perSpan.assign(spans.size(), 0);
    for (const auto& v : events) {
        const auto e = v.toObject();
        if (!isDeviceActivity(e))
            continue;
        ++f.activities;
        f.kernels += catOf(e) == QStringLiteral("kernel") ? 1 : 0;
        const double ts = e.value(QStringLiteral("ts")).toDouble(),
                     dur = e.value(QStringLiteral("dur")).toDouble();
        f.summedUs += dur;
        intervals.emplace_back(ts, ts + dur);
        const auto it = runtimeStart.find(e.value(QStringLiteral("args"))
                                              .toObject()
                                              .value(QStringLiteral("correlation"))
                                              .toInteger(-2));
        f.joined += it != runtimeStart.end() ? 1 : 0;
        const double launch = it != runtimeStart.end() ? it->second : ts;
        for (std::size_t s = 0; s < spans.size(); ++s)
            f.perSpan[s] += launch >= spans[s].first && launch <= spans[s].second ? 1 : 0;
    }
    std::sort(intervals.begin(), intervals.end());
    double end = -1e300;
    for (const auto& [a, b] : intervals) {
        f.busyUs += std::max(0.0, b - std::max(a, end));
        end = std::max(end, b);
    }
    return f;
}

/// Host user annotations whose name contains `needle` and that contain no other match.
std::vector<std::pair<double, double>> innermostSpans(const QJsonArray& events,
                                                      const QString& needle)
{
    std::vector<std::pair<double, double>> all, out;
    for (const auto& v : events) {
        const auto e = v.toObject();
        if (catOf(e) == QStringLiteral("user_annotation") &&
            e.value(QStringLiteral("name")).toString().contains(needle)) {
            const double ts = e.value(QStringLiteral("ts")).toDouble();
            all.emplace_back(ts, ts + e.value(QStringLiteral("dur")).toDouble());
        }
    }
    for (const auto& a : all) {
        const bool container = std::any_of(all.begin(), all.end(), [&](const auto& b) {
            return &b != &a && b.first >= a.first && b.second <= a.second;
        });
        if (!container)
            out.push_back(a);
    }
    std::sort(out.begin(), out.end());
    return out;
}

double totalClassTime(const StepBreakdown& s)
{
    double sum = 0.0;
    for (double c : s.classS)
        sum += c;
    return sum;
}

} // namespace

class TestAnalysisKernels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fixtureSteps();
    void fixtureDevicesAndFairness();
    void fixtureTopKernelsAndFallback();
    void fixtureItemsAndStepAnnotation();
    void classification_data();
    void classification();
    void cpuOnlyFixture();
    void stepTailDrivers();
    void badEventIsAnError();
    void a100TraceMatchesIndependentCount();
    void mi250TraceMatchesIndependentCount();
    void inferenceTraceOldCategories();
    void cpuOnlyRealTraces();
    void mtiaFixtureHasDeviceActivity();
    void operatorProfilerSteps_data();
    void operatorProfilerSteps();
    void wholeTraceIsTheDeviceSpan();
};

void TestAnalysisKernels::fixtureSteps()
{
    KernelAnalysisOptions o;
    o.fallbackNames = {"custom_SLOW"};
    const auto k = analyse(test::testDataPath(QStringLiteral("analysis/steps.json")), o);
    QVERIFY(k.deviceActivity);
    QCOMPARE(k.stepSource, std::string("ProfilerStep# annotations"));
    QCOMPARE(k.kernels, std::uint64_t(6));
    QCOMPARE(k.memoryOps, std::uint64_t(1));
    QCOMPARE(k.launchesJoined, std::uint64_t(7));
    QCOMPARE(k.steps.size(), std::size_t(2));
    const auto& s1 = k.steps[0];
    BS_NEAR(s1.wallS, 1000 * kUs);
    BS_NEAR(s1.busyS, 350 * kUs); // [50, 300] + [700, 800]
    BS_NEAR(s1.idleS, 650 * kUs);
    BS_NEAR(s1.busyFraction, 0.35);
    BS_NEAR(s1.classS[std::size_t(KernelClass::Gemm)], 300 * kUs);
    BS_NEAR(s1.classS[std::size_t(KernelClass::Elementwise)], 50 * kUs);
    BS_NEAR(s1.classS[std::size_t(KernelClass::Memory)], 100 * kUs);
    QCOMPARE(s1.kernels, std::uint64_t(3));
    QCOMPARE(s1.memoryOps, std::uint64_t(1));
    QCOMPARE(s1.launches, std::uint64_t(4));
    BS_NEAR(s1.launchOverheadMeanS, 100 * kUs); // (40 + 40 + 220 + 100) / 4
    BS_NEAR(s1.launchOverheadMaxS, 220 * kUs);
    BS_NEAR(s1.hostGapS, 400 * kUs); // idle 300..700, memcpy launched at 600
    QCOMPARE(s1.hostGaps, std::uint64_t(1));
    BS_NEAR(s1.imbalanceS, 125 * kUs); // device busy 350 and 100: max - mean
    BS_NEAR(s1.noTensorCoreS, 200 * kUs);
    BS_NEAR(s1.cpuFallbackExposedS, 200 * kUs); // aten::nonzero 350..550, device idle throughout
    BS_NEAR(s1.fallbackS, 400 * kUs);
    BS_NEAR(s1.fallbackShare, 0.4);

    const auto& s2 = k.steps[1];
    BS_NEAR(s2.wallS, 1150 * kUs); // its last kernel ends at 2150
    BS_NEAR(s2.busyS, 400 * kUs);
    BS_NEAR(s2.classS[std::size_t(KernelClass::Communication)], 600 * kUs);
    BS_NEAR(s2.classS[std::size_t(KernelClass::Other)], 100 * kUs);
    BS_NEAR(s2.launchOverheadMeanS, 320.0 / 3.0 * kUs);
    BS_NEAR(s2.hostGapS, 750 * kUs); // 1000..1100 and 1400..2050
    QCOMPARE(s2.hostGaps, std::uint64_t(2));
    BS_NEAR(s2.imbalanceS, 50 * kUs);
    BS_NEAR(s2.userMarkedS, 100 * kUs);
    BS_NEAR(s2.fallbackShare, 100.0 / 1150.0);
}

void TestAnalysisKernels::fixtureDevicesAndFairness()
{
    const auto k = analyse(test::testDataPath(QStringLiteral("analysis/steps.json")));
    BS_NEAR(k.deviceSpanS, 2100 * kUs);
    BS_NEAR(k.total.busyS, 750 * kUs);
    BS_NEAR(k.total.wallS, 2100 * kUs);
    QCOMPARE(k.devices.size(), std::size_t(2));
    BS_NEAR(k.devices[0].busyS, 650 * kUs);
    BS_NEAR(k.devices[1].busyS, 500 * kUs);
    BS_NEAR(k.devices[0].utilisation, 650.0 / 2100.0);
    QCOMPARE(k.devices[0].streams.size(), std::size_t(1));
    QCOMPARE(k.devices[0].streams[0].stream, 7);
    QCOMPARE(k.devices[1].streams[0].events, std::uint64_t(3));
    BS_NEAR(k.deviceJainBusy, 1150.0 * 1150.0 / (2.0 * (650.0 * 650.0 + 500.0 * 500.0)));
    BS_NEAR(k.deviceMaxToMeanBusy, 650.0 / 575.0);
    BS_NEAR(k.total.imbalanceS, 75 * kUs);
    // Launch overheads 40 40 220 100 90 80 150 us: median 90.
    QCOMPARE(k.launchOverheadS.count, std::uint64_t(7));
    BS_NEAR(k.launchOverheadS.at(0.5)->value, 90 * kUs);
}

void TestAnalysisKernels::fixtureTopKernelsAndFallback()
{
    KernelAnalysisOptions o;
    o.fallbackNames = {"custom_slow"};
    const auto k = analyse(test::testDataPath(QStringLiteral("analysis/steps.json")), o);
    QCOMPARE(k.topKernels.front().name, std::string("ncclKernel_AllReduce_RING_LL_Sum_float"));
    QCOMPARE(k.topKernels.front().count, std::uint64_t(2));
    BS_NEAR(k.topKernels.front().share, 600.0 / 1150.0);
    QCOMPARE(k.topKernels[1].name, std::string("ampere_sgemm_128x64_nn"));
    QVERIFY(k.topKernels[1].noTensorCoreVariant);
    const auto xmma =
        std::find_if(k.topKernels.begin(), k.topKernels.end(),
                     [](const TopKernel& t) { return t.name.rfind("sm80_xmma", 0) == 0; });
    QVERIFY(xmma->tensorCore && !xmma->noTensorCoreVariant);
    QCOMPARE(k.fallbacks.size(), std::size_t(3)); // the nested _nonzero_impl is not counted again
    // The first two tie at 200 us (up to rounding), so find them by kind.
    const auto cpu = k.fallbacks[0].kind == "cpu_op" ? k.fallbacks[0] : k.fallbacks[1];
    const auto simt = k.fallbacks[0].kind == "cpu_op" ? k.fallbacks[1] : k.fallbacks[0];
    QCOMPARE(cpu.kind, std::string("cpu_op"));
    QCOMPARE(cpu.name, std::string("aten::nonzero"));
    BS_NEAR(cpu.exposedS, 200 * kUs);
    BS_NEAR(cpu.share, 200.0 / 2150.0); // of the summed step time
    QCOMPARE(simt.kind, std::string("no_tensor_core"));
    QCOMPARE(simt.name, std::string("ampere_sgemm_128x64_nn"));
    QCOMPARE(k.fallbacks[2].kind, std::string("user_marked"));
    QCOMPARE(k.fallbacks[2].name, std::string("my_custom_slow_kernel"));
    // The JSON a chart builder reads: class times per step as rows.
    const auto json = toJson(k);
    QCOMPARE(json["steps"][1]["class_ms"]["communication_ms"].get<double>(), 0.6);
    QCOMPARE(json["steps"].size(), std::size_t(2));
}

void TestAnalysisKernels::fixtureItemsAndStepAnnotation()
{
    KernelAnalysisOptions o;
    o.itemsPerStep = 4;
    auto k = analyse(test::testDataPath(QStringLiteral("analysis/steps.json")), o);
    BS_NEAR(k.steps[0].kernelsPerItem, 0.75);
    BS_NEAR(k.steps[0].launchesPerItem, 1.0);
    o.stepAnnotation = "step#2";
    k = analyse(test::testDataPath(QStringLiteral("analysis/steps.json")), o);
    QCOMPARE(k.steps.size(), std::size_t(1));
    QCOMPARE(k.steps[0].name, std::string("ProfilerStep#2"));
    QCOMPARE(k.notes.size(), std::size_t(1)); // step 1's four activities are outside every step
    o.stepAnnotation = "no such step";
    k = analyse(test::testDataPath(QStringLiteral("analysis/steps.json")), o);
    QCOMPARE(k.stepSource, std::string("whole trace (no annotation contains 'no such step')"));
    QCOMPARE(k.steps.size(), std::size_t(1));
    QCOMPARE(k.steps[0].kernels, std::uint64_t(6));
}

void TestAnalysisKernels::classification_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<bool>("noTensorCore");
    QTest::newRow("nccl") << QStringLiteral("ncclDevKernel_AllGather_RING_LL")
                          << QStringLiteral("communication") << false;
    QTest::newRow("custom allreduce")
        << QStringLiteral("cross_device_reduce_1stage") << QStringLiteral("communication") << false;
    QTest::newRow("memcpy kernel") << QStringLiteral("void at::native::memcpy_kernel")
                                   << QStringLiteral("memcpy_memset") << false;
    QTest::newRow("fp32 sgemm") << QStringLiteral("ampere_sgemm_32x32_sliced1x4_tn")
                                << QStringLiteral("gemm") << true;
    QTest::newRow("tf32 xmma") << QStringLiteral("sm80_xmma_fprop_implicit_gemm_tf32f32")
                               << QStringLiteral("gemm") << false;
    QTest::newRow("scudnn") << QStringLiteral("cudnn_ampere_scudnn_128x64_relu_xregs_large_nn_v1")
                            << QStringLiteral("gemm") << true;
    QTest::newRow("cutlass wmma")
        << QStringLiteral("void cutlass::Kernel<cutlass_70_wmma_tensorop_f16_s161616gemm>")
        << QStringLiteral("gemm") << false;
    QTest::newRow("tensile mfma") << QStringLiteral("Cijk_Alik_Bljk_SB_MT64x16x32_MI16x16x1_SN")
                                  << QStringLiteral("gemm") << false;
    QTest::newRow("tensile no mfma")
        << QStringLiteral("Cijk_Alik_Bljk_SB_MT64x16x32_SN") << QStringLiteral("gemm") << true;
    QTest::newRow("flash attention")
        << QStringLiteral("flash_fwd_kernel") << QStringLiteral("gemm") << false;
    QTest::newRow("elementwise") << QStringLiteral(
                                        "void at::native::vectorized_elementwise_kernel<4>")
                                 << QStringLiteral("elementwise") << false;
    QTest::newRow("layer norm") << QStringLiteral("void at::native::layer_norm_kernel")
                                << QStringLiteral("elementwise") << false;
    QTest::newRow("unknown") << QStringLiteral("my_kernel") << QStringLiteral("other") << false;
}

void TestAnalysisKernels::classification()
{
    QFETCH(QString, name);
    QFETCH(QString, expected);
    QFETCH(bool, noTensorCore);
    const std::string n = name.toStdString();
    const auto c = classifyKernel(n, data::EventCategory::Kernel);
    QCOMPARE(QString::fromLatin1(kernelClassName(c)), expected);
    QCOMPARE(c == KernelClass::Gemm && expectsTensorCores(n) && !hasTensorCoreMarker(n),
             noTensorCore);
}

void TestAnalysisKernels::cpuOnlyFixture()
{
    const auto k = analyse(test::testDataPath(QStringLiteral("analysis/cpu_only.json")));
    QVERIFY(!k.deviceActivity);
    QCOMPARE(k.note, std::string("no device activity: the trace has no kernel, memcpy or memset "
                                 "events (a CPU-only profile)"));
    QCOMPARE(k.steps.size(), std::size_t(1));
    BS_NEAR(k.steps[0].wallS, 500 * kUs);
    QCOMPARE(k.steps[0].busyS, 0.0);
    const auto json = toJson(k);
    QCOMPARE(json["device_activity"].get<bool>(), false);
    const auto drivers = tailDriversFromSteps(k);
    QVERIFY(!drivers.available);
    QCOMPARE(drivers.reason, k.note);
}

void TestAnalysisKernels::stepTailDrivers()
{
    // 98 steps of 10 ms and 2 of 20 ms that carry 6 ms fallback, 3 ms imbalance, 1 ms host gaps.
    KernelAnalysis k;
    k.deviceActivity = true;
    for (int i = 0; i < 100; ++i) {
        StepBreakdown s;
        s.wallS = 0.010;
        if (i == 40 || i == 77) {
            s.wallS = 0.020;
            s.fallbackS = 0.006;
            s.imbalanceS = 0.003;
            s.hostGapS = 0.001;
        }
        k.steps.push_back(s);
    }
    const auto d = tailDriversFromSteps(k);
    QVERIFY(d.available);
    BS_NEAR(d.excessS, 0.010);
    QCOMPARE(d.drivers[0].name, std::string("mapping_fallback"));
    BS_NEAR(d.drivers[0].excessS, 0.006);
    BS_NEAR(d.drivers[0].share, 0.6);
    QCOMPARE(d.drivers[1].name, std::string("core_imbalance"));
    QCOMPARE(d.drivers[2].name, std::string("host_launch_gaps"));
    BS_NEAR(d.drivers[3].excessS, 0.0);
    QVERIFY(!d.sufficient); // 100 steps < 459
    QVERIFY(d.uncertainty.find("459 needed") != std::string::npos);

    // Combined with a request trace: its service excess is split in these proportions.
    RequestAnalysis r;
    r.tail.available = true;
    r.tail.method = "m. 95% intervals: test";
    r.tail.components = {{"server_wait", 0, 0, 0.14, 0, 0.13, 0.15},
                         {"service", 0, 0, 0.03, 0, 0.02, 0.04},
                         {"batch_formation", 0, 0, 0.025, 0, 0.02, 0.03}};
    const auto both = tailDrivers(&r, &k);
    QVERIFY(both.available);
    QCOMPARE(both.source, std::string("request trace + kernel trace steps"));
    QCOMPARE(both.drivers[0].name, std::string("queueing_delay"));
    QCOMPARE(both.drivers[1].name, std::string("batch_formation"));
    QCOMPARE(both.drivers[2].name, std::string("mapping_fallback"));
    BS_NEAR(both.drivers[2].excessS, 0.018);
    BS_NEAR(both.drivers[2].ciHighS, 0.024);
    QCOMPARE(both.drivers[3].name, std::string("core_imbalance"));
    BS_NEAR(both.drivers[3].excessS, 0.009);
    BS_NEAR(both.excessS, 0.195);
}

void TestAnalysisKernels::badEventIsAnError()
{
    data::KernelTrace t;
    t.names = {"k"};
    data::KernelEvent e;
    e.category = data::EventCategory::Kernel;
    e.durationS = -1.0;
    t.events = {e};
    const auto k = analyzeKernels(t);
    QVERIFY(!k);
    QCOMPARE(k.error().message, std::string("event 1: start or duration is not a finite, "
                                            "non-negative number (or its name is missing)"));
}

void TestAnalysisKernels::a100TraceMatchesIndependentCount()
{
    BS_REQUIRE_SHARED_DATA(shared);
    const QString path =
        shared + QStringLiteral("/kineto_traces/hta/critical_path/alexnet/"
                                "benchmark_result_2869224_1695835535_trace.json.gz");
    const QJsonArray events = rawEvents(path);
    const auto spans = innermostSpans(events, QStringLiteral("|forward]"));
    QCOMPARE(spans.size(), std::size_t(2));
    const RawFigures raw = rawFigures(events, spans);
    KernelAnalysisOptions o;
    o.stepAnnotation = "|forward]";
    const auto k = analyse(path, o);
    QCOMPARE(int(k.kernels), raw.kernels);
    QCOMPARE(int(k.kernels + k.memoryOps), raw.activities);
    QCOMPARE(int(k.launchesJoined), raw.joined);
    BS_NEAR_WITHIN(totalClassTime(k.total), raw.summedUs * kUs, 1e-9);
    BS_NEAR_WITHIN(k.total.busyS, raw.busyUs * kUs, 1e-9);
    QCOMPARE(k.steps.size(), spans.size());
    for (std::size_t s = 0; s < spans.size(); ++s)
        QCOMPARE(int(k.steps[s].kernels + k.steps[s].memoryOps), raw.perSpan[s]);
    // FP32 SIMT GEMMs on an A100 are flagged; the TF32 xmma convolution is not.
    for (const auto& t : k.topKernels) {
        if (t.name.find("sgemm") != std::string::npos)
            QVERIFY(t.noTensorCoreVariant);
        if (t.name.find("xmma") != std::string::npos)
            QVERIFY(!t.noTensorCoreVariant && t.tensorCore);
    }
    QCOMPARE(k.devices.size(), std::size_t(1));
    QCOMPARE(k.otherDeviceEvents, std::uint64_t(41)); // cuda_sync events
}

void TestAnalysisKernels::mi250TraceMatchesIndependentCount()
{
    BS_REQUIRE_SHARED_DATA(shared);
    const QString path =
        shared +
        QStringLiteral("/kineto_traces/hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz");
    const QJsonArray events = rawEvents(path);
    std::vector<std::pair<double, double>> spans;
    for (const auto& v : events) {
        const auto e = v.toObject();
        if (catOf(e) == QStringLiteral("user_annotation") &&
            e.value(QStringLiteral("name"))
                .toString()
                .startsWith(QStringLiteral("ProfilerStep#"))) {
            const double ts = e.value(QStringLiteral("ts")).toDouble();
            spans.emplace_back(ts, ts + e.value(QStringLiteral("dur")).toDouble());
        }
    }
    std::sort(spans.begin(), spans.end());
    const RawFigures raw = rawFigures(events, spans);
    const auto k = analyse(path);
    QCOMPARE(k.stepSource, std::string("ProfilerStep# annotations"));
    QCOMPARE(k.steps.size(), spans.size());
    QCOMPARE(int(k.kernels), raw.kernels);
    QCOMPARE(int(k.launchesJoined), raw.joined);
    for (std::size_t s = 0; s < spans.size(); ++s)
        QCOMPARE(int(k.steps[s].kernels + k.steps[s].memoryOps), raw.perSpan[s]);
    BS_NEAR_WITHIN(k.total.busyS, raw.busyUs * kUs, 1e-9);
    QCOMPARE(k.devices.size(), std::size_t(1));
    QCOMPARE(k.devices[0].device, 2);
    // Tensile kernels with MFMA (_MI16x16x1_) tiles use the matrix cores.
    for (const auto& t : k.topKernels) {
        if (t.name.rfind("Cijk_", 0) == 0)
            QVERIFY(t.tensorCore && !t.noTensorCoreVariant);
    }
}

void TestAnalysisKernels::inferenceTraceOldCategories()
{
    BS_REQUIRE_SHARED_DATA(shared);
    const QString path =
        shared + QStringLiteral("/kineto_traces/hta/trace_file_list/inference_rank_1.json.gz");
    const RawFigures raw = rawFigures(rawEvents(path), {});
    const auto k = analyse(path);
    QCOMPARE(int(k.kernels), raw.kernels);
    QCOMPARE(raw.kernels, 4);
    QCOMPARE(int(k.launchesJoined), raw.joined);
    BS_NEAR_WITHIN(k.total.busyS, raw.busyUs * kUs, 1e-9);
    QCOMPARE(k.stepSource, std::string("whole trace (no ProfilerStep# annotations)"));
    const auto gemmk1 =
        std::find_if(k.topKernels.begin(), k.topKernels.end(), [](const TopKernel& t) {
            return t.name.find("gemmk1_kernel") != std::string::npos;
        });
    QVERIFY(gemmk1 != k.topKernels.end() && gemmk1->noTensorCoreVariant);
}

void TestAnalysisKernels::cpuOnlyRealTraces()
{
    BS_REQUIRE_SHARED_DATA(shared);
    const auto cpu = analyse(
        shared + QStringLiteral(
                     "/kineto_traces/hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"));
    QVERIFY(!cpu.deviceActivity);
    QVERIFY(cpu.note.rfind("no device activity", 0) == 0);
    QCOMPARE(cpu.steps.size(), std::size_t(1)); // ProfilerStep#551 on the host
    QCOMPARE(cpu.steps[0].name, std::string("ProfilerStep#551"));
    // The CUPTI range-profiler trace has kernels only as cuda_profiler_range events (77).
    const QString cuptiPath =
        shared +
        QStringLiteral(
            "/kineto_traces/hta/cupti_profiler/benchmark_result_924719_1679055439_trace.json.gz");
    int ranges = 0;
    for (const auto& v : rawEvents(cuptiPath))
        ranges += catOf(v.toObject()) == QStringLiteral("cuda_profiler_range") ? 1 : 0;
    const auto cupti = analyse(cuptiPath);
    QVERIFY(!cupti.deviceActivity);
    QCOMPARE(int(cupti.otherDeviceEvents), ranges);
    QVERIFY(cupti.note.find(std::to_string(ranges) + " other device-side events") !=
            std::string::npos);
}

// Regression: MTIA device activity (mtia_ccp_events launched by mtia_runtime calls) counts.
// Figures by hand from tests/data/kineto/mtia.json: kernels 1040..1140 and 1200..1250 µs,
// launched at 1020 and 1100 µs, inside ProfilerStep#0 (1000..1400 µs).
void TestAnalysisKernels::mtiaFixtureHasDeviceActivity()
{
    const auto k = analyse(test::testDataPath(QStringLiteral("kineto/mtia.json")));
    QVERIFY2(k.deviceActivity, k.note.c_str());
    QCOMPARE(k.kernels, std::uint64_t(2));
    QCOMPARE(k.launchesJoined, std::uint64_t(2));
    QCOMPARE(k.steps.size(), std::size_t(1));
    BS_NEAR(k.steps[0].wallS, 400 * kUs);
    BS_NEAR(k.steps[0].busyS, 150 * kUs);
    BS_NEAR(k.steps[0].launchOverheadMeanS, 60 * kUs);
    BS_NEAR(k.deviceSpanS, 210 * kUs);
}

void TestAnalysisKernels::operatorProfilerSteps_data()
{
    QTest::addColumn<QString>("annotation");
    QTest::addColumn<QString>("source");
    QTest::newRow("default") << QString() << QStringLiteral("ProfilerStep# annotations");
    QTest::newRow("--step-annotation ProfilerStep")
        << QStringLiteral("ProfilerStep")
        << QStringLiteral("annotations containing 'ProfilerStep'");
}

// Regression: ProfilerStep#N with category "Operator" (older profilers) was not found as a
// step, with or without --step-annotation ProfilerStep.
void TestAnalysisKernels::operatorProfilerSteps()
{
    QFETCH(QString, annotation);
    QFETCH(QString, source);
    KernelAnalysisOptions o;
    o.stepAnnotation = annotation.toStdString();
    const auto k = analyse(test::testDataPath(QStringLiteral("kineto/operator_steps.json")), o);
    QCOMPARE(QString::fromStdString(k.stepSource), source);
    QCOMPARE(k.steps.size(), std::size_t(2));
    QCOMPARE(k.steps[0].name, std::string("ProfilerStep#1"));
    QCOMPARE(k.steps[0].kernels, std::uint64_t(1));
    QCOMPARE(k.steps[1].kernels, std::uint64_t(1));
    BS_NEAR(k.steps[1].busyS, 40 * kUs);
}

// Regression: without steps, `analyze` printed a "whole trace" step over the host and device
// span and a "whole trace" total over the device span, with different walls and busy shares.
// One definition now: the device span, for both.
void TestAnalysisKernels::wholeTraceIsTheDeviceSpan()
{
    BS_REQUIRE_SHARED_DATA(shared);
    const auto k = analyse(
        shared + QStringLiteral("/kineto_traces/hta/trace_file_list/inference_rank_1.json.gz"));
    QCOMPARE(k.steps.size(), std::size_t(1));
    BS_NEAR(k.steps[0].wallS, k.total.wallS);
    BS_NEAR(k.steps[0].wallS, k.deviceSpanS);
    BS_NEAR(k.steps[0].busyFraction, k.total.busyFraction);
    QCOMPARE(k.steps[0].kernels, k.total.kernels);
}

QTEST_APPLESS_MAIN(TestAnalysisKernels)
#include "tst_analysis_kernels.moc"
