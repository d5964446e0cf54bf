// The debug playbook on LLM serving runs: constructed baseline/candidate pairs in
// tests/data/llm_playbook (serving engine logs, written by generate.py there), one per
// mechanism, each with the stage and class its construction implies; a pair with nothing
// failing claims nothing; an unaccepted engine knob difference blocks.

#include "analysis/llmrunfigures.h"
#include "io/readdataset.h"
#include "llmsim/llmscenariojson.h"
#include "llmsim/llmsimulator.h"
#include "playbook/evidence.h"
#include "playbook/llmplaybook.h"
#include "playbook/playbook.h"
#include "playbook/playbookinputs.h"
#include "playbook/projectplaybook.h"
#include "playbook/report.h"
#include "testsupport.h"

#include <QtTest>

using namespace bs;
using namespace bs::playbook;

namespace {

data::Dataset readRun(const QString& relative, const std::string& id, data::DatasetRole role)
{
    auto dataset = io::readDataset(
        test::testDataPath(QStringLiteral("llm_playbook/") + relative).toStdString());
    if (!dataset)
        qFatal("%s", dataset.error().message.c_str());
    dataset->id = id;
    dataset->name = id;
    dataset->role = role;
    return std::move(*dataset);
}

/// The baseline a candidate folder is compared with: the scheduling pair serves prompts of up
/// to 6,000 tokens (so that a 2,048-token budget chunks some), with a baseline of its own.
QString baselineOf(const QString& candidate)
{
    return candidate == QLatin1String("scheduling") ? QStringLiteral("long_baseline")
                                                    : QStringLiteral("baseline");
}

data::Project pairProject(const QString& candidate, bool powerLogs = false)
{
    data::Project project;
    project.title = "LLM pair " + std::string(candidate.toUtf8().constData());
    project.datasets.push_back(readRun(baselineOf(candidate) + QStringLiteral("/requests.jsonl"),
                                       "baseline", data::DatasetRole::Baseline));
    project.datasets.push_back(readRun(candidate + QStringLiteral("/requests.jsonl"), "candidate",
                                       data::DatasetRole::Candidate));
    if (powerLogs) {
        project.datasets.push_back(readRun(QStringLiteral("baseline/power.csv"), "baseline power",
                                           data::DatasetRole::Baseline));
        project.datasets.push_back(readRun(candidate + QStringLiteral("/power.csv"),
                                           "candidate power", data::DatasetRole::Candidate));
    }
    return project;
}

/// The pair's runs as sglang served them: the step budget is its prefill chunk, and sglang has
/// no max_num_batched_tokens or enable_chunked_prefill.
data::Project asSglang(data::Project project)
{
    for (auto& dataset : project.datasets) {
        auto runs = dataset.llmRuns();
        if (!runs)
            continue;
        auto copy = std::make_shared<data::LlmRunSet>(*runs);
        for (auto& r : copy->runs) {
            r.tool = r.backend = "sglang";
            const auto budget = r.knobs.find("engine.max_num_batched_tokens");
            if (budget == r.knobs.end())
                qFatal("%s records no max_num_batched_tokens", dataset.name.c_str());
            r.knobs["engine.chunked_prefill_size"] = budget->second;
            r.knobs.erase(budget);
            r.knobs.erase("engine.enable_chunked_prefill");
        }
        dataset.setContent(std::shared_ptr<const data::LlmRunSet>(copy));
    }
    return project;
}

/// The project with the candidate run's header knob `key` set to `value`.
data::Project withCandidateKnob(data::Project project, const std::string& key,
                                const std::string& value)
{
    for (auto& dataset : project.datasets) {
        if (dataset.role != data::DatasetRole::Candidate || !dataset.llmRuns())
            continue;
        auto copy = std::make_shared<data::LlmRunSet>(*dataset.llmRuns());
        for (auto& r : copy->runs)
            r.knobs[key] = value;
        dataset.setContent(std::shared_ptr<const data::LlmRunSet>(copy));
    }
    return project;
}

/// The project with every candidate record of `knob` (under any prefix) removed.
data::Project withoutCandidateKnob(data::Project project, const std::string& knob)
{
    for (auto& dataset : project.datasets) {
        if (dataset.role != data::DatasetRole::Candidate || !dataset.llmRuns())
            continue;
        auto copy = std::make_shared<data::LlmRunSet>(*dataset.llmRuns());
        for (auto& r : copy->runs)
            std::erase_if(r.knobs, [&knob](const auto& k) { return k.first.ends_with(knob); });
        dataset.setContent(std::shared_ptr<const data::LlmRunSet>(copy));
    }
    return project;
}

PlaybookState reviewing(const std::string& key)
{
    PlaybookState state;
    if (!key.empty())
        state.accept(key, "the " + key + " change is the change under review");
    return state;
}

/// The state a mechanism pair is reviewed in: its change accepted, and for the precision pair
/// the quality evidence that puts it outside tolerance.
PlaybookState stateFor(const QString& candidate, const QString& acceptedKey)
{
    auto state = reviewing(acceptedKey.toStdString());
    if (candidate == QLatin1String("precision"))
        state.quality = QualityEvidence{"MMLU accuracy (%)",
                                        71.2,
                                        69.0,
                                        std::nullopt,
                                        0.5,
                                        false,
                                        "evaluation of both deployments"};
    return state;
}

PlaybookResult run(const data::Project& project, const PlaybookState& state)
{
    auto result = runPlaybook(project, state);
    if (!result)
        qFatal("%s", result.error().message.c_str());
    return std::move(*result);
}

std::string topMechanism(const PlaybookResult& r)
{
    return r.classification.claims() ? mechanismName(r.classification.ranked.front().mechanism)
                                     : "none";
}

/// The p99 (numpy's linear quantile) of each request's figure in a run's requests.jsonl, worked
/// out here from its timestamps: TTFT = first_token_ts - queued_ts, TPOT = (last_token_ts -
/// first_token_ts) / (output_toks - 1) for more than one output token; ms.
struct RequestLogFigures
{
    double ttftP99Ms = 0.0, tpotP99Ms = 0.0, outputTokensPerS = 0.0;
};

double p99(std::vector<double> values)
{
    std::ranges::sort(values);
    const double at = 0.99 * double(values.size() - 1);
    const auto below = std::size_t(std::floor(at));
    const std::size_t above = std::min(below + 1, values.size() - 1);
    return values[below] + (at - double(below)) * (values[above] - values[below]);
}

RequestLogFigures figuresOfLog(const QString& relative)
{
    QFile file(test::testDataPath(QStringLiteral("llm_playbook/") + relative));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(relative));
    std::vector<double> ttft, tpot;
    double firstQueued = INFINITY, lastToken = -INFINITY, outputTokens = 0.0;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine().trimmed();
        if (line.isEmpty())
            continue;
        const auto r = nlohmann::json::parse(line.toStdString());
        const double queued = r["queued_ts"], first = r["first_token_ts"],
                     last = r["last_token_ts"];
        const double output = r["output_toks"];
        ttft.push_back((first - queued) * 1e3);
        if (output > 1)
            tpot.push_back((last - first) / (output - 1) * 1e3);
        firstQueued = std::min(firstQueued, queued);
        lastToken = std::max(lastToken, last);
        outputTokens += output;
    }
    return {p99(ttft), p99(tpot), outputTokens / (lastToken - firstQueued)};
}

