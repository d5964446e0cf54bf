#include "accel/model.h"
#include "accel/presetlibrary.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace bs;
using namespace bs::accel;

namespace {

const std::vector<std::string> kAccelerators = {
    "a10",     "a100-sxm-40gb", "a100-sxm-80gb",    "a2",       "a30",
    "a40",     "b200",          "generic-edge-npu", "h100-sxm", "h200-sxm",
    "l4",      "l40s",          "mi300x",           "rtx-4090", "t4",
    "tpu-v5e", "v100"};
const std::vector<std::string> kWorkloads = {"bert-large-384", "decoder-8b-decode", "linear-4096",
                                             "resnet50"};

QString presetDir()
{
    return test::sourceDir() + QStringLiteral("/resources/presets");
}

void writeFile(const QString& path, const QByteArray& text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
}

/// Every number in a preset file, as "key" or "parent.key".
void numericKeys(const nlohmann::json& object, const std::string& prefix,
                 std::vector<std::string>& out)
{
    for (const auto& [key, value] : object.items()) {
        if (key == "sources")
            continue;
        const std::string name = prefix.empty() ? key : prefix + "." + key;
        if (value.is_number())
            out.push_back(name);
        else if (value.is_object())
            numericKeys(value, name, out);
    }
}

} // namespace

class TestAccelPresets : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void builtInHasTheRequiredPresets();
    void everyNumberNamesItsSource();
    void everyAcceleratorIsPhysical();
    void datasheetFiguresOfNewPresets();
    void folderMatchesBuiltIn();
    void everyPairMakesAModel();
    void userFolderAddsAndReplaces();
    void badPresetFiles_data();
    void badPresetFiles();
    void missingFolder();
};

void TestAccelPresets::builtInHasTheRequiredPresets()
{
    const auto& lib = PresetLibrary::builtIn();
    QVERIFY2(!lib.loadError(), lib.loadError() ? lib.loadError()->toString().c_str() : "");
    QVERIFY(lib.acceleratorNames() == kAccelerators);
    QVERIFY(lib.workloadNames() == kWorkloads);
    const auto h100 = lib.accelerator("h100-sxm");
    QVERIFY(h100);
    QCOMPARE(*h100->peak(Precision::Bf16), 989.4e12);
    QCOMPARE(h100->memoryBandwidthBytesPerS, 3.35e12);
    QCOMPARE(QString::fromStdString(lib.pathOf(PresetKind::Accelerator, "h100-sxm")),
             QStringLiteral("builtin:accelerators/h100-sxm.json"));
}

void TestAccelPresets::everyNumberNamesItsSource()
{
    for (const char* folder : {"accelerators", "workloads"}) {
        const QDir dir(presetDir() + QLatin1Char('/') + QLatin1String(folder));
        const auto files = dir.entryList({QStringLiteral("*.json")}, QDir::Files);
        QVERIFY(!files.isEmpty());
        for (const QString& file : files) {
            const auto json =
                nlohmann::json::parse(test::readFile(dir.filePath(file)).toStdString());
            QVERIFY2(json.contains("sources"), qPrintable(file));
            const auto& sources = json.at("sources");
            std::vector<std::string> keys;
            numericKeys(json, {}, keys);
            QVERIFY(!keys.empty());
            for (const auto& key : keys) {
                const std::string parent = key.substr(0, key.find('.'));
                const bool named =
                    (sources.contains(key) && !sources.at(key).get<std::string>().empty()) ||
                    (sources.contains(parent) && !sources.at(parent).get<std::string>().empty());
                QVERIFY2(named, qPrintable(file + QStringLiteral(": no source for ") +
                                           QString::fromStdString(key)));
            }
        }
    }
}

void TestAccelPresets::everyAcceleratorIsPhysical()
{
    // Every shipped device: positive peaks and bandwidth, idle below board power, and each
    // datasheet section ("peak_tflops", "power_max_w", ...) says where its number came from.
    const auto& lib = PresetLibrary::builtIn();
    for (const auto& name : kAccelerators) {
        const auto spec = lib.accelerator(name);
        QVERIFY2(spec, name.c_str());
        QVERIFY2(!spec->peakFlopsPerS.empty(), name.c_str());
        for (const auto& [precision, flops] : spec->peakFlopsPerS)
            QVERIFY2(flops > 0.0, name.c_str());
        QVERIFY2(spec->memoryBandwidthBytesPerS > 0.0, name.c_str());
        QVERIFY2(spec->powerMaxW > spec->powerIdleW && spec->powerIdleW > 0.0, name.c_str());
        const auto json = nlohmann::json::parse(
            test::readFile(presetDir() + QStringLiteral("/accelerators/") +
                           QString::fromStdString(name) + QStringLiteral(".json"))
                .toStdString());
        for (const char* key : {"peak_tflops", "memory_bandwidth_tb_per_s", "power_max_w"}) {
            const auto& sources = json.at("sources");
            QVERIFY2(sources.contains(key) && !sources.at(key).get<std::string>().empty(),
                     qPrintable(QString::fromStdString(name) + QLatin1String(": ") +
                                QLatin1String(key)));
        }
    }
}

