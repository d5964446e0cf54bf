// LLM scenarios from JSON, the per-request serving log reader, the profile step model and the
// result JSON, on the hand-made fixtures of tests/data/llmsim (README there).
#include "io/servingrequestlog.h"
#include "llmsim/llmresultjson.h"
#include "llmsim/llmscenariojson.h"
#include "llmsim/llmsimulator.h"
#include "llmsim/profilesteptime.h"
#include "llmsim/scenariopaths.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace bs;
using namespace bs::llmsim;

namespace {

std::string fixture(const char* name)
{
    return bs::test::testDataPath(QStringLiteral("llmsim/") + QString::fromUtf8(name))
        .toStdString();
}

Expected<LlmScenario> loadFixture(const char* name)
{
    auto json = readScenarioFile(fixture(name));
    if (!json)
        return json.error();
    return llmScenarioFromJson(*json, fixture(name));
}

bool nearMs(double seconds, double expectedMs)
{
    return std::abs(seconds * 1e3 - expectedMs) < 1e-6;
}

std::shared_ptr<const ProfileStepTime> miniProfile()
{
    auto profile = loadProfileStepTime(fixture("profile"), fixture("profile/config.json"), 0.0);
    if (!profile)
        qFatal("%s", profile.error().toString().c_str());
    return *profile;
}

} // namespace

class TestLlmSimScenario : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void requestLogUsesTheQueueClock();
    void requestLogErrorsNameLineAndKey_data();
    void requestLogErrorsNameLineAndKey();
    void replayScenarioServesTheHandTimeline();
    void scenarioRoundTripsThroughJson();
    void pathsAreRebasedForACopyInAnotherFolder();
    void scenarioErrorsNameTheKey_data();
    void scenarioErrorsNameTheKey();
    void requestTooLargeForTheCacheIsAnError();
    void tokenTraceReplaysRepeated();
    void poissonReplicationsHaveIntervals();
    void profileStepTimeIsTheOperatorSum();
    void profileNeedsTheLayerCount();
};

void TestLlmSimScenario::requestLogUsesTheQueueClock()
{
    auto requests = io::readServingRequestLog(fixture("requests_small.jsonl"));
    QVERIFY2(requests.hasValue(), requests ? "" : requests.error().toString().c_str());
    QCOMPARE(requests->size(), std::size_t(2));
    const auto& a = (*requests)[0];
    const auto& b = (*requests)[1];
    QCOMPARE(*a.arrivalS, 0.0);
    QVERIFY(nearMs(*b.arrivalS, 5.0));
    QVERIFY(nearMs(*a.ttftS, 500.0));
    QVERIFY(nearMs(*b.ttftS, 595.0));
    QVERIFY(nearMs(*a.tpotS, 125.0));
    QVERIFY(nearMs(*b.tpotS, 300.0));
    QVERIFY(nearMs(*b.e2eS, 895.0));
    QCOMPARE(*a.promptTokens, 100);
    QCOMPARE(*b.outputTokens, 2);
}

void TestLlmSimScenario::requestLogErrorsNameLineAndKey_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::newRow("missing key") << QStringLiteral("requests_missing_key.jsonl")
                                 << QStringLiteral("requests_missing_key.jsonl:2: no "
                                                   "\"first_token_ts\"");
    QTest::newRow("out of order") << QStringLiteral("requests_out_of_order.jsonl")
                                  << QStringLiteral("requests_out_of_order.jsonl:1: "
                                                    "\"first_token_ts\" comes before");
    QTest::newRow("not a log") << QStringLiteral("replay_small.json")
                               << QStringLiteral("replay_small.json:1:");
}

void TestLlmSimScenario::requestLogErrorsNameLineAndKey()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    auto requests = io::readServingRequestLog(fixture(file.toUtf8().constData()));
    QVERIFY(!requests);
    const QString text = QString::fromStdString(requests.error().toString());
    QVERIFY2(text.contains(expected), qPrintable(text));
}