std::string firstStage(const PlaybookResult& r)
{
    return r.locate.firstPersistentStage ? stageName(*r.locate.firstPersistentStage) : "none";
}

} // namespace

class TestPlaybookLlm : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void mechanism_data();
    void mechanism();
    void fixMovesAsItsMechanismImplies_data();
    void fixMovesAsItsMechanismImplies();
    void noFailingMetricClaimsNothing();
    void longerOutputsLocateAtTheTailAndClaimNoEngineMechanism();
    void engineKnobDifferenceBlocks();
    void runIdentityDifferenceBlocks_data();
    void runIdentityDifferenceBlocks();
    void interferenceFixIsSimulated();
    void seatFixIsSimulated();
    void sglangInterferenceFixLowersItsChunk();
    void aSettingTheRunDoesNotRecordIsNamedAsTheDefault();
    void focusedReproducerIsTheBusyPeriodOfTheSlowestFirstToken();
    void reportsCarryLlmMetrics();
    void matrixRowsAreTheRunsOwnFigures();
    void aPowerLogOfAnotherDayIsSetAside();
    void realRunAgainstItself();
};

void TestPlaybookLlm::mechanism_data()
{
    QTest::addColumn<QString>("candidate");
    QTest::addColumn<QString>("acceptedKey");
    QTest::addColumn<bool>("powerLogs");
    QTest::addColumn<QString>("mechanism");
    QTest::addColumn<QString>("stage");
    // Prefill per prompt token doubles on one GPU; decode grows by a tenth.
    QTest::newRow("compute") << "compute"
                             << "tensor_parallel_size" << false << "compute"
                             << "scheduler step";
    // A third of the KV cache: the cache runs full, decodes stall on recompute.
    QTest::newRow("memory") << "memory"
                            << "gpu_memory_utilization" << false << "memory"
                            << "KV cache";
    // A 16384-token budget: TPOT spikes for a quarter of the requests, median unchanged.
    QTest::newRow("scheduling") << "scheduling"
                                << "max_num_batched_tokens" << false << "scheduling"
                                << "decode iterations";
    // fp8 KV cache: half as full, faster decode; quality evidence outside tolerance.
    QTest::newRow("precision") << "precision"
                               << "kv_cache_dtype" << false << "precision"
                               << "KV cache";
    // Same settings, a GPU that throttles after a quarter of the run.
    QTest::newRow("thermal") << "thermal"
                             << "" << true << "thermal"
                             << "scheduler step";
    // Eight seats instead of 64: requests wait for a seat; prefill and decode unchanged.
    QTest::newRow("queueing") << "queueing"
                              << "max_num_seqs" << false << "scheduling"
                              << "admission queue";
}

void TestPlaybookLlm::mechanism()
{
    QFETCH(QString, candidate);
    QFETCH(QString, acceptedKey);
    QFETCH(bool, powerLogs);
    QFETCH(QString, mechanism);
    QFETCH(QString, stage);
    const auto result = run(pairProject(candidate, powerLogs), stateFor(candidate, acceptedKey));
    QVERIFY2(result.concluded(), result.conclusionBlocker.c_str());
    QVERIFY(result.locate.llm);
    QCOMPARE(QString::fromStdString(firstStage(result)), stage);
    QCOMPARE(QString::fromStdString(topMechanism(result)), mechanism);
    QVERIFY2(result.classification.decided, result.steps[2].summary.c_str());
    QVERIFY(result.fix.chosen.has_value());
    QVERIFY(result.steps[4].status != StepStatus::NotStarted);
}

