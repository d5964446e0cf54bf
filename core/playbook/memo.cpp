#include "playbook/memo.h"

#include "io/jsonfields.h"

namespace bs::playbook {

void MemoField::offerDraft(std::string newDraft)
{
    draft = std::move(newDraft);
    if (!edited)
        text = draft;
}

void MemoField::acceptDraft()
{
    text = draft;
    edited = false;
}

void MemoField::setByUser(std::string newText)
{
    if (newText == text)
        return;
    text = std::move(newText);
    edited = true;
}

Memo Memo::blank()
{
    Memo memo;
    memo.requiredArtifact.offerDraft(
        "Batch policy curve pack showing feasible operating regions for throughput, latency, "
        "and power");
    for (const char* role : {"Inference platform owner", "Capacity planning engineer",
                             "SRE performance owner", "Power and thermal architect"})
        memo.owners.push_back({role, {}, SignoffState::Pending, {}, {}});
    return memo;
}

const std::vector<MemoFieldRef>& memoFields()
{
    static const std::vector<MemoFieldRef> fields = {
        {"failing_metric", "symptom", "Failing metric", &Memo::failingMetric},
        {"workload_slice", "symptom", "Workload or traffic slice", &Memo::workloadSlice},
        {"first_failing_stage", "symptom", "First failing layer or stage",
         &Memo::firstFailingStage},
        {"build_runtime_tags", "symptom", "Build and runtime tags", &Memo::buildRuntimeTags},
        {"primary_mechanism", "mechanism", "Primary mechanism", &Memo::primaryMechanism},
        {"competing_hypotheses", "mechanism", "Competing hypotheses", &Memo::competingHypotheses},
        {"missing_evidence", "mechanism", "Missing evidence", &Memo::missingEvidence},
        {"senior_question", "mechanism",
         "Which first-principles bottleneck class explains the symptom, and what artifact proves "
         "it reproducibly?",
         &Memo::seniorQuestionAnswer},
        {"smallest_reversible_change", "action", "Smallest reversible change",
         &Memo::smallestReversibleChange},
        {"expected_movement", "action", "Expected movement", &Memo::expectedMovement},
        {"regression_risk", "action", "Regression risk (correctness, quality, thermal, software)",
         &Memo::regressionRisk},
        {"required_artifact", "signoff", "Required artifact", &Memo::requiredArtifact},
        {"rollback_boundary", "signoff", "Rollback boundary", &Memo::rollbackBoundary},
    };
    return fields;
}

namespace {

std::string ownerText(const Owner& owner)
{
    return owner.role + (owner.name.empty() ? "" : " (" + owner.name + ")");
}

/// "A, B" for the owners in `state`; with their notes when `withNotes`.
std::string ownersIn(const Memo& memo, SignoffState state, bool withNotes)
{
    std::string text;
    for (const auto& owner : memo.owners) {
        if (owner.state != state)
            continue;
        text += (text.empty() ? "" : "; ") + ownerText(owner);
        if (withNotes && !owner.note.empty())
            text += ": " + owner.note;
    }
    return text;
}

} // namespace

DecisionGate checkDecision(const Memo& memo, Decision decision)
{
    if (decision != Decision::Ship && decision != Decision::BoundedRollout)
        return {};
    const std::string label = decisionLabel(decision);
    const std::string rejected = ownersIn(memo, SignoffState::Rejected, true);
    if (!rejected.empty())
        return {false, label + " is blocked: rejected by " + rejected +
                           ". Resolve the rejection (or decide rollback or escalate)."};
    if (decision == Decision::BoundedRollout)
        return {};
    if (memo.owners.empty())
        return {false, label + " is blocked: the memo names no required owner to approve it."};
    const std::string pending = ownersIn(memo, SignoffState::Pending, false);
    if (!pending.empty())
        return {false, label +
                           " is blocked: every required owner must approve; not yet "
                           "approved by " +
                           pending + "."};
    return {};
}

const char* signoffStateName(SignoffState state)
{
    switch (state) {
    case SignoffState::Pending:
        return "pending";
    case SignoffState::Approved:
        return "approved";
    case SignoffState::Rejected:
        return "rejected";
    }
    return "pending";
}

const char* decisionName(Decision decision)
{
    switch (decision) {
    case Decision::Undecided:
        return "undecided";
    case Decision::Ship:
        return "ship";
    case Decision::BoundedRollout:
        return "bounded_rollout";
    case Decision::Rollback:
        return "rollback";
    case Decision::Escalate:
        return "escalate";
    }
    return "undecided";
}

const char* decisionLabel(Decision decision)
{
    switch (decision) {
    case Decision::Undecided:
        return "Undecided";
    case Decision::Ship:
        return "Ship";
    case Decision::BoundedRollout:
        return "Bounded rollout";
    case Decision::Rollback:
        return "Rollback";
    case Decision::Escalate:
        return "Escalate";
    }
    return "Undecided";
}

namespace {

nlohmann::json fieldToJson(const MemoField& field)
{
    return {{"text", field.text}, {"draft", field.draft}, {"edited", field.edited}};
}

MemoField fieldFromJson(io::JsonFields& parent, const char* key)
{
    MemoField field;
    const auto* object = parent.object(key);
    if (!object)
        return field;
    io::JsonFields fields(*object, parent.child(key), parent.path());
    field.text = fields.stringOr("text", {});
    field.draft = fields.stringOr("draft", {});
    field.edited = fields.boolean("edited", false);
    parent.adopt(fields.finish());
    return field;
}

template <typename Enum, std::size_t N>
Enum enumFromName(const std::string& name, const Enum (&values)[N], const char* (*toName)(Enum))
{
    for (Enum value : values) {
        if (name == toName(value))
            return value;
    }
    return values[0];
}

} // namespace

nlohmann::json toJson(const Memo& memo)
{
    nlohmann::json fields = nlohmann::json::object();
    for (const auto& ref : memoFields())
        fields[ref.key] = fieldToJson(memo.*(ref.field));
    nlohmann::json owners = nlohmann::json::array();
    for (const auto& owner : memo.owners) {
        owners.push_back({{"role", owner.role},
                          {"name", owner.name},
                          {"state", signoffStateName(owner.state)},
                          {"note", owner.note},
                          {"date", owner.date}});
    }
    nlohmann::json out = {{"fields", std::move(fields)},
                          {"owners", std::move(owners)},
                          {"decision", decisionName(memo.decision)}};
    if (!memo.evidence.empty()) {
        nlohmann::json evidence = nlohmann::json::array();
        for (const auto& item : memo.evidence)
            evidence.push_back(
                {{"title", item.title}, {"source", item.source}, {"figure", toJson(item.figure)}});
        out["evidence"] = std::move(evidence);
    }
    return out;
}

Expected<Memo> memoFromJson(const nlohmann::json& json, const std::string& path)
{
    if (json.is_object() && json.empty())
        return Memo::blank();
    io::JsonFields top(json, "memo", path);
    Memo memo;
    if (const auto* fieldsJson = top.object("fields")) {
        io::JsonFields fields(*fieldsJson, top.child("fields"), path);
        for (const auto& ref : memoFields())
            memo.*(ref.field) = fieldFromJson(fields, ref.key);
        top.adopt(fields.finish());
    }
    if (const auto* owners = top.array("owners")) {
        for (std::size_t i = 0; i < owners->size() && top.ok(); ++i) {
            io::JsonFields of((*owners)[i], top.child("owners[" + std::to_string(i) + "]"), path);
            Owner owner;
            owner.role = of.string("role");
            owner.name = of.stringOr("name", {});
            const std::string state =
                of.choice("state", {"pending", "approved", "rejected"}, "pending");
            owner.state = enumFromName(
                state, {SignoffState::Pending, SignoffState::Approved, SignoffState::Rejected},
                &signoffStateName);
            owner.note = of.stringOr("note", {});
            owner.date = of.stringOr("date", {});
            top.adopt(of.finish());
            memo.owners.push_back(std::move(owner));
        }
    }
    if (const auto* evidence = top.array("evidence")) {
        for (std::size_t i = 0; i < evidence->size() && top.ok(); ++i) {
            const std::string where = top.child("evidence[" + std::to_string(i) + "]");
            io::JsonFields ef((*evidence)[i], where, path);
            MemoEvidence item;
            item.title = ef.stringOr("title", {});
            item.source = ef.stringOr("source", {});
            if (const auto* figureJson = ef.object("figure")) {
                auto figure = figure::figureFromJson(*figureJson, where + ".figure");
                if (!figure)
                    return figure.error();
                item.figure = std::move(*figure);
            }
            top.adopt(ef.finish());
            memo.evidence.push_back(std::move(item));
        }
    }
    const std::string decision = top.choice(
        "decision", {"undecided", "ship", "bounded_rollout", "rollback", "escalate"}, "undecided");
    memo.decision = enumFromName(decision,
                                 {Decision::Undecided, Decision::Ship, Decision::BoundedRollout,
                                  Decision::Rollback, Decision::Escalate},
                                 &decisionName);
    if (auto status = top.finish(); !status)
        return status.error();
    return memo;
}

} // namespace bs::playbook