void TestLlmSimScenario::replayScenarioServesTheHandTimeline()
{
    // A prefills 100 tokens (20 ms); B arrives at 5 ms and prefills with A's first decode
    // (10 + 5 + 1 = 16 ms, first token at 36 ms); both decode (12 ms, B done at 48 ms); A
    // decodes alone twice (11 ms each) and finishes at 70 ms.
    auto scenario = loadFixture("replay_small.json");
    QVERIFY2(scenario.hasValue(), scenario ? "" : scenario.error().toString().c_str());
    auto result =
        simulateLlm(*scenario, {bs::test::testDataPath(QStringLiteral("llmsim")).toStdString()});
    QVERIFY2(result.hasValue(), result ? "" : result.error().toString().c_str());
    const auto& a = result->requests[0];
    const auto& b = result->requests[1];
    QVERIFY(nearMs(a.ttftS, 20.0));
    QVERIFY(nearMs(b.ttftS, 31.0));
    QVERIFY(nearMs(a.tpotS, 12.5));
    QVERIFY(nearMs(b.tpotS, 12.0));
    QVERIFY(nearMs(a.e2eS, 70.0));
    const ReplicationMetrics& m = result->replications[0];
    QCOMPARE(m.goodFraction, 0.5); // B's 31 ms TTFT misses the 25 ms limit
    QCOMPARE(m.steps, std::int64_t(5));
    QVERIFY(nearMs(m.durationS, 70.0));
    QVERIFY(std::abs(m.outputTokensPerS - 7.0 / 0.070) < 1e-6);
    const nlohmann::json json = llmResultToJson(*result);
    QCOMPARE(json["kind"].get<std::string>(), std::string("batchscope.llmsim.result"));
    QVERIFY(std::abs(json["ttft_ms"]["mean"]["value"].get<double>() - 25.5) < 1e-9);
    QVERIFY(json["ttft_ms"]["mean"]["ci95"].is_null()); // one replication: no interval
    QCOMPARE(json["time_series"]["running_mean"].size(), json["time_series"]["start_s"].size());
}

void TestLlmSimScenario::pathsAreRebasedForACopyInAnotherFolder()
{
    LlmScenario scenario;
    scenario.arrivals.file = "runs/requests.jsonl";
    scenario.step.kind = StepSpec::Kind::Profile;
    scenario.step.profileDirectory = "../profiles/h100";
    scenario.step.modelConfig = "builtin:llama-3.1-8b";
    scenario.engine.kvMemory = KvMemorySpec{};
    scenario.engine.kvMemory->modelConfig = "/models/llama/config.json";

    // Folders that do not exist are taken as written.
    const LlmScenario copy = withPathsRebased(scenario, "/batchscope-no-such-root/study",
                                              "/batchscope-no-such-root/out/calibrated");
    QCOMPARE(copy.arrivals.file, std::string("../../study/runs/requests.jsonl"));
    QCOMPARE(copy.step.profileDirectory, std::string("../../profiles/h100"));
    // Built-in model names and absolute paths name the same thing from anywhere.
    QCOMPARE(copy.step.modelConfig, scenario.step.modelConfig);
    QCOMPARE(copy.engine.kvMemory->modelConfig, scenario.engine.kvMemory->modelConfig);
    // Into the same folder (however it is spelled) nothing changes.
    QCOMPARE(withPathsRebased(scenario, "/batchscope-no-such-root/study",
                              "/batchscope-no-such-root/study/./"),
             scenario);
    // From the working directory ("" is where a bare file name sits) to a subfolder.
    const LlmScenario below = withPathsRebased(scenario, "", "sub");
    QCOMPARE(below.arrivals.file, std::string("../runs/requests.jsonl"));

    // A scenario folder reached through a symbolic link: "../traces" is read from where the
    // link leads (the system resolves ".." there), and the copy names that same file.
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("real/proj")));
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("real/traces")));
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("out")));
    const QString trace = dir.filePath(QStringLiteral("real/traces/t.jsonl"));
    QFile file(trace);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    QVERIFY(QFile::link(dir.filePath(QStringLiteral("real/proj")),
                        dir.filePath(QStringLiteral("link"))));
    LlmScenario linked;
    linked.arrivals.file = "../traces/t.jsonl";
    const LlmScenario moved =
        withPathsRebased(linked, dir.filePath(QStringLiteral("link")).toStdString(),
                         dir.filePath(QStringLiteral("out")).toStdString());
    const QString reached = QDir(dir.filePath(QStringLiteral("out")))
                                .filePath(QString::fromStdString(moved.arrivals.file));
    QCOMPARE(QFileInfo(reached).canonicalFilePath(), QFileInfo(trace).canonicalFilePath());
}

