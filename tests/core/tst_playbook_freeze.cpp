#include "io/projectfile.h"
#include "playbook/projectplaybook.h"
#include "playbook/steps.h"
#include "playbookfixtures.h"

#include <QtTest>

using namespace bs;
using namespace bs::playbook;
using bs::data::DatasetRole;

namespace {

data::Project pair(data::RunTags baseline, data::RunTags candidate)
{
    data::Project project;
    auto flat = [](int) { return 1.0; };
    project.datasets.push_back(fixtures::sweepDataset("ds1", DatasetRole::Baseline,
                                                      fixtures::sweep("base", 1e-3, 1e-4, flat),
                                                      std::move(baseline)));
    project.datasets.push_back(fixtures::sweepDataset("ds2", DatasetRole::Candidate,
                                                      fixtures::sweep("cand", 1e-3, 1e-4, flat),
                                                      std::move(candidate)));
    return project;
}

StepResult freeze(const data::Project& project, const PlaybookState& state,
                  FreezeFindings& findings)
{
    PlaybookContext context;
    context.state = state;
    context.inputs = gatherInputs(project, state.options.scenarioIndex);
    return freezeStep(context, findings);
}

const FreezeItem* item(const FreezeFindings& findings, const std::string& key)
{
    for (const auto& i : findings.items) {
        if (i.key == key)
            return &i;
    }
    return nullptr;
}

} // namespace

class TestPlaybookFreeze : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void identicalTagsAreFrozen();
    void everyMismatchIsABlocker();
    void acceptedDifferenceNeedsAReason();
    void unrecordedTagIsNotFrozen();
    void scenarioSeedMustMatchWorkloadSeed();
    void stateJsonRoundTrip();
    void badStateJsonNamesTheKey();
    void projectFileKeepsStateAndMemo();
};

void TestPlaybookFreeze::identicalTagsAreFrozen()
{
    FreezeFindings findings;
    const auto step = freeze(pair(fixtures::tags(), fixtures::tags()), {}, findings);
    QCOMPARE(step.status, StepStatus::Ok);
    QCOMPARE(findings.blockers, 0);
    QCOMPARE(findings.items.size(), std::size_t(6));
    QCOMPARE(step.tables.front().rows.front().back(), std::string("same"));
}

void TestPlaybookFreeze::everyMismatchIsABlocker()
{
    FreezeFindings findings;
    const auto step =
        freeze(pair(fixtures::tags({{"driver", "535"}}),
                    fixtures::tags({{"driver", "550"}, {"power_limit_w", "250"}}, "TensorRT 10.3")),
               {}, findings);
    QCOMPARE(step.status, StepStatus::Blocker);
    QCOMPARE(findings.blockers, 3); // compiler, driver, power_limit_w (absent on one side)
    QVERIFY(item(findings, "compiler")->differs);
    QCOMPARE(item(findings, "power_limit_w")->baseline, std::string());
    QVERIFY(step.summary.find("compiler, driver, power_limit_w") != std::string::npos);
}

void TestPlaybookFreeze::acceptedDifferenceNeedsAReason()
{
    PlaybookState state;
    state.accept("compiler", "the compiler upgrade is the change under review");
    FreezeFindings findings;
    const auto step =
        freeze(pair(fixtures::tags(), fixtures::tags({}, "TensorRT 10.3")), state, findings);
    QCOMPARE(step.status, StepStatus::Ok);
    QCOMPARE(findings.accepted, 1);
    QVERIFY(item(findings, "compiler")->accepted);
    QCOMPARE(step.tables.front().rows[2].back(),
             std::string("accepted: the compiler upgrade is the change under review"));
    // Revoking makes it a blocker again.
    QVERIFY(state.revoke("compiler"));
    FreezeFindings again;
    QCOMPARE(
        freeze(pair(fixtures::tags(), fixtures::tags({}, "TensorRT 10.3")), state, again).status,
        StepStatus::Blocker);
}

void TestPlaybookFreeze::unrecordedTagIsNotFrozen()
{
    auto b = fixtures::tags();
    auto c = fixtures::tags();
    b.firmware.clear();
    c.firmware.clear();
    FreezeFindings findings;
    const auto step = freeze(pair(b, c), {}, findings);
    QCOMPARE(step.status, StepStatus::Blocker);
    // Missing on both sides is "not recorded", not a difference; it blocks all the same.
    QVERIFY(!item(findings, "firmware")->differs);
    QVERIFY(item(findings, "firmware")->notRecorded);
    QVERIFY(item(findings, "firmware")->needsAcceptance());
    QCOMPARE(step.tables.front().rows[3].back(),
             std::string("BLOCKER: not recorded on either side"));
    QVERIFY(step.summary.find("firmware (not recorded)") != std::string::npos);
    QVERIFY(step.summary.find("differ") == std::string::npos);
    // Accepted with a reason, the row still says what was accepted.
    PlaybookState state;
    state.accept("firmware", "both runs used the fleet's pinned firmware image");
    FreezeFindings accepted;
    const auto frozen = freeze(pair(b, c), state, accepted);
    QCOMPARE(frozen.status, StepStatus::Ok);
    QCOMPARE(frozen.tables.front().rows[3].back(),
             std::string("not recorded on either side, accepted: both runs used the fleet's "
                         "pinned firmware image"));
}