void TestPlaybookLlm::fixMovesAsItsMechanismImplies_data()
{
    QTest::addColumn<QString>("candidate");
    QTest::addColumn<QString>("acceptedKey");
    QTest::addColumn<bool>("powerLogs");
    QTest::addColumn<QString>("knob");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");          ///< Empty: the replay chooses it.
    QTest::addColumn<double>("ttftRatioMin"); ///< Fixed / candidate replayed TTFT p99.
    QTest::addColumn<double>("ttftRatioMax");
    QTest::addColumn<double>("tpotRatioMin");
    QTest::addColumn<double>("tpotRatioMax");
    QTest::addColumn<bool>("warns");
    // Back to two GPUs, replayed on the baseline's fitted step: prefill halves per token, so
    // TTFT falls by a third (620 -> 407 ms), TPOT by a sixth (42 -> 34 ms).
    QTest::newRow("compute") << "compute"
                             << "tensor_parallel_size" << false << "tensor_parallel_size"
                             << "1"
                             << "2" << 0.5 << 0.8 << 0.7 << 0.95 << false;
    // 400 -> 4000 KV blocks (the baseline's record at 0.9): the preemption queue goes, TTFT p99
    // falls to under half (1,060 -> 239 ms).
    QTest::newRow("memory") << "memory"
                            << "gpu_memory_utilization" << false << "gpu_memory_utilization"
                            << "0.6"
                            << "0.9" << 0.1 << 0.5 << 0.8 << 1.05 << false;
    // Back to an unquantised KV cache for quality, on the baseline's step: the latency price is
    // the fp8 gain given back (TTFT 352 -> 407 ms, TPOT 26 -> 34 ms).
    QTest::newRow("precision") << "precision"
                               << "kv_cache_dtype" << false << "kv_cache_dtype"
                               << "fp8"
                               << "auto" << 1.05 << 1.4 << 1.2 << 1.5 << false;
    // The fewest seats that keep TTFT p99 within the 10% tolerance: below the replay's peak,
    // and at most 10% slower first tokens; its power effect is not simulated, so step 4 warns.
    QTest::newRow("thermal") << "thermal"
                             << "" << true << "max_num_seqs"
                             << "64"
                             << "" << 1.0 << 1.10 << 0.8 << 1.0 << true;
}

void TestPlaybookLlm::fixMovesAsItsMechanismImplies()
{
    QFETCH(QString, candidate);
    QFETCH(QString, acceptedKey);
    QFETCH(bool, powerLogs);
    QFETCH(QString, knob);
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(double, ttftRatioMin);
    QFETCH(double, ttftRatioMax);
    QFETCH(double, tpotRatioMin);
    QFETCH(double, tpotRatioMax);
    QFETCH(bool, warns);
    const auto result = run(pairProject(candidate, powerLogs), stateFor(candidate, acceptedKey));
    QVERIFY(result.fix.chosen.has_value());
    QCOMPARE(QString::fromStdString(result.fix.chosen->knob), knob);
    QCOMPARE(QString::fromStdString(result.fix.from), from);
    const QString value = QString::fromStdString(choiceValueText(result.fix.chosen->value));
    if (!to.isEmpty())
        QCOMPARE(value, to);
    QVERIFY2(result.fix.llmReproducer.has_value(), result.fix.llmMethod.c_str());
    QCOMPARE(result.fix.movements.size(), std::size_t(3));
    const auto& ttft = result.fix.movements[0];
    const auto& tpot = result.fix.movements[1];
    QCOMPARE(ttft.metric, std::string("TTFT p99"));
    qInfo("%s = %s: TTFT p99 %.1f -> %.1f ms, TPOT p99 %.2f -> %.2f ms", qPrintable(knob),
          qPrintable(value), ttft.candidate, ttft.fixed, tpot.candidate, tpot.fixed);
    QVERIFY(ttft.fixed >= ttftRatioMin * ttft.candidate);
    QVERIFY(ttft.fixed <= ttftRatioMax * ttft.candidate);
    QVERIFY(tpot.fixed >= tpotRatioMin * tpot.candidate);
    QVERIFY(tpot.fixed <= tpotRatioMax * tpot.candidate);
    const auto& fixed = (*result.fix.llmFixed)["engine"];
    const auto& reproducer = (*result.fix.llmReproducer)["engine"];
    if (candidate == QLatin1String("memory"))
        QCOMPARE(fixed["num_gpu_blocks"].get<int>(), 4000);
    if (candidate == QLatin1String("compute") || candidate == QLatin1String("precision")) {
        // The fixed replay runs on the baseline's fitted step, the reproducer on the candidate's.
        QVERIFY(result.fix.llmMethod.find("step fitted on the baseline run") != std::string::npos);
        QVERIFY((*result.fix.llmFixed)["step"] != (*result.fix.llmReproducer)["step"]);
    }
    if (candidate == QLatin1String("thermal")) {
        // A cap that binds: below the replay's own peak of running sequences.
        const int cap = fixed["max_num_seqs"].get<int>();
        QCOMPARE(QString::number(cap), value);
        QVERIFY(cap < 64 && reproducer["max_num_seqs"].get<int>() == 64);
        QVERIFY(result.fix.chosen->reason.find("its peak: ") != std::string::npos);
        const auto peakAt = result.fix.chosen->reason.find("its peak: ") + 10;
        QVERIFY(cap < std::stoi(result.fix.chosen->reason.substr(peakAt)));
    }
    const auto& step = result.steps.at(3);
    QCOMPARE(step.status == StepStatus::Warning, warns);
    const bool pricedOnly = candidate == QLatin1String("precision") || warns;
    QCOMPARE(step.summary.find("The replay gives its latency price") != std::string::npos,
             pricedOnly);
    if (warns)
        QVERIFY(!step.missingEvidence.empty() &&
                step.missingEvidence.back().find("power") != std::string::npos);
}

void TestPlaybookLlm::noFailingMetricClaimsNothing()
{
    const auto result = run(pairProject(QStringLiteral("noalarm")), reviewing(""));
    QVERIFY2(result.concluded(), result.conclusionBlocker.c_str());
    const std::string failing =
        result.locate.failing.empty() ? std::string() : result.locate.failing.front();
    QVERIFY2(result.locate.failing.empty(), failing.c_str());
    QVERIFY(!result.classification.claims());
    QVERIFY(!result.fix.chosen);
    Memo memo;
    fillMemoDrafts(memo, result);
    QVERIFY(memo.primaryMechanism.text.rfind("None claimed", 0) == 0);
}

