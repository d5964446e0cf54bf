// The playbook concludes only from evidence that belongs to the runs: power logs of another
// device or another time are set aside, no failing metric means no mechanism, a missing
// reproducer is missing, and a candidate sweep is found wherever it sits among the datasets.

#include "playbook/evidencerelevance.h"
#include "playbook/mechanismsignals.h"
#include "playbook/playbook.h"
#include "playbookfixtures.h"

#include <QtTest>

#include <functional>

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

bool mentions(const std::vector<std::string>& lines, const std::string& text)
{
    return std::ranges::any_of(
        lines, [&](const std::string& l) { return l.find(text) != std::string::npos; });
}

const Hypothesis& hypothesis(const ClassificationFindings& findings, Mechanism mechanism)
{
    for (const auto& h : findings.ranked) {
        if (h.mechanism == mechanism)
            return h;
    }
    qFatal("no hypothesis %s", mechanismName(mechanism));
}

/// The thermal project with both sweeps' measurement windows recorded (run_start/run_end
/// metadata). Its power logs run from 2023-11-14 22:13:20 UTC for 600 s.
data::Project timedThermalProject(const std::string& start, const std::string& end)
{
    auto project = fixtures::thermalProject(true);
    for (int i : {0, 1}) {
        auto table = *project.datasets[std::size_t(i)].sweep();
        table.metadata["run_start"] = start;
        table.metadata["run_end"] = end;
        project.datasets[std::size_t(i)].setContent(
            std::make_shared<const data::SweepTable>(std::move(table)));
    }
    return project;
}

/// Two sweeps with the same tags; the candidate's service time is `candidateSlowdown(b)` times
/// the baseline's at batch size b.
data::Project pairProject(std::function<double(int)> candidateSlowdown)
{
    data::Project project;
    project.datasets.push_back(fixtures::sweepDataset(
        "ds1", DatasetRole::Baseline,
        fixtures::sweep("baseline sweep", 2e-3, 1e-4, [](int) { return 1.0; }), fixtures::tags()));
    project.datasets.push_back(fixtures::sweepDataset(
        "ds2", DatasetRole::Candidate,
        fixtures::sweep("candidate sweep", 2e-3, 1e-4, candidateSlowdown), fixtures::tags()));
    return project;
}

} // namespace

class TestPlaybookEvidence : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void powerLogInsideTheRunsIsUsed();
    void powerLogOfAnotherTimeIsUnrelated();
    void powerLogOfAnotherDeviceIsUnrelated();
    void powerLogWithoutRunTimesIsUsedAndSaysSo();
    void noFailingMetricClaimsNoMechanism();
    void fasterCandidateIsNoAlarm();
    void missingReproducerIsMissing();
    void assignedCandidateSweepIsFoundAfterOtherDatasets();
};

void TestPlaybookEvidence::powerLogInsideTheRunsIsUsed()
{
    const auto result = run(timedThermalProject("2023-11-14 22:14:00", "2023-11-14 22:23:00"),
                            fixtures::fastState());
    QVERIFY(!mentions(result.notes, "smi' not used"));
    const auto& thermal = hypothesis(result.classification, Mechanism::Thermal);
    QVERIFY(thermal.signals.front().available()); // the clock drop in the candidate's log
    QCOMPARE(result.classification.ranked.front().mechanism, Mechanism::Thermal);
    QVERIFY(result.classification.decided);
    QVERIFY(!mentions(result.steps[2].warnings, "not used"));
}