void TestPlaybookFreeze::scenarioSeedMustMatchWorkloadSeed()
{
    auto project = pair(fixtures::tags(), fixtures::tags());
    project.scenarios = nlohmann::json::array({fixtures::linearScenario(500.0, 8, 2.0, 7)});
    FreezeFindings findings;
    auto step = freeze(project, {}, findings);
    QCOMPARE(step.status, StepStatus::Blocker);
    QCOMPARE(findings.scenarioSeed, std::string("7"));
    QVERIFY(item(findings, "scenario_seed")->differs);

    project.scenarios = nlohmann::json::array({fixtures::linearScenario(500.0, 8, 2.0, 42)});
    FreezeFindings matching;
    step = freeze(project, {}, matching);
    QCOMPARE(step.status, StepStatus::Ok);
    QVERIFY(!item(matching, "scenario_seed")->differs);
}

void TestPlaybookFreeze::stateJsonRoundTrip()
{
    PlaybookState state;
    state.accept("compiler", "upgrade under review <script>alert(1)</script>");
    state.accept("power_limit_w", "rack budget");
    state.quality = QualityEvidence{"top-1 (%)", 76.1, 75.9, 76.0, 0.5, true, "eval 2026-11"};
    state.fix = FixChoice{"max_batch", 16, "cap the batch"};
    state.productionEvidence = "replayed the 2026-11-30 production trace";
    state.options.maxSimulatedRequests = 20000;
    state.options.p99Tolerance = 0.2;
    auto back = playbookStateFromJson(toJson(state));
    QVERIFY(back);
    QVERIFY(*back == state);
    QCOMPARE(toJson(*back).dump(), toJson(state).dump());
    // Empty object: default state.
    auto empty = playbookStateFromJson(nlohmann::json::object());
    QVERIFY(empty && *empty == PlaybookState());
}

void TestPlaybookFreeze::badStateJsonNamesTheKey()
{
    auto knob = playbookStateFromJson({{"fix", {{"knob", "turbo"}, {"value", 2}}}}, "p.bsproj");
    QVERIFY(!knob);
    QVERIFY(QString::fromStdString(knob.error().toString())
                .startsWith(QStringLiteral("p.bsproj: playbook.fix.knob: unknown knob 'turbo'")));
    auto reason = playbookStateFromJson(
        {{"accepted_differences", {{{"key", "compiler"}, {"reason", ""}}}}}, "p.bsproj");
    QVERIFY(!reason);
    QCOMPARE(QString::fromStdString(reason.error().toString()),
             QStringLiteral("p.bsproj: playbook.accepted_differences[0].reason: an accepted "
                            "difference needs a reason"));
    auto newer = playbookStateFromJson({{"version", 9}}, "p.bsproj");
    QVERIFY(!newer);
    QCOMPARE(newer.error().code, ErrorCode::Unsupported);
    auto typo = playbookStateFromJson({{"options", {{"min_replication", 3}}}}, "p.bsproj");
    QVERIFY(!typo);
    QVERIFY(typo.error().message.find("playbook.options.min_replication: unknown key") == 0);
}

void TestPlaybookFreeze::projectFileKeepsStateAndMemo()
{
    auto project = pair(fixtures::tags(), fixtures::tags());
    PlaybookState state;
    state.accept("compiler", "reviewed");
    Memo memo = Memo::blank();
    memo.failingMetric.setByUser("p99 at batch 64");
    memo.owners[0].name = "A. Reviewer";
    memo.decision = Decision::Escalate;
    storePlaybook(project, state, memo);
    // Through the project file format and back.
    auto reread = io::projectFromJson(io::projectToJson(project), "p.bsproj");
    QVERIFY(reread);
    auto stored = readStoredPlaybook(*reread, "p.bsproj");
    QVERIFY(stored);
    QVERIFY(stored->state == state);
    QVERIFY(stored->memo == memo);
    // An older project with empty sections opens with the defaults.
    data::Project old;
    auto defaults = readStoredPlaybook(old);
    QVERIFY(defaults);
    QVERIFY(defaults->memo == Memo::blank());
    // A broken memo section is an error naming the file and key.
    old.memo = {{"decision", "maybe"}};
    auto bad = readStoredPlaybook(old, "p.bsproj");
    QVERIFY(!bad);
    QVERIFY(bad.error().toString().find("p.bsproj: memo.decision") == 0);
}

QTEST_APPLESS_MAIN(TestPlaybookFreeze)
#include "tst_playbook_freeze.moc"