void TestPlaybookLlm::longerOutputsLocateAtTheTailAndClaimNoEngineMechanism()
{
    // The tail pair: the candidate's engine used vLLM's sampling defaults instead of the model's
    // generation config, so requests stop later (output tokens 40-200 -> 40-600); queue, prefill
    // and the time per output token are unchanged.
    const auto project = pairProject(QStringLiteral("tail"));
    // Freeze names the engine setting outside its list of knobs, with both values.
    const auto blocked = run(project, reviewing(""));
    const auto item =
        std::ranges::find(blocked.freeze.items, std::string("generation_config"), &FreezeItem::key);
    QVERIFY(item != blocked.freeze.items.end());
    QVERIFY(item->differs);
    QCOMPARE(item->baseline, std::string());
    QCOMPARE(item->candidate, std::string("vllm"));
    QCOMPARE(blocked.steps[0].status, StepStatus::Blocker);

    const auto result = run(project, reviewing("generation_config"));
    QVERIFY2(result.concluded(), result.conclusionBlocker.c_str());
    // The first persistent divergent stage is the last one: E2E p99 grows in every window.
    QCOMPARE(firstStage(result), std::string("completion and tail"));
    const auto& first = result.locate.metrics.at(std::size_t(result.locate.firstMetric));
    QCOMPARE(first.metric, std::string("p99 latency (E2E)"));
    QVERIFY(first.overall.candidate > 1.5 * first.overall.baseline);
    // Nothing earlier diverges persistently, and the SLA metrics hold.
    for (const auto& m : result.locate.metrics) {
        if (m.stage == Stage::CompletionTail)
            continue;
        QVERIFY2(!(m.persistence.persistent && m.divergent()), m.metric.c_str());
    }
    // Longer outputs at unchanged per-token figures are the workload, not an engine mechanism:
    // no claim, and no engine knob is proposed against it.
    QVERIFY(!result.classification.claims());
    QVERIFY2(result.classification.noClaim.find("more output tokens (median ") != std::string::npos,
             result.classification.noClaim.c_str());
    QCOMPARE(result.steps[2].status, StepStatus::Warning);
    QVERIFY(!result.fix.chosen);
    QCOMPARE(result.steps[3].status, StepStatus::NotStarted);
    // The no-alarm pair, same outputs by construction, is not explained away as a workload.
    const auto noAlarm = run(pairProject(QStringLiteral("noalarm")), reviewing(""));
    QVERIFY(noAlarm.classification.noClaim.find("output tokens (median") == std::string::npos);
}

void TestPlaybookLlm::engineKnobDifferenceBlocks()
{
    const auto result = run(pairProject(QStringLiteral("scheduling")), reviewing(""));
    QVERIFY(!result.concluded());
    QCOMPARE(result.steps[0].status, StepStatus::Blocker);
    const auto item = std::ranges::find(result.freeze.items, std::string("max_num_batched_tokens"),
                                        &FreezeItem::key);
    QVERIFY(item != result.freeze.items.end());
    QVERIFY(item->differs);
    QCOMPARE(item->baseline, std::string("2048"));
    QCOMPARE(item->candidate, std::string("16384"));
    QCOMPARE(result.steps[2].status, StepStatus::Blocker);
    // sglang's budget knobs are rows only where a run records them.
    QVERIFY(std::ranges::find(result.freeze.items, std::string("chunked_prefill_size"),
                              &FreezeItem::key) == result.freeze.items.end());
}

void TestPlaybookLlm::runIdentityDifferenceBlocks_data()
{
    QTest::addColumn<QString>("item");
    QTest::addColumn<QString>("knob");
    QTest::addColumn<QString>("baseline");
    QTest::addColumn<QString>("candidate");
    // The no-alarm pair's candidate, served by another model revision, engine version, dataset
    // or seed than its header says the baseline was (meta.json's keys).
    QTest::newRow("model revision") << "model_revision"
                                    << "engine.revision"
                                    << "a1b2c3d"
                                    << "f00dfee";
    QTest::newRow("engine version") << "engine_version"
                                    << "vllm_version"
                                    << "0.19.0"
                                    << "0.20.1";
    QTest::newRow("dataset") << "dataset"
                             << "dataset_path"
                             << "workloads/sharegpt-mini-320.jsonl"
                             << "workloads/sharegpt-long-320.jsonl";
    QTest::newRow("seed") << "seed"
                          << "engine.seed"
                          << "42"
                          << "7";
}

void TestPlaybookLlm::runIdentityDifferenceBlocks()
{
    QFETCH(QString, item);
    QFETCH(QString, knob);
    QFETCH(QString, baseline);
    QFETCH(QString, candidate);
    const std::string key = item.toStdString();
    const auto same = run(pairProject(QStringLiteral("noalarm")), reviewing(""));
    QVERIFY(same.steps[0].status != StepStatus::Blocker);
    const auto project = withCandidateKnob(pairProject(QStringLiteral("noalarm")),
                                           knob.toStdString(), candidate.toStdString());
    // Frozen on everything else, the difference is named with both values and blocks.
    const auto blocked = run(project, reviewing(""));
    for (const auto& i : blocked.freeze.items)
        QCOMPARE(i.differs, i.key == key);
    const auto it = std::ranges::find(blocked.freeze.items, key, &FreezeItem::key);
    QVERIFY(it != blocked.freeze.items.end());
    QCOMPARE(QString::fromStdString(it->baseline), baseline);
    QCOMPARE(QString::fromStdString(it->candidate), candidate);
    QCOMPARE(blocked.steps[0].status, StepStatus::Blocker);
    QVERIFY(!blocked.concluded());
    // Accepted as the change under review, it no longer blocks.
    const auto accepted = run(project, reviewing(key));
    QVERIFY(accepted.steps[0].status != StepStatus::Blocker);
}

