// Decisions are gated: an unaccepted step-1 blocker stops the later steps' conclusions and
// makes the report a DRAFT in every format, matrix failures fail step 5, and "ship" or
// "bounded rollout" need the sign-offs that allow them.

#include "playbook/playbook.h"
#include "playbook/projectplaybook.h"
#include "playbook/report.h"
#include "playbookfixtures.h"

#include <QtTest>

using namespace bs;
using namespace bs::playbook;

namespace {

ReportBundle prepare(const data::Project& project, const PlaybookState& state, const Memo& memo)
{
    auto withState = project;
    storePlaybook(withState, state, memo);
    ReportOptions options;
    options.generatedAt = "2026-12-02 12:00 UTC";
    auto bundle = prepareReport(withState, options);
    if (!bundle)
        qFatal("prepareReport failed: %s", bundle.error().toString().c_str());
    return std::move(*bundle);
}

PlaybookResult run(const data::Project& project, const PlaybookState& state)
{
    auto result = runPlaybook(project, state);
    if (!result)
        qFatal("runPlaybook failed: %s", result.error().toString().c_str());
    return std::move(*result);
}

std::size_t count(const std::string& text, const std::string& what)
{
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

/// A memo whose four owners have the given states (in Memo::blank() order).
Memo signedMemo(std::vector<SignoffState> states, Decision decision)
{
    Memo memo = Memo::blank();
    for (std::size_t i = 0; i < states.size(); ++i) {
        memo.owners[i].name = "Owner " + std::to_string(i + 1);
        memo.owners[i].state = states[i];
    }
    memo.decision = decision;
    return memo;
}

constexpr auto A = SignoffState::Approved;
constexpr auto P = SignoffState::Pending;
constexpr auto R = SignoffState::Rejected;

} // namespace

class TestPlaybookGates : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void unacceptedBlockerStopsTheConclusions();
    void blankReasonIsNoAcceptance();
    void draftReportIsMarkedInEveryFormat();
    void matrixFailureFailsStep5();
    void shipNeedsEveryRequiredOwner();
    void rejectedOwnerBlocksShipAndBoundedRollout();
    void blockedDecisionMakesTheReportADraft();
};

void TestPlaybookGates::unacceptedBlockerStopsTheConclusions()
{
    // The candidate's queue delay differs from the baseline's and nobody accepted it.
    const auto blocked = run(fixtures::schedulingProject(true), fixtures::fastState());
    QCOMPARE(blocked.steps[0].status, StepStatus::Blocker);
    QVERIFY(!blocked.concluded());
    QCOMPARE(blocked.conclusionBlocker,
             std::string("step 1 has item(s) not accepted with a reason: max_queue_delay_ms "
                         "differs"));
    for (std::size_t i = 1; i < 5; ++i) {
        QCOMPARE(blocked.steps[i].status, StepStatus::Blocker);
        QVERIFY(blocked.steps[i].summary.rfind("Not concluded: step 1 has item(s)", 0) == 0);
    }
    // The evidence is still there to inspect.
    QCOMPARE(blocked.classification.ranked.front().mechanism, Mechanism::Scheduling);
    Memo memo = Memo::blank();
    fillMemoDrafts(memo, blocked);
    for (const auto* field : {&memo.primaryMechanism, &memo.seniorQuestionAnswer,
                              &memo.smallestReversibleChange, &memo.expectedMovement})
        QVERIFY2(field->text.rfind("NOT CONCLUDED (step 1", 0) == 0, field->text.c_str());

    // Accepted with a reason, the same run concludes.
    const auto accepted =
        run(fixtures::schedulingProject(true), fixtures::reviewState("max_queue_delay_ms"));
    QVERIFY(accepted.concluded());
    QCOMPARE(accepted.steps[3].status, StepStatus::Ok);
    QVERIFY(accepted.steps[3].summary.rfind("Change max_queue_delay_ms", 0) == 0);
}

void TestPlaybookGates::blankReasonIsNoAcceptance()
{
    auto state = fixtures::fastState();
    state.accept("max_queue_delay_ms", "  \t");
    const auto result = run(fixtures::schedulingProject(true), state);
    QCOMPARE(result.steps[0].status, StepStatus::Blocker);
    QCOMPARE(result.freeze.accepted, 0);
    QVERIFY(std::ranges::any_of(result.steps[0].warnings, [](const std::string& w) {
        return w == "the acceptance of 'max_queue_delay_ms' has no reason, so it does not count";
    }));
    QVERIFY(!result.concluded());
}

void TestPlaybookGates::draftReportIsMarkedInEveryFormat()
{
    const auto draft =
        prepare(fixtures::schedulingProject(true), fixtures::fastState(), Memo::blank());
    const auto& document = draft.document;
    QVERIFY(document.isDraft());
    QCOMPARE(document.draftReasons.size(), std::size_t(1));
    QVERIFY(document.title.rfind("DRAFT — Accelerator review", 0) == 0);
    // Markdown: the title, a banner at the top and one at the end (it has no pages).
    const auto md = renderMarkdown(document, "report").markdown;
    QVERIFY(md.rfind("# DRAFT — Accelerator review", 0) == 0);
    QCOMPARE(count(md, "> **DRAFT: not for sign-off."), std::size_t(2));
    QVERIFY(md.find("max\\_queue\\_delay\\_ms differs") != std::string::npos);
    // HTML: the title, the banner, and a fixed mark that repeats on every printed page.
    const auto html = renderHtml(document);
    QVERIFY(html.find("<title>DRAFT — Accelerator review") != std::string::npos);
    QVERIFY(html.find("<div class=\"draft-mark\">DRAFT</div>") != std::string::npos);
    QVERIFY(html.find("<p class=\"draft\">DRAFT: not for sign-off. the playbook does not "
                      "conclude") != std::string::npos);
    QVERIFY(html.find(".draft-mark{position:fixed") != std::string::npos);
    // JSON: a flag and the reasons.
    QCOMPARE(draft.json["draft"], true);
    QCOMPARE(draft.json["draft_reasons"].size(), std::size_t(1));
    QVERIFY(draft.json["draft_reasons"][0].get<std::string>().find("max_queue_delay_ms") !=
            std::string::npos);

    // Accepted with a reason: a final report, without any mark.
    const auto final = prepare(fixtures::schedulingProject(true),
                               fixtures::reviewState("max_queue_delay_ms"), Memo::blank());
    QVERIFY(!final.document.isDraft());
    QCOMPARE(final.json["draft"], false);
    QVERIFY(renderMarkdown(final.document, "report").markdown.find("DRAFT") == std::string::npos);
    QVERIFY(renderHtml(final.document).find("draft-mark\">") == std::string::npos);
}

