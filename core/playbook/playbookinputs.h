#pragma once

#include "accel/model.h"
#include "data/project.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bs::playbook {

/// The run tags of one dataset, for the freeze step.
struct TaggedDataset
{
    std::string id;
    std::string name;
    data::DatasetKind kind = data::DatasetKind::Sweep;
    data::RunTags tags;
};

/// A dataset of a side that the playbook does not use because it belongs to other runs.
struct SetAsideEvidence
{
    std::string name;
    std::string reason; ///< "unrelated: its hardware tag 'H100' is not the runs' 'A100' ..."
};

/// Everything one side (baseline or candidate) of the comparison holds: the first loaded
/// dataset of each kind with that role, and the tags of all of them.
struct SideInputs
{
    std::string role; ///< "baseline" or "candidate".
    std::shared_ptr<const data::SweepTable> sweep;
    std::shared_ptr<const data::RequestTrace> requests;
    std::shared_ptr<const data::KernelTrace> kernels;
    std::shared_ptr<const data::PowerSeries> power;
    /// LLM serving benchmark runs; the playbook reads the first run of the set.
    std::shared_ptr<const data::LlmRunSet> llmRuns;
    std::string sweepName, requestsName, kernelsName, powerName, llmRunsName;
    std::string sweepId, requestsId, kernelsId, powerId, llmRunsId; ///< Dataset ids of the slots.
    bool sweepSynthetic = false; ///< The sweep is generated demo data (data::isSynthetic).
    /// Evidence that does not belong to this side's runs (evidencerelevance.h): not used.
    std::vector<SetAsideEvidence> setAside;
    /// Checks of belonging that could not be made (no run records its time).
    std::vector<std::string> evidenceNotes;
    std::vector<TaggedDataset> datasets;
    /// Datasets with the role that are referenced but not loaded (their content is missing).
    std::vector<std::string> notLoaded;
    /// Further datasets of a kind already taken (named so the report says they were not used).
    std::vector<std::string> unused;

    /// The tags of this side's runs (the ones the memo quotes): its sweep's, else its request
    /// trace's, else its kernel trace's, else the first dataset's.
    data::RunTags primaryTags() const;
    /// The tags of the dataset with this id, or nullptr.
    const data::RunTags* tagsOf(const std::string& id) const;
    bool empty() const { return datasets.empty(); }
};

/// The inputs of the playbook, taken from a project: both sides, the target scenario (as JSON,
/// with the project model filled into an accelerator service that names none), the accelerator
/// model and the SLA. Missing parts are recorded, never fatal: the steps name them as missing
/// evidence.
struct PlaybookInputs
{
    std::string title;
    SideInputs baseline;
    SideInputs candidate;
    /// The target traffic scenario (project.scenarios[index]), ready for sim::scenarioFromJson.
    std::optional<nlohmann::json> scenarioJson;
    std::string scenarioNote; ///< Why there is none, or which one was taken.
    nlohmann::json modelJson = nlohmann::json::object();
    std::optional<accel::Model> model;
    std::string modelError;
    /// project.region.sla_p99_ms in seconds, when it applies to the target traffic: the SLA is
    /// judged on the project's first scenario (the region and curve pack use it), so a fix is
    /// held to it only when that scenario is the target traffic.
    std::optional<double> slaP99S;
    std::string slaNote; ///< Why the project's SLA does not apply, when it does not.
};

/// Collects the inputs. `scenarioIndex` picks the target scenario.
PlaybookInputs gatherInputs(const data::Project& project, int scenarioIndex);

/// The scenario JSON with `model` filled into a {"kind": "accelerator"} service that has no
/// "model" of its own (the convention the GUI uses: the project model is the service).
nlohmann::json withProjectModel(nlohmann::json scenario, const nlohmann::json& model);

/// An extra run tag by key, case-insensitively, or "" (e.g. "power_limit_w").
std::string extraTag(const data::RunTags& tags, const std::string& key);

} // namespace bs::playbook
