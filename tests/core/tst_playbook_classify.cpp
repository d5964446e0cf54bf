#include "playbook/steps.h"
#include "playbookfixtures.h"

#include <QtTest>

using namespace bs;
using namespace bs::playbook;
using bs::data::DatasetRole;

namespace {

struct Outcome
{
    LocateFindings locate;
    ClassificationFindings classification;
    StepResult locateStep;
    StepResult classifyStep;
};

Outcome classify(const data::Project& project, const PlaybookState& state = fixtures::fastState())
{
    auto context = prepareContext(project, state);
    if (!context)
        qFatal("prepareContext failed: %s", context.error().toString().c_str());
    Outcome out;
    out.locateStep = locateStep(*context, out.locate);
    out.classifyStep = classifyStep(*context, out.locate, out.classification);
    return out;
}

const Hypothesis& top(const Outcome& outcome)
{
    return outcome.classification.ranked.front();
}

bool mentions(const std::vector<std::string>& lines, const std::string& text)
{
    return std::ranges::any_of(
        lines, [&](const std::string& l) { return l.find(text) != std::string::npos; });
}

/// Two sweeps that differ by `slowdown` and a calibrated model of the accelerator and workload
/// (thermal model off, so only the bound speaks for the model).
template <typename Slowdown>
data::Project boundProject(const char* workload, Slowdown slowdown)
{
    data::Project project;
    project.datasets.push_back(fixtures::sweepDataset(
        "ds1", DatasetRole::Baseline,
        fixtures::sweep("baseline sweep", 1e-3, 1e-4, [](int) { return 1.0; }), fixtures::tags()));
    project.datasets.push_back(fixtures::sweepDataset(
        "ds2", DatasetRole::Candidate, fixtures::sweep("candidate sweep", 1e-3, 1e-4, slowdown),
        fixtures::tags()));
    project.model = {{"accelerator", "h100-sxm"},
                     {"workload", workload},
                     {"precision", workload == std::string("linear-4096") ? "bf16" : "fp16"},
                     {"thermal", {{"enabled", false}}}};
    return project;
}

} // namespace

class TestPlaybookClassify : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void thermalClockFallsAtTheLimit();
    void thermalWithoutPowerLogNamesIt();
    void schedulingQueueWaitDominatesP99();
    void memoryBoundBelowTheRidge();
    void computeBoundAboveTheRidge();
    void precisionChangeWithQualityDelta();
    void nothingToCompareIsABlocker();
};

void TestPlaybookClassify::thermalClockFallsAtTheLimit()
{
    const auto outcome = classify(fixtures::thermalProject(true));
    QCOMPARE(outcome.locate.divergentBatches, (std::vector<int>{64, 128, 256}));
    QVERIFY(outcome.locate.firstPersistentStage.has_value());
    QCOMPARE(top(outcome).mechanism, Mechanism::Thermal);
    QVERIFY(outcome.classification.decided);
    QCOMPARE(outcome.classifyStep.status, StepStatus::Ok);
    // The clock-drop signal is there and at full strength: 24% below sustained at 87 °C.
    const auto& drop = top(outcome).signals.front();
    QVERIFY(drop.available());
    QCOMPARE(drop.value, 1.0);
    QVERIFY(drop.evidence.find("1500") == std::string::npos); // sustained clock, not the dip
    QVERIFY(drop.evidence.find("°C") != std::string::npos);
    // SM clock against temperature is drawn.
    QVERIFY(std::ranges::any_of(outcome.classifyStep.figures, [](const figure::Figure& f) {
        return f.title == "SM clock against temperature";
    }));
}

void TestPlaybookClassify::thermalWithoutPowerLogNamesIt()
{
    const auto outcome = classify(fixtures::thermalProject(false));
    QCOMPARE(top(outcome).mechanism, Mechanism::Thermal);
    // One weak signal is not a decision: the step asks for the power log that would decide it.
    QVERIFY(!outcome.classification.decided);
    QCOMPARE(outcome.classifyStep.status, StepStatus::Warning);
    QVERIFY(mentions(top(outcome).missing, "power/clock/temperature log"));
    QVERIFY(mentions(outcome.classification.separating, "power/clock/temperature log"));
    QVERIFY(mentions(outcome.classifyStep.missingEvidence, "nvidia-smi"));
}

