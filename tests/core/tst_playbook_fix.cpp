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
};

void TestPlaybookFix::restoresTheBaselineQueueDelay()
{
    const auto result = run(fixtures::schedulingProject(true), fixtures::fastState());
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
    const auto result = run(fixtures::schedulingProject(true), fixtures::fastState());
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
    const auto result = run(fixtures::schedulingProject(true), fixtures::fastState());
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

QTEST_APPLESS_MAIN(TestPlaybookFix)
#include "tst_playbook_fix.moc"