void TestPlaybookLlm::interferenceFixIsSimulated()
{
    const auto result =
        run(pairProject(QStringLiteral("scheduling")), reviewing("max_num_batched_tokens"));
    QVERIFY(result.fix.chosen.has_value());
    QCOMPARE(result.fix.chosen->knob, std::string("max_num_batched_tokens"));
    QCOMPARE(result.fix.chosen->value.get<double>(), 2048.0);
    QCOMPARE(result.fix.from, std::string("16384"));
    QCOMPARE(result.fix.movements.size(), std::size_t(3));
    QVERIFY2(result.fix.llmReproducer.has_value(), result.fix.llmMethod.c_str());
    qInfo("%s; step %s", result.fix.llmMethod.c_str(),
          (*result.fix.llmReproducer)["step"].dump().c_str());
    for (const auto& m : result.fix.movements) {
        qInfo("%s: candidate %.2f -> fixed %.2f", m.metric.c_str(), m.candidate, m.fixed);
        QVERIFY(std::isfinite(m.candidate) && std::isfinite(m.fixed));
    }
    // The trade a step budget makes on vLLM, with prompts of up to 6,000 tokens: chunked in
    // 2,048-token steps, a long prompt no longer stalls the decodes beside it for its whole
    // prefill, so the longest gaps between tokens shrink (ITL p99 130 -> 58 ms) and TPOT p99
    // does not rise; the long prompts' own first tokens come later (TTFT p99 330 -> 525 ms).
    const auto moved = [&result](const std::string& metric) {
        const auto it = std::ranges::find(result.fix.movements, metric, &Movement::metric);
        if (it == result.fix.movements.end())
            qFatal("no %s movement", metric.c_str());
        return *it;
    };
    const Movement ttft = moved("TTFT p99"), tpot = moved("TPOT p99"), itl = moved("ITL p99");
    QVERIFY(itl.fixed < 0.6 * itl.candidate);
    QVERIFY(tpot.fixed <= tpot.candidate);
    QVERIFY(ttft.fixed > 1.2 * ttft.candidate);
    // The replay shows it helping, so step 4 signs off on it.
    const auto& fixStep = result.steps.at(3);
    QVERIFY(bs::playbook::replayShowsItHelping(result.fix));
    QVERIFY2(fixStep.summary.find("The replay does not show it helping") == std::string::npos,
             fixStep.summary.c_str());
    QCOMPARE(fixStep.status, StepStatus::Ok);
    QVERIFY(result.matrix.replayIdentical);
}

void TestPlaybookLlm::seatFixIsSimulated()
{
    // Requests wait for one of eight seats (the admission queue comes first): the fix raises
    // max_num_seqs back to the baseline's 64, replayed on the candidate's requests.
    const auto result = run(pairProject(QStringLiteral("queueing")), reviewing("max_num_seqs"));
    QCOMPARE(firstStage(result), std::string("admission queue"));
    QVERIFY(result.fix.chosen.has_value());
    QCOMPARE(result.fix.chosen->knob, std::string("max_num_seqs"));
    QCOMPARE(result.fix.chosen->value.get<double>(), 64.0);
    QCOMPARE(result.fix.from, std::string("8"));
    QVERIFY2(result.fix.llmReproducer.has_value(), result.fix.llmMethod.c_str());
    QCOMPARE((*result.fix.llmReproducer)["engine"]["max_num_seqs"].get<int>(), 8);
    QCOMPARE((*result.fix.llmFixed)["engine"]["max_num_seqs"].get<int>(), 64);
    // The trade the simulator shows: the wait for a seat goes (TTFT p99 falls by half), and
    // more sequences share each decode step (TPOT p99 rises).
    QCOMPARE(result.fix.movements.size(), std::size_t(3));
    for (const auto& m : result.fix.movements) {
        qInfo("%s: candidate %.2f -> fixed %.2f", m.metric.c_str(), m.candidate, m.fixed);
        QVERIFY(std::isfinite(m.candidate) && std::isfinite(m.fixed));
        if (m.metric == "TTFT p99")
            QVERIFY(m.fixed < 0.5 * m.candidate);
        else
            QVERIFY(m.fixed > m.candidate);
    }
}

void TestPlaybookLlm::sglangInterferenceFixLowersItsChunk()
{
    // The scheduling pair on sglang: 2,048- against 16,384-token prefill chunks. Freeze names
    // the chunk, and the fix lowers the chunk, not a max_num_batched_tokens the engine lacks.
    const auto project = asSglang(pairProject(QStringLiteral("scheduling")));
    const auto blocked = run(project, reviewing(""));
    const auto chunk = std::ranges::find(blocked.freeze.items, std::string("chunked_prefill_size"),
                                         &FreezeItem::key);
    QVERIFY(chunk != blocked.freeze.items.end());
    QVERIFY(chunk->differs);
    QCOMPARE(chunk->candidate, std::string("16384"));
    // No rows for knobs sglang lacks (max_num_batched_tokens, enable_chunked_prefill) or
    // neither run records (max_prefill_tokens): accepting the chunk unblocks step 1.
    for (const char* absent :
         {"max_prefill_tokens", "max_num_batched_tokens", "enable_chunked_prefill"})
        QVERIFY2(std::ranges::find(blocked.freeze.items, std::string(absent), &FreezeItem::key) ==
                     blocked.freeze.items.end(),
                 absent);
    QCOMPARE(blocked.steps[0].status, StepStatus::Blocker);

    const auto result = run(project, reviewing("chunked_prefill_size"));
    QVERIFY(result.steps[0].status != StepStatus::Blocker);
    QCOMPARE(topMechanism(result), std::string("scheduling"));
    QVERIFY(result.fix.chosen.has_value());
    QCOMPARE(result.fix.chosen->knob, std::string("chunked_prefill_size"));
    QCOMPARE(result.fix.chosen->value.get<double>(), 2048.0);
    QCOMPARE(result.fix.from, std::string("16384"));
    // Simulated with sglang's scheduler on the candidate's fitted step time.
    QVERIFY2(result.fix.llmReproducer.has_value(), result.fix.llmMethod.c_str());
    const auto& engine = (*result.fix.llmReproducer)["engine"];
    QCOMPARE(engine["policy"].get<std::string>(), std::string("sglang"));
    QCOMPARE(engine["chunked_prefill_size"].get<int>(), 16384);
    QCOMPARE((*result.fix.llmFixed)["engine"]["chunked_prefill_size"].get<int>(), 2048);
    QCOMPARE(result.fix.movements.size(), std::size_t(3));
    for (const auto& m : result.fix.movements) {
        qInfo("%s: candidate %.2f -> fixed %.2f", m.metric.c_str(), m.candidate, m.fixed);
        QVERIFY(std::isfinite(m.candidate) && std::isfinite(m.fixed));
        QVERIFY(m.candidate != m.fixed);
    }
    // SGLang runs prefill-only batches first (enable_mixed_chunk off, its default): a chunked
    // prompt's chunks still run ahead of the decodes, each step paying its base time, so the
    // replay shows the smaller chunk not helping (ITL p99 215 -> 282 ms) and step 4 warns
    // instead of signing off on it.
    QVERIFY(!replayShowsItHelping(result.fix));
    QCOMPARE(result.steps.at(3).status, StepStatus::Warning);
    // Chunking off on the candidate (-1): a lower max_prefill_tokens would not keep a lone
    // long prompt out of a step, so the fix turns chunking on at the baseline's chunk.
    const auto off = run(withCandidateKnob(project, "engine.chunked_prefill_size", "-1"),
                         reviewing("chunked_prefill_size"));
    QVERIFY(off.fix.chosen.has_value());
    QCOMPARE(off.fix.chosen->knob, std::string("chunked_prefill_size"));
    QCOMPARE(off.fix.chosen->value.get<double>(), 2048.0);
    QCOMPARE(off.fix.from, std::string("-1"));
    QVERIFY2(off.fix.llmFixed.has_value(), off.fix.llmMethod.c_str());
    QCOMPARE((*off.fix.llmReproducer)["engine"]["chunked_prefill_size"].get<int>(), -1);
    QCOMPARE((*off.fix.llmFixed)["engine"]["chunked_prefill_size"].get<int>(), 2048);
}