void TestPlaybookClassify::schedulingQueueWaitDominatesP99()
{
    const auto outcome = classify(fixtures::schedulingProject(false));
    QCOMPARE(top(outcome).mechanism, Mechanism::Scheduling);
    QVERIFY(outcome.classification.decided);
    // The runtime queue is the first stage that diverges, in most time windows.
    QVERIFY(outcome.locate.firstPersistentStage.has_value());
    QCOMPARE(*outcome.locate.firstPersistentStage, Stage::RuntimeQueue);
    const auto& queue = outcome.locate.metrics[std::size_t(outcome.locate.firstMetric)];
    QCOMPARE(queue.metric, std::string("queue wait p99"));
    QVERIFY(queue.persistence.significant >= 15); // of 20 windows
    // Queue wait p99 grows by about 7 ms and explains almost all of the p99 change.
    QVERIFY(queue.overall.delta > 6.0 && queue.overall.delta < 7.5);
    QVERIFY(outcome.locate.queueShareOfTailChange > 0.9);
    const auto& share = top(outcome).signals.front();
    QVERIFY(share.available() && share.value > 0.8);
    // Compute, memory and thermal have no data here and say which.
    for (const auto& h : outcome.classification.ranked) {
        if (h.mechanism == Mechanism::Compute)
            QVERIFY(mentions(h.missing, "calibrated accelerator model"));
    }
}

void TestPlaybookClassify::memoryBoundBelowTheRidge()
{
    // A 4096×4096 bf16 linear layer on an H100 is memory-bound up to b* ≈ 260 (intensity ≈ b
    // FLOP/B against a 243 FLOP/B ridge); the candidate is 40% slower at batch 1..16.
    const auto outcome =
        classify(boundProject("linear-4096", [](int b) { return b <= 16 ? 1.4 : 1.0; }));
    QCOMPARE(outcome.locate.divergentBatches, (std::vector<int>{1, 2, 4, 8, 16}));
    QCOMPARE(top(outcome).mechanism, Mechanism::Memory);
    QVERIFY(outcome.classification.decided);
    const auto& byModel = top(outcome).signals.front();
    QCOMPARE(byModel.value, 1.0);
    QVERIFY(byModel.evidence.find("ridge 243 FLOP/B") != std::string::npos);
    // Kernel traces would separate it further: named as missing.
    QVERIFY(mentions(top(outcome).missing, "kernel traces"));
}

void TestPlaybookClassify::computeBoundAboveTheRidge()
{
    // BERT-large (seq 384) fp16 on an H100 is compute-bound from batch 8 (intensity 249–271
    // FLOP/B against 243); the candidate is 25% slower from batch 32 up.
    const auto outcome =
        classify(boundProject("bert-large-384", [](int b) { return b >= 32 ? 1.25 : 1.0; }));
    QCOMPARE(outcome.locate.divergentBatches, (std::vector<int>{32, 64, 128, 256}));
    QCOMPARE(top(outcome).mechanism, Mechanism::Compute);
    QVERIFY(outcome.classification.decided);
    QCOMPARE(top(outcome).signals.front().value, 1.0);
    // Thermal is the runner-up (large-batch onset) and a power log would rule it out.
    QCOMPARE(outcome.classification.ranked[1].mechanism, Mechanism::Thermal);
    QVERIFY(mentions(outcome.classification.separating, "clock drop"));
}

void TestPlaybookClassify::precisionChangeWithQualityDelta()
{
    data::Project project;
    project.datasets.push_back(
        fixtures::sweepDataset("ds1", DatasetRole::Baseline,
                               fixtures::sweep("fp16 sweep", 1e-3, 1e-4, [](int) { return 1.0; }),
                               fixtures::tags({{"precision", "fp16"}})));
    project.datasets.push_back(
        fixtures::sweepDataset("ds2", DatasetRole::Candidate,
                               fixtures::sweep("fp8 sweep", 1e-3, 1e-4, [](int) { return 0.7; }),
                               fixtures::tags({{"precision", "fp8"}})));
    auto state = fixtures::fastState();
    state.quality =
        QualityEvidence{"top-1 accuracy (%)", 76.1, 75.2, std::nullopt, 0.5, false, "eval run"};
    const auto outcome = classify(project, state);
    QCOMPARE(top(outcome).mechanism, Mechanism::Precision);
    QVERIFY(outcome.classification.decided);
    QCOMPARE(top(outcome).signals[0].value, 1.0); // precision differs
    QCOMPARE(top(outcome).signals[1].value, 1.0); // quality outside its tolerance
    // Without quality evidence the precision hypothesis names the signoff data it lacks.
    const auto without = classify(project);
    for (const auto& h : without.classification.ranked) {
        if (h.mechanism == Mechanism::Precision)
            QVERIFY(mentions(h.missing, "quality signoff data"));
    }
}

void TestPlaybookClassify::nothingToCompareIsABlocker()
{
    data::Project project;
    project.datasets.push_back(fixtures::sweepDataset(
        "ds1", DatasetRole::Baseline,
        fixtures::sweep("only sweep", 1e-3, 1e-4, [](int) { return 1.0; }), fixtures::tags()));
    const auto outcome = classify(project);
    QCOMPARE(outcome.locateStep.status, StepStatus::Blocker);
    QCOMPARE(outcome.locateStep.missingEvidence.size(), std::size_t(4));
    QCOMPARE(outcome.classifyStep.status, StepStatus::Blocker);
    QVERIFY(!outcome.classifyStep.missingEvidence.empty());
}

QTEST_APPLESS_MAIN(TestPlaybookClassify)
#include "tst_playbook_classify.moc"