void TestPlaybookEvidence::powerLogOfAnotherTimeIsUnrelated()
{
    // The sweeps ran the next morning: the logged throttling is not theirs.
    const auto project = timedThermalProject("2023-11-15 09:00:00", "2023-11-15 09:10:00");
    const auto inputs = gatherInputs(project, 0);
    QVERIFY(!inputs.candidate.power);
    QVERIFY(!inputs.baseline.power);
    QCOMPARE(inputs.candidate.setAside.size(), std::size_t(1));
    const auto& reason = inputs.candidate.setAside.front().reason;
    QVERIFY2(reason.rfind("unrelated: its readings (2023-11-14 22:13:20 UTC to "
                          "2023-11-14 22:23:19 UTC) do not overlap",
                          0) == 0,
             reason.c_str());
    QVERIFY(reason.find("2023-11-15 09:00:00 UTC") != std::string::npos);

    const auto result = run(project, fixtures::fastState());
    // The clock-drop signal has no data, and step 3 says which log was left out and why.
    const auto& thermal = hypothesis(result.classification, Mechanism::Thermal);
    QVERIFY(!thermal.signals.front().available());
    QVERIFY(mentions(result.steps[2].warnings,
                     "candidate power log 'candidate smi' is not used: unrelated: its readings"));
    QVERIFY(mentions(result.notes, "candidate dataset 'candidate smi' not used: unrelated"));
    QVERIFY(!result.classification.decided); // one weak signal is not a decision
    QVERIFY(mentions(result.classification.separating, "power/clock/temperature log"));
}

void TestPlaybookEvidence::powerLogOfAnotherDeviceIsUnrelated()
{
    auto project = fixtures::thermalProject(true);
    auto otherDevice = fixtures::tags();
    otherDevice.hardware = "A100-PCIE-40GB";
    project.datasets[3].tags = otherDevice; // the candidate's log
    const auto inputs = gatherInputs(project, 0);
    QVERIFY(!inputs.candidate.power);
    QVERIFY(inputs.baseline.power); // same device as the baseline sweep: kept
    QCOMPARE(inputs.candidate.setAside.front().reason,
             std::string("unrelated: its hardware tag 'A100-PCIE-40GB' is not the device of the "
                         "candidate runs ('H100-SXM')"));
    // Spelling does not make another device: "h100 sxm" is the same board.
    otherDevice.hardware = "h100 sxm";
    project.datasets[3].tags = otherDevice;
    QVERIFY(gatherInputs(project, 0).candidate.power);
    QVERIFY(sameDevice("A100-SXM4-80GB", "a100_sxm4 80gb"));
    QVERIFY(!sameDevice("A100-SXM4-80GB", "A100-SXM4-40GB"));
}

void TestPlaybookEvidence::powerLogWithoutRunTimesIsUsedAndSaysSo()
{
    const auto result = run(fixtures::thermalProject(true), fixtures::fastState());
    QVERIFY(hypothesis(result.classification, Mechanism::Thermal).signals.front().available());
    QVERIFY(mentions(result.steps[2].warnings,
                     "candidate power log 'candidate smi': its overlap with the runs cannot be "
                     "checked"));
}

void TestPlaybookEvidence::noFailingMetricClaimsNoMechanism()
{
    const auto result = run(pairProject([](int) { return 1.0; }), fixtures::fastState());
    QVERIFY(result.locate.failing.empty());
    QVERIFY(!result.classification.claims());
    QVERIFY(!result.classification.decided);
    QVERIFY(result.classification.noClaim.rfind("no failing metric", 0) == 0);
    QVERIFY(result.steps[2].summary.rfind("No mechanism is claimed: no failing metric", 0) == 0);
    // Nothing to fix: no change is proposed, and nothing is replayed against one.
    QVERIFY(!result.fix.chosen);
    QVERIFY(result.fix.trials.empty());
    QCOMPARE(result.steps[3].status, StepStatus::NotStarted);
    QVERIFY(result.steps[3].summary.rfind("No fix proposed: no failing metric", 0) == 0);
    QCOMPARE(result.steps[4].status, StepStatus::NotStarted);
    Memo memo = Memo::blank();
    fillMemoDrafts(memo, result);
    QVERIFY(memo.primaryMechanism.text.rfind("None claimed: no failing metric", 0) == 0);
    QVERIFY(memo.failingMetric.text.rfind("None:", 0) == 0);
    QVERIFY(memo.seniorQuestionAnswer.text.rfind("No bottleneck class is claimed", 0) == 0);
    QVERIFY(memo.smallestReversibleChange.text.rfind("None chosen", 0) == 0);
}