void TestPlaybookLlm::aSettingTheRunDoesNotRecordIsNamedAsTheDefault()
{
    // The queueing pair with the candidate's max_num_seqs unrecorded: the fix starts from the
    // simulated engine's default, and step 4 and the memo say it is a default, not what ran.
    const auto result =
        run(withoutCandidateKnob(pairProject(QStringLiteral("queueing")), "max_num_seqs"),
            reviewing("max_num_seqs"));
    QVERIFY(result.fix.chosen.has_value());
    QCOMPARE(result.fix.chosen->knob, std::string("max_num_seqs"));
    QVERIFY2(result.fix.from.starts_with("256 (") &&
                 result.fix.from.ends_with("'s default: the run does not record it)"),
             result.fix.from.c_str());
    QVERIFY2(result.steps.at(3).summary.find("from " + result.fix.from + " to ") !=
                 std::string::npos,
             result.steps.at(3).summary.c_str());
    // Recorded, it is the run's own figure, as seatFixIsSimulated shows (8).
}

void TestPlaybookLlm::focusedReproducerIsTheBusyPeriodOfTheSlowestFirstToken()
{
    // The queueing pair: step 4's focused reproducer is the stretch of the candidate's replay
    // that holds its slowest first token, from the last arrival that found the engine empty.
    // Checked here from the whole replay (the reproducer scenario simulated again): every
    // request before the slice finished before its first arrival, the slice ends at the next
    // such arrival, and the slice's own scenario replayed alone gives the slowest TTFT again.
    const auto result = run(pairProject(QStringLiteral("queueing")), reviewing("max_num_seqs"));
    QVERIFY2(result.fix.llmReproducer && result.fix.llmSlice, result.fix.llmMethod.c_str());
    const auto& slice = *result.fix.llmSlice;
    auto wholeScenario = llmsim::llmScenarioFromJson(*result.fix.llmReproducer);
    QVERIFY(wholeScenario);
    auto whole = llmsim::simulateLlm(*wholeScenario);
    QVERIFY(whole);
    const auto& rs = whole->requests;
    QCOMPARE(slice.ofRequests, rs.size());
    std::size_t slowest = 0;
    for (std::size_t i = 0; i < rs.size(); ++i)
        if (rs[i].ttftS > rs[slowest].ttftS)
            slowest = i;
    QCOMPARE(slice.slowestRequest, slowest);
    QCOMPARE(slice.slowestTtftMs, rs[slowest].ttftS * 1e3);
    const std::size_t first = slice.firstRequest, end = first + slice.requests;
    QVERIFY(first <= slowest && slowest < end && end <= rs.size());
    double finishedBeforeS = -1.0;
    for (std::size_t i = 0; i < first; ++i)
        finishedBeforeS = std::max(finishedBeforeS, rs[i].finishS);
    QVERIFY(first == 0 || finishedBeforeS < rs[first].arrivalS);
    for (std::size_t i = first + 1; i < end; ++i) {
        double lastS = -1.0;
        for (std::size_t j = 0; j < i; ++j)
            lastS = std::max(lastS, rs[j].finishS);
        QVERIFY2(rs[i].arrivalS <= lastS, "a request inside the slice found the engine empty");
    }
    if (end < rs.size()) {
        double lastS = -1.0;
        for (std::size_t j = 0; j < end; ++j)
            lastS = std::max(lastS, rs[j].finishS);
        QVERIFY(rs[end].arrivalS > lastS);
    }
    // Focused: a part of the run, and replayed alone it gives the same TTFT to the nanosecond.
    qInfo("%s", bs::playbook::llmSliceText(slice).c_str());
    QVERIFY(slice.requests < slice.ofRequests);
    QVERIFY(slice.exact);
    auto aloneScenario = llmsim::llmScenarioFromJson(slice.scenario);
    QVERIFY(aloneScenario);
    QCOMPARE(aloneScenario->arrivals.requests.size(), slice.requests);
    auto alone = llmsim::simulateLlm(*aloneScenario);
    QVERIFY(alone);
    QVERIFY(std::abs(alone->requests.at(slowest - first).ttftS - rs[slowest].ttftS) <= 1e-9);
    // Step 4, the memo and the report name it; the report attaches it.
    QVERIFY(result.steps.at(3).summary.find("Focused reproducer: requests ") != std::string::npos);
    Memo memo;
    fillMemoDrafts(memo, result);
    QVERIFY(memo.workloadSlice.text.find("Focused reproducer: requests ") != std::string::npos);
    auto project = pairProject(QStringLiteral("queueing"));
    storePlaybook(project, reviewing("max_num_seqs"), Memo{});
    ReportOptions options;
    options.fileStem = "llm";
    auto bundle = prepareReport(project, options);
    QVERIFY(bundle);
    const auto& attachments = bundle->document.attachments;
    const auto attached =
        std::ranges::find(attachments, std::string("llm-slice.json"), &ReportAttachment::fileName);
    QVERIFY(attached != attachments.end());
    QCOMPARE(nlohmann::json::parse(attached->content), slice.scenario);
    QCOMPARE(bundle->json["fix"]["llm_slice"]["requests"].get<std::size_t>(), slice.requests);
    QCOMPARE(bundle->json["fix"]["llm_slice"]["exact"].get<bool>(), true);
}