void TestAccelPresets::datasheetFiguresOfNewPresets()
{
    // Hand-checked against the vendors' datasheets (dense figures; "with sparsity" halved).
    const auto& lib = PresetLibrary::builtIn();
    const auto a30 = *lib.accelerator("a30");
    QCOMPARE(a30.memoryBandwidthBytesPerS, 933e9); // A30 datasheet: 933 GB/s
    QCOMPARE(a30.powerMaxW, 165.0);                // max TDP 165 W
    QCOMPARE(*a30.peak(Precision::Int8), 330e12);  // 330 TOPS, 661 with sparsity
    const auto l40s = *lib.accelerator("l40s");
    QCOMPARE(l40s.powerMaxW, 350.0);                // L40S datasheet: max power 350 W
    QCOMPARE(*l40s.peak(Precision::Fp8), 733e12);   // 733 | 1,466* TFLOPS
    QCOMPARE(l40s.memoryBandwidthBytesPerS, 864e9); // 864 GB/s
    const auto a100 = *lib.accelerator("a100-sxm-40gb");
    QCOMPARE(a100.memoryBandwidthBytesPerS, 1555e9); // A100 40GB SXM: 1,555 GB/s
    QCOMPARE(*a100.peak(Precision::Bf16), 312e12);
    // V100: FP16 tensor cores only; no TF32, BF16 or FP8.
    const auto v100 = *lib.accelerator("v100");
    QCOMPARE(*v100.peak(Precision::Fp16), 125e12);
    QVERIFY(!v100.peak(Precision::Bf16) && !v100.peak(Precision::Tf32) &&
            !v100.peak(Precision::Fp8));
    QVERIFY(*v100.peak(Precision::Int8) < *v100.peak(Precision::Fp16));
    // A2: PCIe Gen4 x8, half the host link of a Gen4 x16 card.
    QCOMPARE(lib.accelerator("a2")->hostLinkBytesPerS, 15.75e9);
    QCOMPARE(lib.accelerator("a10")->hostLinkBytesPerS, 31.5e9);
    QCOMPARE(lib.accelerator("b200")->powerMaxW, 1000.0);
}

void TestAccelPresets::folderMatchesBuiltIn()
{
    PresetLibrary lib;
    const auto status = lib.addFolder(presetDir().toStdString());
    QVERIFY2(status, status ? "" : status.error().toString().c_str());
    QVERIFY(lib.acceleratorNames() == kAccelerators);
    QVERIFY(lib.workloadNames() == kWorkloads);
    for (const auto& name : kAccelerators)
        QVERIFY(*lib.accelerator(name) == *PresetLibrary::builtIn().accelerator(name));
    for (const auto& name : kWorkloads)
        QVERIFY(*lib.workload(name) == *PresetLibrary::builtIn().workload(name));
}

void TestAccelPresets::everyPairMakesAModel()
{
    // Each workload on each device at a precision the device has: finite, positive numbers.
    const auto& lib = PresetLibrary::builtIn();
    for (const auto& a : kAccelerators) {
        const auto spec = *lib.accelerator(a);
        for (const auto& w : kWorkloads) {
            const std::string precision = precisionName(spec.peakFlopsPerS.rbegin()->first);
            auto model = modelFromJson(
                {{"accelerator", a}, {"workload", w}, {"precision", precision}}, "model", {});
            QVERIFY2(model, model ? "" : model.error().toString().c_str());
            for (int b : {1, 32, 1024}) {
                const Prediction p = model->predict(b);
                QVERIFY(std::isfinite(p.serviceS) && p.serviceS > 0.0);
                QVERIFY(std::isfinite(p.energyPerInferenceJ) && p.energyPerInferenceJ > 0.0);
                QVERIFY(p.powerW >= spec.powerIdleW && p.powerW <= spec.powerMaxW);
            }
        }
    }
}