void TestPlaybookEvidence::fasterCandidateIsNoAlarm()
{
    // 20% faster from batch 64 up: a divergence, but no failing metric.
    const auto faster =
        run(pairProject([](int b) { return b >= 64 ? 0.8 : 1.0; }), fixtures::fastState());
    QVERIFY(std::ranges::any_of(faster.locate.metrics,
                                [](const StageMetric& m) { return m.divergent(); }));
    QVERIFY(faster.locate.failing.empty());
    QVERIFY(!faster.classification.claims());
    // 20% slower from batch 64 up: the same divergence the other way is the alarm, and a
    // mechanism is claimed (the large-batch onset points at a power or thermal limit).
    const auto slower =
        run(pairProject([](int b) { return b >= 64 ? 1.2 : 1.0; }), fixtures::fastState());
    QVERIFY(!slower.locate.failing.empty());
    QVERIFY(mentions(slower.locate.failing, "p99 latency +"));
    QVERIFY(slower.classification.claims());
}

void TestPlaybookEvidence::missingReproducerIsMissing()
{
    // Request traces only: no scenario and no candidate sweep to derive one.
    auto state = fixtures::reviewState("max_queue_delay_ms");
    const auto result = run(fixtures::schedulingProject(false), state);
    QVERIFY(!result.fix.reproducer);
    QCOMPARE(result.steps[4].status, StepStatus::NotStarted);
    QVERIFY(result.steps[4].summary.find("the reproducer is missing") != std::string::npos);
    QVERIFY(result.steps[4].summary.find("bit-identical") == std::string::npos);
    QVERIFY(result.matrix.rows.empty());
    Memo memo = Memo::blank();
    fillMemoDrafts(memo, result);
    QVERIFY2(memo.regressionRisk.text.find("reproducer missing") != std::string::npos,
             memo.regressionRisk.text.c_str());
    QVERIFY(memo.regressionRisk.text.find("bit-identical") == std::string::npos);
}

void TestPlaybookEvidence::assignedCandidateSweepIsFoundAfterOtherDatasets()
{
    // The candidate's power log and request trace come before its sweep in the project; the
    // sweep's tags (its 250 W power limit) still speak for the candidate.
    data::Project project;
    project.datasets.push_back(fixtures::sweepDataset(
        "ds1", DatasetRole::Baseline,
        fixtures::sweep("baseline sweep", 2e-3, 1e-4, [](int) { return 1.0; }),
        fixtures::tags({{"power_limit_w", "400"}})));
    auto traceTags = fixtures::tags();
    project.datasets.push_back(fixtures::powerDataset(
        "ds2", DatasetRole::Candidate, fixtures::powerLog("candidate smi", true), traceTags));
    project.datasets.push_back(fixtures::traceDataset(
        "ds3", DatasetRole::Candidate,
        fixtures::requestTrace("candidate requests", 3, 2000, 500.0, 1e-3, 2e-3), traceTags));
    project.datasets.push_back(fixtures::sweepDataset(
        "ds4", DatasetRole::Candidate,
        fixtures::sweep("candidate sweep", 2e-3, 1e-4, [](int b) { return b >= 64 ? 1.3 : 1.0; }),
        fixtures::tags({{"power_limit_w", "250"}})));
    const auto inputs = gatherInputs(project, 0);
    QVERIFY(inputs.candidate.sweep);
    QCOMPARE(inputs.candidate.sweepName, std::string("candidate sweep"));
    QCOMPARE(extraTag(inputs.candidate.primaryTags(), "power_limit_w"), std::string("250"));
    auto context = prepareContext(project, fixtures::reviewState("power_limit_w"));
    QVERIFY(context);
    QCOMPARE(candidatePowerCapW(*context).value_or(0.0), 250.0);
    // The power-limit difference maps to the scenario knob, as it does with the sweep first.
    QCOMPARE(context->scenarios.knobs.size(), std::size_t(1));
    QCOMPARE(context->scenarios.knobs.front().knob, std::string("power_cap_w"));
}

QTEST_APPLESS_MAIN(TestPlaybookEvidence)
#include "tst_playbook_evidence.moc"