void TestPlaybookLlm::reportsCarryLlmMetrics()
{
    const auto project = pairProject(QStringLiteral("scheduling"));
    auto state = reviewing("max_num_batched_tokens");
    auto result = run(project, state);
    Memo memo;
    fillMemoDrafts(memo, result);
    QVERIFY(memo.workloadSlice.text.find("TPOT p99") != std::string::npos);
    QVERIFY(memo.requiredArtifact.text.find("LLM curve pack") != std::string::npos);
    // The memo says what steps 4 and 5 did: the LLM reproducer exists and replays
    // bit-identically, and each movement sits beside what the candidate run measured.
    QVERIFY(result.fix.llmReproducer && result.matrix.replayIdentical);
    QVERIFY2(memo.regressionRisk.text.find("reproducer replay bit-identical (pass)") !=
                 std::string::npos,
             memo.regressionRisk.text.c_str());
    QVERIFY2(memo.regressionRisk.text.find("Thermal: not simulated in the replay") !=
                 std::string::npos,
             memo.regressionRisk.text.c_str());
    QVERIFY(result.classification.claims());
    QVERIFY2(memo.seniorQuestionAnswer.text.find("is the LLM reproducer") != std::string::npos &&
                 memo.seniorQuestionAnswer.text.find("replays it bit-identically") !=
                     std::string::npos,
             memo.seniorQuestionAnswer.text.c_str());
    QVERIFY2(memo.expectedMovement.text.find("the candidate run measured") != std::string::npos,
             memo.expectedMovement.text.c_str());
}

