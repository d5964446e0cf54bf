#pragma once

#include "figure/figure.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace bs::playbook {

/// One memo field. The playbook writes `draft`; what the memo shows is `text`. Once the user
/// edits a field (`edited`), a later draft never overwrites it: the draft is kept beside it
/// and the user decides whether to accept it.
struct MemoField
{
    std::string text;
    std::string draft;
    bool edited = false;

    /// Takes a new draft: replaces the text unless the user has edited it.
    void offerDraft(std::string newDraft);
    /// True when a draft differs from what the user kept.
    bool hasPendingDraft() const { return edited && !draft.empty() && draft != text; }
    /// The user accepts the pending draft.
    void acceptDraft();
    /// The user types: the field becomes theirs.
    void setByUser(std::string newText);

    friend bool operator==(const MemoField&, const MemoField&) = default;
};

enum class SignoffState
{
    Pending,
    Approved,
    Rejected,
};

enum class Decision
{
    Undecided,
    Ship,
    BoundedRollout,
    Rollback,
    Escalate,
};

/// A required sign-off: the role is fixed by the review, the person and the state are filled in.
struct Owner
{
    std::string role;
    std::string name;
    SignoffState state = SignoffState::Pending;
    std::string note; ///< The owner's rationale for the sign-off.
    std::string date; ///< ISO date ("2026-12-04") the state was last set; empty while pending.

    friend bool operator==(const Owner&, const Owner&) = default;
};

/// A chart the user attached to the memo as evidence (from any view's chart toolbar): what it
/// shows, where it came from, and the chart itself as data, so the report redraws it.
struct MemoEvidence
{
    std::string title;
    std::string source; ///< The view and dataset it was taken from.
    figure::Figure figure;

    friend bool operator==(const MemoEvidence&, const MemoEvidence&) = default;
};

/// The accelerator review memo for "Scheduling & Workload Mapping / Batch Size Effects", field
/// for field as the review template has it.
struct Memo
{
    // 1. Symptom
    MemoField failingMetric;
    MemoField workloadSlice;
    MemoField firstFailingStage;
    MemoField buildRuntimeTags;
    // 2. Mechanism hypothesis
    MemoField primaryMechanism;
    MemoField competingHypotheses;
    MemoField missingEvidence;
    /// Which first-principles bottleneck class explains the symptom, and what artifact proves
    /// it reproducibly? (the senior review question, answered explicitly)
    MemoField seniorQuestionAnswer;
    // 3. Proposed action
    MemoField smallestReversibleChange;
    MemoField expectedMovement;
    MemoField regressionRisk;
    // 4. Signoff
    MemoField requiredArtifact;
    std::vector<Owner> owners;
    Decision decision = Decision::Undecided;
    MemoField rollbackBoundary;
    /// Charts attached as evidence, in the order they were attached.
    std::vector<MemoEvidence> evidence;

    /// A memo with the four required owner roles and the required artifact named.
    static Memo blank();

    friend bool operator==(const Memo&, const Memo&) = default;
};

/// Every text field with its stable key, in template order (for editors and renderers).
struct MemoFieldRef
{
    const char* key;
    const char* section; ///< "symptom", "mechanism", "action", "signoff"
    const char* label;
    MemoField Memo::*field;
};
const std::vector<MemoFieldRef>& memoFields();

/// Whether the memo's sign-offs allow a decision.
struct DecisionGate
{
    bool allowed = true;
    std::string message; ///< Why not ("Ship is blocked: ..."); empty when allowed.
};

/// "Ship" needs every required owner to have approved (and at least one owner named); a
/// rejected owner blocks "ship" and "bounded rollout". Rollback, escalate and undecided are
/// always allowed: they ship nothing.
DecisionGate checkDecision(const Memo& memo, Decision decision);

const char* signoffStateName(SignoffState state);
const char* decisionName(Decision decision);
/// Human label ("Bounded rollout").
const char* decisionLabel(Decision decision);

nlohmann::json toJson(const Memo& memo);
/// Reads a memo; an empty object gives Memo::blank(). Unknown keys are errors.
Expected<Memo> memoFromJson(const nlohmann::json& json, const std::string& path = {});

} // namespace bs::playbook
