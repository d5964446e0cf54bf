#include "playbook/playbook.h"
#include "playbookfixtures.h"
#include "sim/resultjson.h"
#include "sim/scenariojson.h"
#include "sim/simulator.h"

#include <QtTest>

using namespace bs;
using namespace bs::playbook;
using bs::data::DatasetRole;

namespace {

PlaybookResult run(const data::Project& project, const PlaybookState& state)
{
    auto result = runPlaybook(project, state);
    if (!result)
        qFatal("runPlaybook failed: %s", result.error().toString().c_str());
    return std::move(*result);
}

const MatrixRow* row(const MatrixFindings& matrix, const std::string& slice,
                     const std::string& metric)
{
    for (const auto& r : matrix.rows) {
        if (r.slice == slice && r.metric == metric)
            return &r;
    }
    return nullptr;
}

} // namespace

class TestPlaybookFix : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void restoresTheBaselineQueueDelay();
    void reproducerIsRunnableAndReplaysIdentically();
    void matrixPassesForTheFix();
    void userChoiceIsRespected();
    void inapplicableChoiceIsABlocker();
    void fixesAreSettingsOfTheClassifiedMechanism();
    void hardwareIsACapacityActionOnlyWhenSaturated();
    void movementIsSimulatedOnTheSlaTraffic();
    void slaOfOtherTrafficIsNotApplied();
};

void TestPlaybookFix::restoresTheBaselineQueueDelay()
{
    const auto result =
        run(fixtures::schedulingProject(true), fixtures::reviewState("max_queue_delay_ms"));
    QCOMPARE(result.scenarioRoute, std::string("knobs"));
    QCOMPARE(result.classification.ranked.front().mechanism, Mechanism::Scheduling);
    QVERIFY(result.fix.chosen.has_value());
    QCOMPARE(result.fix.chosen->knob, std::string("max_queue_delay_ms"));
    QCOMPARE(result.fix.chosen->value.get<double>(), 1.0);
    QCOMPARE(result.fix.category, std::string("policy knob"));
    QCOMPARE(result.fix.from, std::string("8"));
    QCOMPARE(result.steps[3].status, StepStatus::Ok);
    // p99 falls by about 7 ms with an interval that excludes 0; throughput does not move.
    const auto& p99 = result.fix.movements[1];
    QCOMPARE(p99.metric, std::string("p99 latency"));
    QVERIFY(p99.delta < -5.0 && p99.delta > -8.5);
    QVERIFY(p99.ciHigh < 0.0);
    const auto& throughput = result.fix.movements[0];
    QVERIFY(qAbs(throughput.delta) < 0.02 * throughput.candidate);
    // No power model: perf per watt is not predicted, and says so.
    QVERIFY(std::isnan(result.fix.movements[2].delta));
    QVERIFY(result.fix.movements[2].method.find("no power model") != std::string::npos);
}

void TestPlaybookFix::reproducerIsRunnableAndReplaysIdentically()
{
    const auto result =
        run(fixtures::schedulingProject(true), fixtures::reviewState("max_queue_delay_ms"));
    QVERIFY(result.fix.reproducer && result.fix.fixed);
    // Through JSON text, as `batchscope-cli simulate reproducer.json` reads it.
    const std::string text = sim::scenarioToJson(*result.fix.reproducer).dump(2);
    auto parsed = sim::scenarioFromJson(nlohmann::json::parse(text), "reproducer.json");
    QVERIFY2(parsed, parsed ? "" : parsed.error().toString().c_str());
    QCOMPARE(parsed->seed, std::uint64_t(42));
    QCOMPARE(parsed->policy.maxQueueDelayS, 0.008);
    auto first = sim::simulate(*parsed);
    auto second = sim::simulate(*parsed);
    QVERIFY(first && second);
    QCOMPARE(sim::resultToJson(*first).dump(), sim::resultToJson(*second).dump());
    QCOMPARE(result.fix.fixed->policy.maxQueueDelayS, 0.001);
    QVERIFY(result.matrix.replayIdentical);
}