void TestLlmSimScenario::scenarioRoundTripsThroughJson()
{
    for (const char* name : {"replay_small.json", "poisson_small.json"}) {
        auto scenario = loadFixture(name);
        QVERIFY2(scenario.hasValue(), scenario ? "" : scenario.error().toString().c_str());
        auto again = llmScenarioFromJson(llmScenarioToJson(*scenario));
        QVERIFY2(again.hasValue(), again ? "" : again.error().toString().c_str());
        QVERIFY(*again == *scenario);
    }
}

void TestLlmSimScenario::scenarioErrorsNameTheKey_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("expected");
    const QString tail = QStringLiteral(
        R"("step": {"kind": "linear", "base_ms": 1}, "arrivals": {"kind": "replay", "requests": [{"arrival_s": 0, "prompt_tokens": 4, "output_tokens": 2}]})");
    QTest::newRow("unknown policy")
        << (QStringLiteral(R"({"engine": {"policy": "fifo", "num_gpu_blocks": 8}, )") + tail + u'}')
        << QStringLiteral("scenario.engine.policy");
    QTest::newRow("prefix caching off vllm_v1")
        << (QStringLiteral(
                R"({"engine": {"policy": "orca", "num_gpu_blocks": 8, "enable_prefix_caching": true}, )") +
            tail + u'}')
        << QStringLiteral("scenario.engine.enable_prefix_caching: is modelled for the vllm_v1");
    QTest::newRow("prefix hit rate without prefix caching")
        << (QStringLiteral(R"({"engine": {"num_gpu_blocks": 8, "prefix_cache_hit_rate": 0.5}, )") +
            tail + u'}')
        << QStringLiteral("scenario.engine.prefix_cache_hit_rate: needs \"enable_prefix_caching\": "
                          "true");
    QTest::newRow("prefix hit rate under another policy")
        << (QStringLiteral(
                R"({"engine": {"policy": "sglang", "num_gpu_blocks": 8, "prefix_cache_hit_rate": 0.5}, )") +
            tail + u'}')
        << QStringLiteral(
               "scenario.engine.prefix_cache_hit_rate: applies to the vllm_v1 policy only");
    QTest::newRow("prefix hit rate above 1")
        << (QStringLiteral(
                R"({"engine": {"num_gpu_blocks": 8, "enable_prefix_caching": true, "prefix_cache_hit_rate": 1.5}, )") +
            tail + u'}')
        << QStringLiteral("scenario.engine.prefix_cache_hit_rate");
    QTest::newRow("no blocks") << (QStringLiteral(R"({"engine": {}, )") + tail + u'}')
                               << QStringLiteral("scenario.engine.num_gpu_blocks");
    QTest::newRow("typo")
        << (QStringLiteral(R"({"engine": {"num_gpu_blocks": 8, "max_num_seq": 4}, )") + tail + u'}')
        << QStringLiteral("max_num_seq");
    QTest::newRow("replications of a replay")
        << (QStringLiteral(R"({"replications": 2, "engine": {"num_gpu_blocks": 8}, )") + tail +
            u'}')
        << QStringLiteral("scenario.replications: a replay is deterministic");
    // Found by fuzz_llm_scenario: an empty file name read as a replay of nothing.
    QTest::newRow("empty file name")
        << QStringLiteral(
               R"({"engine": {"num_gpu_blocks": 8}, "step": {"kind": "linear", "base_ms": 1}, "arrivals": {"kind": "replay", "file": ""}})")
        << QStringLiteral("scenario.arrivals.file: must name a request file");
    QTest::newRow("zero step")
        << QStringLiteral(
               R"({"engine": {"num_gpu_blocks": 8}, "step": {"kind": "linear"}, "arrivals": {"kind": "poisson", "rate_per_s": 1, "requests": 5, "prompt_tokens": {"kind": "fixed", "tokens": 4}, "output_tokens": {"kind": "fixed", "tokens": 2}}})")
        << QStringLiteral("scenario.step.base_ms: a step must take some time");
    QTest::newRow("uniform upside down")
        << QStringLiteral(
               R"({"engine": {"num_gpu_blocks": 8}, "step": {"kind": "linear", "base_ms": 1}, "arrivals": {"kind": "poisson", "rate_per_s": 1, "requests": 5, "prompt_tokens": {"kind": "uniform", "min": 9, "max": 4}, "output_tokens": {"kind": "fixed", "tokens": 2}}})")
        << QStringLiteral("scenario.arrivals.prompt_tokens.max: must be at least min");
}