void TestPlaybookLlm::matrixRowsAreTheRunsOwnFigures()
{
    // Step 5's measured rows, one by one, against what the run files say: TTFT p99, TPOT p99
    // and output tokens/s worked out here from the request logs; goodput, which this layout
    // does not record, said so rather than invented; energy per output token from the power
    // logs beside the runs, charged over each run's window. The fix has no
    // measured run, so none of them is judged. Then one judged row per simulated movement.
    const auto result =
        run(pairProject(QStringLiteral("scheduling")), reviewing("max_num_batched_tokens"));
    const auto rowOf = [&result](const std::string& slice,
                                 const std::string& metric) -> const MatrixRow* {
        for (const auto& row : result.matrix.rows)
            if (row.slice == slice && row.metric == metric)
                return &row;
        return nullptr;
    };
    for (const auto& row : result.matrix.rows)
        qInfo("%s | %s | %s | %s | %s | %s | %s", row.area.c_str(), row.slice.c_str(),
              row.metric.c_str(), row.baseline.c_str(), row.candidate.c_str(), row.fixed.c_str(),
              row.result.c_str());
    const auto baseline = figuresOfLog(QStringLiteral("long_baseline/requests.jsonl"));
    const auto candidate = figuresOfLog(QStringLiteral("scheduling/requests.jsonl"));
    const auto measured = [&](const std::string& metric, const std::string& b,
                              const std::string& c) {
        const MatrixRow* row = rowOf("measured runs", metric);
        QVERIFY2(row, metric.c_str());
        QCOMPARE(row->area, std::string("performance"));
        QCOMPARE(row->baseline, b);
        QCOMPARE(row->candidate, c);
        QCOMPARE(row->result, std::string("not run"));
        QCOMPARE(row->fixed, std::string("not measured"));
    };
    measured("TTFT p99", formatValue(baseline.ttftP99Ms, "ms"),
             formatValue(candidate.ttftP99Ms, "ms"));
    measured("TPOT p99", formatValue(baseline.tpotP99Ms, "ms"),
             formatValue(candidate.tpotP99Ms, "ms"));
    measured("output tokens/s", formatValue(baseline.outputTokensPerS, "tokens/s"),
             formatValue(candidate.outputTokensPerS, "tokens/s"));
    measured("goodput", "not recorded", "not recorded");
    // The scheduling candidate's long prefills are what its TPOT p99 shows.
    QVERIFY(candidate.tpotP99Ms > 1.2 * baseline.tpotP99Ms);
    // Energy per output token needs the GPUs' power logs: the thermal pair has them, on the
    // runs' own clock (both GPUs of the pair at 520 W under load; the candidate's throttle at
    // 700 W from a quarter of the way in). The row charges each run's window its logged energy.
    measured("energy per output token", "not recorded", "not recorded");
    const auto thermal = pairProject(QStringLiteral("thermal"), true);
    const auto inputs = gatherInputs(thermal, 0);
    const auto pair = llmPair(inputs);
    QVERIFY(pair.has_value());
    const auto withPower = run(thermal, reviewing(""));
    const MatrixRow* energy = nullptr;
    for (const auto& row : withPower.matrix.rows)
        if (row.slice == "measured runs" && row.metric == "energy per output token")
            energy = &row;
    QVERIFY(energy);
    // By hand: nvidia-smi's reading averages the second before its stamp, so each GPU holds
    // 520 W from its first loaded stamp - 0.5 s to its last + 0.5 s, and 70 W idle outside;
    // the run's window is first arrival to last token in Unix time, on both GPUs.
    const auto& b = *pair->baseline;
    const auto& log = *inputs.baseline.power;
    double loadedFromS = INFINITY, loadedToS = -INFINITY;
    for (std::size_t i = 0; i < log.size(); ++i)
        if (log.powerW[i] > 100.0) {
            loadedFromS = std::min(loadedFromS, log.timeS[i] - 0.5);
            loadedToS = std::max(loadedToS, log.timeS[i] + 0.5);
        }
    const double startS = *b.originEpochS, endS = startS + *b.durationS;
    const double loadedS = std::min(endS, loadedToS) - std::max(startS, loadedFromS);
    const double byHandJ =
        2.0 * (520.0 * loadedS + 70.0 * (*b.durationS - loadedS)) / double(*b.outputTokensTotal);
    qInfo("thermal pair energy per output token: %s -> %s; by hand 2 x (520 W x %.2f s + 70 W "
          "x %.2f s) over %lld tokens = %.4f J",
          energy->baseline.c_str(), energy->candidate.c_str(), loadedS, *b.durationS - loadedS,
          static_cast<long long>(*b.outputTokensTotal), byHandJ);
    QVERIFY(energy->baseline != "not recorded" && energy->candidate != "not recorded");
    QVERIFY(std::abs(std::stod(energy->baseline) - byHandJ) <= 0.02 * byHandJ);
    QVERIFY(std::stod(energy->candidate) > std::stod(energy->baseline));
    // The same figure as step 2 states for the completion stage, with the band of the logged
    // energy: "2.17 J [2.15, 2.18]", holding the hand integral.
    const auto stage = std::ranges::find(
        withPower.locate.metrics, std::string("energy per output token"), &StageMetric::metric);
    QVERIFY(stage != withPower.locate.metrics.end());
    const std::string figure = formatValue(stage->overall.baseline, stage->unit);
    QVERIFY2(energy->baseline.starts_with(figure + " ["), energy->baseline.c_str());
    const auto band = analysis::llmLoggedEnergy(b, log);
    QVERIFY(band.hasValue());
    QCOMPARE(energy->baseline, figure + " [" + formatNumber(band->perOutputTokenLowJ) + ", " +
                                   formatNumber(band->perOutputTokenHighJ) + "]");
    QVERIFY(band->perOutputTokenLowJ <= byHandJ * 1.001 &&
            byHandJ <= band->perOutputTokenHighJ * 1.001);
    QVERIFY2(
        energy->candidate.starts_with(formatValue(stage->overall.candidate, stage->unit) + " ["),
        energy->candidate.c_str());

    // One judged row per simulated movement, each from the fix step's own figures.
    QCOMPARE(result.fix.movements.size(), std::size_t(3));
    for (const auto& m : result.fix.movements) {
        const MatrixRow* row = rowOf("candidate requests replayed", m.metric);
        QVERIFY2(row, m.metric.c_str());
        QCOMPARE(row->candidate, formatValue(m.candidate, m.unit));
        QCOMPARE(row->fixed, formatValue(m.fixed, m.unit));
        QCOMPARE(row->result, std::string(m.fixed <= m.candidate * 1.10 ? "pass" : "fail"));
    }
    for (const char* slice : {"reproducer replay", "fixed scenario replay"}) {
        const MatrixRow* row = rowOf(slice, "LLM result JSON (1 thread vs all)");
        QVERIFY2(row, slice);
        QCOMPARE(row->result, std::string("pass"));
    }
}

void TestPlaybookLlm::aPowerLogOfAnotherDayIsSetAside()
{
    // The candidate's power log moved a day later: it no longer overlaps its LLM run's window,
    // so neither its energy nor its clocks speak for the run.
    auto project = pairProject(QStringLiteral("thermal"), true);
    for (auto& dataset : project.datasets) {
        if (dataset.role != data::DatasetRole::Candidate || !dataset.powerSeries())
            continue;
        auto shifted = std::make_shared<data::PowerSeries>(*dataset.powerSeries());
        for (double& t : shifted->timeS)
            t += 86400.0;
        dataset.setContent(std::shared_ptr<const data::PowerSeries>(shifted));
    }
    const auto inputs = gatherInputs(project, 0);
    QVERIFY(inputs.baseline.power);
    QVERIFY(!inputs.candidate.power);
    QCOMPARE(inputs.candidate.setAside.size(), std::size_t(1));
    const std::string& why = inputs.candidate.setAside.front().reason;
    QVERIFY2(why.find("do not overlap") != std::string::npos &&
                 why.find("LLM run 'candidate'") != std::string::npos,
             why.c_str());
    const auto result = run(project, reviewing(""));
    for (const auto& row : result.matrix.rows)
        if (row.metric == "energy per output token")
            QCOMPARE(row.candidate, std::string("not recorded"));
}

void TestPlaybookLlm::realRunAgainstItself()
{
    BS_REQUIRE_SHARED_FILE(
        path, QStringLiteral("llm/llmservingsim/bench/examples/RTX4090/Llama-3.1-8B/vllm/"
                             "requests.jsonl"));
    auto dataset = io::readDataset(path.toStdString());
    QVERIFY(bool(dataset));
    data::Project project;
    auto baseline = *dataset;
    baseline.id = "b";
    baseline.role = data::DatasetRole::Baseline;
    auto candidate = *dataset;
    candidate.id = "c";
    candidate.role = data::DatasetRole::Candidate;
    project.datasets = {baseline, candidate};
    const auto result = run(project, reviewing(""));
    // The same run on both sides: every stage is measured, nothing diverges, nothing claimed.
    QVERIFY(!result.locate.firstPersistentStage);
    QVERIFY(result.locate.failing.empty());
    QVERIFY(!result.classification.claims());
}

QTEST_GUILESS_MAIN(TestPlaybookLlm)
#include "tst_playbook_llm.moc"