void TestPlaybookFix::matrixPassesForTheFix()
{
    const auto result =
        run(fixtures::schedulingProject(true), fixtures::reviewState("max_queue_delay_ms"));
    const auto& matrix = result.matrix;
    QCOMPARE(matrix.rows[0].result, std::string("pass"));
    QCOMPARE(matrix.rows[0].metric, std::string("bit-identical replay"));
    const auto* target = row(matrix, "traffic ×1 (target), max batch 16", "p99 latency");
    QVERIFY(target);
    QCOMPARE(target->criterion, std::string("fixed ≤ SLA 10 ms"));
    QCOMPARE(target->result, std::string("pass"));
    // The candidate waits the full 8 ms; the fix brings p99 back down.
    QVERIFY(std::stod(target->candidate) > std::stod(target->fixed));
    QVERIFY(row(matrix, "traffic ×0.5", "throughput"));
    QVERIFY(row(matrix, "traffic ×1, max batch 4", "throughput"));
    QVERIFY(row(matrix, "traffic ×1, max batch 32", "p99 latency"));
    // Quality was not given: not run, and named as missing.
    QCOMPARE(row(matrix, "precision delta", "quality metric")->result, std::string("not run"));
    QCOMPARE(matrix.failed, 0);
    QVERIFY(matrix.passed >= 2 + 5 * 2);
    QCOMPARE(result.steps[4].status, StepStatus::Ok);
}

void TestPlaybookFix::userChoiceIsRespected()
{
    auto state = fixtures::fastState();
    state.fix = FixChoice{"max_batch", 4, "smaller batches fill sooner"};
    const auto result = run(fixtures::schedulingProject(true), state);
    QVERIFY(result.fix.userChosen);
    QCOMPARE(result.fix.trials.size(), std::size_t(1));
    QCOMPARE(result.fix.chosen->knob, std::string("max_batch"));
    QCOMPARE(result.fix.fixed->policy.maxBatch, 4);
}

void TestPlaybookFix::inapplicableChoiceIsABlocker()
{
    auto state = fixtures::fastState();
    state.fix = FixChoice{"power_cap_w", 250, "try a cap"};
    const auto result = run(fixtures::schedulingProject(true), state);
    QVERIFY(!result.fix.chosen);
    QCOMPARE(result.steps[3].status, StepStatus::Blocker);
    QVERIFY(result.fix.trials.front().error.find("accelerator model") != std::string::npos);
    QCOMPARE(result.steps[4].status, StepStatus::NotStarted);
}

void TestPlaybookFix::fixesAreSettingsOfTheClassifiedMechanism()
{
    // Thermal (a large-batch slowdown with the clock falling at 87 °C) at 60% load: the trials
    // change the batching policy, none adds a device.
    const auto thermal = run(fixtures::thermalProject(true), fixtures::fastState());
    QCOMPARE(thermal.classification.ranked.front().mechanism, Mechanism::Thermal);
    QVERIFY(!thermal.fix.trials.empty());
    for (const auto& trial : thermal.fix.trials) {
        QVERIFY2(trial.choice.knob != "servers", trial.choice.reason.c_str());
        QVERIFY(trial.category == "policy knob" || trial.category == "config value");
    }
    QCOMPARE(thermal.fix.category, std::string("policy knob"));
    // Scheduling: the policy knob that changed is restored, the smallest change first.
    const auto scheduling =
        run(fixtures::schedulingProject(true), fixtures::reviewState("max_queue_delay_ms"));
    QCOMPARE(scheduling.fix.trials.front().choice.knob, std::string("max_queue_delay_ms"));
    QCOMPARE(scheduling.fix.trials.front().choice.reason,
             std::string("restore the baseline's queue delay"));
    QVERIFY(std::ranges::none_of(
        scheduling.fix.trials, [](const FixTrial& t) { return t.category == "capacity action"; }));
}