void TestLlmSimScenario::scenarioErrorsNameTheKey()
{
    QFETCH(QString, json);
    QFETCH(QString, expected);
    const auto parsed = nlohmann::json::parse(json.toStdString());
    QVERIFY(isLlmScenarioJson(parsed));
    auto scenario = llmScenarioFromJson(parsed, "s.json");
    QVERIFY(!scenario);
    const QString text = QString::fromStdString(scenario.error().toString());
    QVERIFY2(text.startsWith(QStringLiteral("s.json")) && text.contains(expected),
             qPrintable(text));

    auto fromFile = loadFixture("bad_block_size.json");
    QVERIFY(!fromFile);
    QVERIFY2(fromFile.error().message.find("scenario.engine.block_size") != std::string::npos,
             fromFile.error().message.c_str());
}

void TestLlmSimScenario::requestTooLargeForTheCacheIsAnError()
{
    auto scenario = loadFixture("too_long_for_cache.json");
    QVERIFY(scenario.hasValue());
    auto result = simulateLlm(*scenario);
    QVERIFY(!result);
    QCOMPARE(result.error().message,
             std::string("scenario.arrivals: request 0 needs 69 tokens of KV cache, more than "
                         "the 64 the engine has (num_gpu_blocks x block_size)"));
}

void TestLlmSimScenario::tokenTraceReplaysRepeated()
{
    const auto json = nlohmann::json::parse(R"({"kind": "llm", "engine": {"num_gpu_blocks": 100},
        "step": {"kind": "linear", "base_ms": 10, "per_prefill_token_ms": 0.1},
        "arrivals": {"kind": "replay", "file": "azure_small.csv", "repeat": 2}})");
    auto scenario = llmScenarioFromJson(json, "inline.json");
    QVERIFY2(scenario.hasValue(), scenario ? "" : scenario.error().toString().c_str());
    auto result =
        simulateLlm(*scenario, {bs::test::testDataPath(QStringLiteral("llmsim")).toStdString()});
    QVERIFY2(result.hasValue(), result ? "" : result.error().toString().c_str());
    QCOMPARE(result->requests.size(), std::size_t(6));
    QCOMPARE(result->requests[1].arrivalS, 1.0);
    QCOMPARE(result->requests[3].arrivalS, 3.0);
    QCOMPARE(result->requests[5].arrivalS, 5.0);
    QCOMPARE(result->requests[4].promptTokens, 50);
    QCOMPARE(result->requests[5].outputTokens, 3);
    // Alone on the engine: a 100-token prefill is 20 ms.
    QVERIFY(nearMs(result->requests[3].ttftS, 20.0));

    auto notTokens = llmScenarioFromJson(
        nlohmann::json::parse(R"({"kind": "llm", "engine": {"num_gpu_blocks": 100},
        "step": {"kind": "linear", "base_ms": 10},
        "arrivals": {"kind": "replay", "file": "bad_block_size.json"}})"),
        "inline.json");
    QVERIFY(notTokens.hasValue());
    auto refused =
        simulateLlm(*notTokens, {bs::test::testDataPath(QStringLiteral("llmsim")).toStdString()});
    QVERIFY(!refused);
    QVERIFY2(refused.error().toString().find("bad_block_size.json") != std::string::npos,
             refused.error().toString().c_str());
}