void TestPlaybookGates::matrixFailureFailsStep5()
{
    // A 50 ms queue delay at 800 req/s waits for full batches of 16 (20 ms): p99 over the
    // 10 ms SLA at the target traffic.
    auto state = fixtures::reviewState("max_queue_delay_ms");
    state.fix = FixChoice{"max_queue_delay_ms", 50.0, "wait longer for fuller batches"};
    const auto result = run(fixtures::schedulingProject(true), state);
    QVERIFY(result.fix.fixed);
    QVERIFY(result.matrix.failed > 0);
    QCOMPARE(result.steps[4].status, StepStatus::Blocker);
    QVERIFY(result.steps[4].summary.rfind("FAILED: ", 0) == 0);
    QVERIFY(std::ranges::any_of(result.steps[4].warnings, [](const std::string& w) {
        return w.find("traffic ×1 (target), max batch 16: p99 latency") != std::string::npos;
    }));
    // The unchanged reproducer's fix (the default) passes the same matrix.
    const auto passing =
        run(fixtures::schedulingProject(true), fixtures::reviewState("max_queue_delay_ms"));
    QCOMPARE(passing.matrix.failed, 0);
    QCOMPARE(passing.steps[4].status, StepStatus::Ok);
}

void TestPlaybookGates::shipNeedsEveryRequiredOwner()
{
    QVERIFY(checkDecision(signedMemo({A, A, A, A}, Decision::Ship), Decision::Ship).allowed);
    const auto pending = checkDecision(signedMemo({A, P, A, P}, Decision::Ship), Decision::Ship);
    QVERIFY(!pending.allowed);
    QCOMPARE(pending.message,
             std::string("Ship is blocked: every required owner must approve; not yet approved "
                         "by Capacity planning engineer (Owner 2); Power and thermal architect "
                         "(Owner 4)."));
    // Pending sign-offs do not block a bounded rollout; without owners nothing can ship.
    QVERIFY(
        checkDecision(signedMemo({A, P, A, P}, Decision::BoundedRollout), Decision::BoundedRollout)
            .allowed);
    Memo none = Memo::blank();
    none.owners.clear();
    QVERIFY(!checkDecision(none, Decision::Ship).allowed);
    QVERIFY(checkDecision(none, Decision::Undecided).allowed);
}

void TestPlaybookGates::rejectedOwnerBlocksShipAndBoundedRollout()
{
    Memo memo = signedMemo({A, A, R, A}, Decision::Ship);
    memo.owners[2].note = "p99 regresses on the checkout stream";
    for (auto decision : {Decision::Ship, Decision::BoundedRollout}) {
        const auto gate = checkDecision(memo, decision);
        QVERIFY(!gate.allowed);
        QCOMPARE(gate.message, std::string(decisionLabel(decision)) +
                                   " is blocked: rejected by SRE performance owner (Owner 3): "
                                   "p99 regresses on the checkout stream. Resolve the rejection "
                                   "(or decide rollback or escalate).");
    }
    // Rolling back or escalating is what a rejection asks for.
    QVERIFY(checkDecision(memo, Decision::Rollback).allowed);
    QVERIFY(checkDecision(memo, Decision::Escalate).allowed);
}

void TestPlaybookGates::blockedDecisionMakesTheReportADraft()
{
    Memo memo = signedMemo({A, R, A, A}, Decision::BoundedRollout);
    const auto bundle = prepare(fixtures::schedulingProject(true),
                                fixtures::reviewState("max_queue_delay_ms"), memo);
    QVERIFY(bundle.result.concluded());
    QVERIFY(bundle.document.isDraft());
    QVERIFY(bundle.document.draftReasons.front().rfind("Bounded rollout is blocked: rejected by "
                                                       "Capacity planning engineer",
                                                       0) == 0);
    const auto& titleBlock = bundle.document.titleBlock;
    const auto decision = std::ranges::find_if(
        titleBlock, [](const auto& entry) { return entry.first == "Decision"; });
    QVERIFY(decision != titleBlock.end());
    QVERIFY(decision->second.rfind("Bounded rollout — BLOCKED: Bounded rollout is blocked", 0) ==
            0);
    QCOMPARE(bundle.json["decision_gate"]["allowed"], false);
    QCOMPARE(bundle.json["decision_gate"]["decision"], "bounded_rollout");
    // Every owner approved: the same decision is allowed and the report is final.
    const auto approved =
        prepare(fixtures::schedulingProject(true), fixtures::reviewState("max_queue_delay_ms"),
                signedMemo({A, A, A, A}, Decision::Ship));
    QVERIFY(!approved.document.isDraft());
    QCOMPARE(approved.json["decision_gate"]["allowed"], true);
}

QTEST_APPLESS_MAIN(TestPlaybookGates)
#include "tst_playbook_gates.moc"