void TestPlaybookFix::hardwareIsACapacityActionOnlyWhenSaturated()
{
    // 3,600 req/s into batches of 16 that take 4.2 ms: 94% of the 3,810 req/s the candidate can
    // serve. Capacity is the finding, so one more server is offered, last and labelled.
    auto project = fixtures::schedulingProject(true);
    project.scenarios = nlohmann::json::array({fixtures::linearScenario(3600.0, 16, 8.0)});
    const auto result = run(project, fixtures::reviewState("max_queue_delay_ms"));
    QVERIFY(result.fix.reproducer);
    const auto& trials = result.fix.trials;
    QVERIFY(trials.size() >= 2);
    const auto& capacity = trials.back();
    QCOMPARE(capacity.choice.knob, std::string("servers"));
    QCOMPARE(capacity.category, std::string("capacity action"));
    QVERIFY2(capacity.choice.reason.rfind("capacity action (adds hardware): the target traffic "
                                          "runs the candidate at 9",
                                          0) == 0,
             capacity.choice.reason.c_str());
    for (std::size_t i = 0; i + 1 < trials.size(); ++i)
        QVERIFY(trials[i].category != "capacity action");
    // Chosen or not, a capacity action is never called a reversible setting.
    if (result.fix.chosen && result.fix.chosen->knob == "servers") {
        QVERIFY(result.steps[3].summary.rfind("Capacity action (adds hardware", 0) == 0);
        Memo memo = Memo::blank();
        fillMemoDrafts(memo, result);
        QVERIFY(memo.smallestReversibleChange.text.find("capacity is the finding") !=
                std::string::npos);
    }
    // At 800 req/s (21% of capacity) no hardware is offered at all.
    const auto light =
        run(fixtures::schedulingProject(true), fixtures::reviewState("max_queue_delay_ms"));
    QVERIFY(std::ranges::none_of(light.fix.trials,
                                 [](const FixTrial& t) { return t.choice.knob == "servers"; }));
}

void TestPlaybookFix::movementIsSimulatedOnTheSlaTraffic()
{
    const auto project = fixtures::schedulingProject(true);
    const auto result = run(project, fixtures::reviewState("max_queue_delay_ms"));
    QVERIFY(result.slaP99S.has_value());
    // The fixed scenario is the SLA's scenario (project scenario 1) with the one change: same
    // arrivals, same seed.
    auto sla = sim::scenarioFromJson(project.scenarios[0], "sla");
    QVERIFY(sla);
    QVERIFY(result.fix.fixed->streams == sla->streams);
    QCOMPARE(result.fix.fixed->seed, sla->seed);
    QVERIFY(result.steps[3].summary.find("Expected, on the target traffic 'Poisson traffic, "
                                         "dynamic batching' (the traffic the SLA is judged on)") !=
            std::string::npos);
    // The trial is held to the SLA on that same traffic.
    QVERIFY(result.fix.trials.front().meetsTarget);
    QVERIFY(result.fix.movements[1].fixed <= *result.slaP99S * 1e3);
}

void TestPlaybookFix::slaOfOtherTrafficIsNotApplied()
{
    // The SLA is judged on scenario 1 (half the traffic); the playbook targets scenario 2.
    auto project = fixtures::schedulingProject(true);
    project.scenarios = nlohmann::json::array(
        {fixtures::linearScenario(400.0, 16, 8.0), fixtures::linearScenario(800.0, 16, 8.0)});
    auto state = fixtures::reviewState("max_queue_delay_ms");
    state.options.scenarioIndex = 1;
    const auto result = run(project, state);
    QVERIFY(!result.slaP99S);
    const std::string note = "the SLA (p99 ≤ 10 ms) is judged on project scenario 1; the "
                             "playbook's target traffic is scenario 2, so fixes are held to the "
                             "baseline's p99 instead";
    QVERIFY(std::ranges::find(result.notes, "SLA: " + note) != result.notes.end());
    QVERIFY(std::ranges::find(result.steps[3].warnings, note) != result.steps[3].warnings.end());
    const auto* target = row(result.matrix, "traffic ×1 (target), max batch 16", "p99 latency");
    QVERIFY(target);
    QCOMPARE(target->criterion, std::string("fixed ≤ (1 + 0.1) × baseline"));
}

QTEST_APPLESS_MAIN(TestPlaybookFix)
#include "tst_playbook_fix.moc"