void TestLlmSimScenario::poissonReplicationsHaveIntervals()
{
    auto scenario = loadFixture("poisson_small.json");
    QVERIFY(scenario.hasValue());
    auto result = simulateLlm(*scenario);
    QVERIFY(result.hasValue());
    QCOMPARE(result->replications.size(), std::size_t(3));
    const nlohmann::json json = llmResultToJson(*result);
    const auto& ci = json["ttft_ms"]["mean"]["ci95"];
    QVERIFY(ci.is_array());
    const double mean = json["ttft_ms"]["mean"]["value"].get<double>();
    QVERIFY(ci[0].get<double>() < mean && mean < ci[1].get<double>());
    QCOMPARE(json["seeds"].size(), std::size_t(3));
}

void TestLlmSimScenario::profileStepTimeIsTheOperatorSum()
{
    const auto profile = miniProfile();
    // One 16-token prompt chunk: 2 layers x (8 x 16 dense + prefill attention 1) + embedding 16
    // + final norm 16 + lm_head 10 + sampler 1 = 301 us.
    const ScheduledChunk prefill[] = {{0, 16}};
    QVERIFY(std::abs(profile->stepS(prefill) - 301e-6) < 1e-12);
    // Two decodes with contexts 16 and 32 (mean 24): attention 2 x 24 / 16 = 3 per layer;
    // 2 x (16 + 3) + 2 + 2 + 20 + 2 = 64 us.
    const ScheduledChunk decodes[] = {{15, 1}, {31, 1}};
    QVERIFY(std::abs(profile->stepS(decodes) - 64e-6) < 1e-12);
    // Mixed: a 32-token chunk on 16 cached with one decode (mixed table 100 + 2 + 1 + 1), and a
    // second 16-token chunk (prefill table 1): 49 tokens (beyond the 3-token dense grid: the
    // last slope), 3 sequences (lm_head extrapolated to 30):
    // 2 x (392 + 105) + 49 + 49 + 30 + 3 = 1125 us.
    const ScheduledChunk mixed[] = {{16, 32}, {15, 1}, {0, 16}};
    QVERIFY(std::abs(profile->attentionUs(mixed) - 105.0) < 1e-9);
    QVERIFY(std::abs(profile->stepS(mixed) - 1125e-6) < 1e-12);
}

void TestLlmSimScenario::profileNeedsTheLayerCount()
{
    auto profile = loadProfileStepTime(fixture("profile"), fixture("bad_block_size.json"), 0.0);
    QVERIFY(!profile);
    QVERIFY(profile.error().toString().find("bad_block_size.json") != std::string::npos);
    QVERIFY(profile.error().message.find("num_hidden_layers") != std::string::npos);
    auto missing =
        loadProfileStepTime(fixture("no-such-folder"), fixture("profile/config.json"), 0.0);
    QVERIFY(!missing);
    QVERIFY(missing.error().toString().find("dense.csv") != std::string::npos);
}

QTEST_APPLESS_MAIN(TestLlmSimScenario)
#include "tst_llmsimscenario.moc"