void TestAccelPresets::userFolderAddsAndReplaces()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    writeFile(dir.filePath(QStringLiteral("accelerators/my-npu.json")),
              R"({"name": "my-npu", "peak_tflops": {"int8": 50}, "memory_bandwidth_tb_per_s": 0.1,
                  "power_idle_w": 1, "power_max_w": 10, "sources": {"peak_tflops": "vendor sheet"}})");
    writeFile(dir.filePath(QStringLiteral("workloads/resnet50.json")),
              R"({"name": "resnet50", "flops_per_item": 1e9, "weight_elements": 1e6,
                  "activation_elements_per_item": 1e6, "default_precision": "int8"})");
    PresetLibrary lib = PresetLibrary::builtIn();
    const auto status = lib.addFolder(dir.path().toStdString());
    QVERIFY2(status, status ? "" : status.error().toString().c_str());
    QVERIFY(lib.accelerator("my-npu"));
    QCOMPARE(lib.accelerator("my-npu")->peak(Precision::Int8).value(), 50e12);
    QCOMPARE(lib.workload("resnet50")->flopsPerItem, 1e9);
    QVERIFY(lib.accelerator("h100-sxm")); // the built-ins stay
    auto model =
        modelFromJson({{"accelerator", "my-npu"}, {"workload", "resnet50"}}, "model", {}, lib);
    QVERIFY(model);
    // A user preset is not a built-in: it is written inline so the JSON stands alone.
    QVERIFY(toJson(*model).at("accelerator").is_object());
    QVERIFY(toJson(*model).at("workload").is_object());
}

void TestAccelPresets::badPresetFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("syntax")
        << QStringLiteral("accelerators/a.json")
        << QByteArray("{\"name\": \"a\",\n  \"peak_tflops\" 5}")
        << QStringLiteral("accelerators/a.json:2:17: JSON syntax error: syntax error while "
                          "parsing object separator - unexpected number literal; expected ':'");
    QTest::newRow("negative peak")
        << QStringLiteral("accelerators/a.json")
        << QByteArray(R"({"name": "a", "peak_tflops": {"int8": -1}, "memory_bandwidth_tb_per_s": 1,
                          "power_idle_w": 1, "power_max_w": 2})")
        << QStringLiteral("accelerators/a.json: accelerator.peak_tflops.int8: must be greater than "
                          "0 (got -1)");
    QTest::newRow("unknown precision key")
        << QStringLiteral("accelerators/a.json")
        << QByteArray(R"({"name": "a", "peak_tflops": {"fp4": 9}, "memory_bandwidth_tb_per_s": 1,
                          "power_idle_w": 1, "power_max_w": 2})")
        << QStringLiteral("accelerators/a.json: accelerator.peak_tflops.fp4: unknown key (known "
                          "keys here: bf16, "
                          "fp16, fp32, fp8, int8, tf32)");
    QTest::newRow("zero FLOPs")
        << QStringLiteral("workloads/w.json")
        << QByteArray(R"({"name": "w", "flops_per_item": 0, "weight_elements": 1,
                          "activation_elements_per_item": 1})")
        << QStringLiteral(
               "workloads/w.json: workload.flops_per_item: must be greater than 0 (got 0)");
    QTest::newRow("throttle below ambient")
        << QStringLiteral("accelerators/a.json")
        << QByteArray(R"({"name": "a", "peak_tflops": {"int8": 1}, "memory_bandwidth_tb_per_s": 1,
                          "power_idle_w": 1, "power_max_w": 2,
                          "thermal": {"ambient_c": 30, "throttle_c": 20}})")
        << QStringLiteral("accelerators/a.json: accelerator.thermal.throttle_c: must be above "
                          "ambient_c (20 <= 30)");
}

void TestAccelPresets::badPresetFiles()
{
    QFETCH(QString, file);
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    QTemporaryDir dir;
    writeFile(dir.filePath(file), text);
    PresetLibrary lib;
    const auto status = lib.addFolder(dir.path().toStdString());
    QVERIFY(!status);
    QCOMPARE(QString::fromStdString(status.error().toString()),
             dir.path() + QLatin1Char('/') + message);
}

void TestAccelPresets::missingFolder()
{
    PresetLibrary lib;
    auto status = lib.addFolder("/nonexistent/presets");
    QVERIFY(!status);
    QCOMPARE(QString::fromStdString(status.error().toString()),
             QStringLiteral("/nonexistent/presets: preset folder not found"));
    QTemporaryDir dir;
    writeFile(dir.filePath(QStringLiteral("accelerators/a.json")),
              R"({"name": "same", "peak_tflops": {"int8": 1}, "memory_bandwidth_tb_per_s": 1,
                  "power_idle_w": 1, "power_max_w": 2})");
    writeFile(dir.filePath(QStringLiteral("accelerators/b.json")),
              R"({"name": "same", "peak_tflops": {"int8": 2}, "memory_bandwidth_tb_per_s": 1,
                  "power_idle_w": 1, "power_max_w": 2})");
    status = lib.addFolder(dir.path().toStdString());
    QVERIFY(!status);
    QCOMPARE(QString::fromStdString(status.error().toString()),
             dir.path() +
                 QStringLiteral("/accelerators/b.json: preset name 'same' is also used by a.json"));
}

QTEST_APPLESS_MAIN(TestAccelPresets)
#include "tst_accelpresets.moc"
