#pragma once

#include "data/dataset.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace bs::data {

/// Everything a user's investigation holds, as saved in a *.bsproj file.
///
/// Datasets are typed values. The other sections are owned by the subsystem that reads them
/// (accel for `model`, sim for `scenarios`, analysis for `region` and `llm`, playbook for
/// `playbook` and `memo`); each validates its own section with a clear error when the project is
/// opened, so a project file stays readable by tools that only know the JSON shape.
struct Project
{
    /// The schema this version writes and the newest it reads.
    static constexpr int kSchemaVersion = 1;

    std::string title;
    std::string notes;
    std::vector<Dataset> datasets;
    nlohmann::json model = nlohmann::json::object();
    nlohmann::json scenarios = nlohmann::json::array();
    nlohmann::json region = nlohmann::json::object();
    nlohmann::json playbook = nlohmann::json::object();
    nlohmann::json memo = nlohmann::json::object();
    /// The LLM server under study, as an LLM region spec (scenario, grid, limits, objective:
    /// analysis::llmRegionSpecToJson); empty for a project without one.
    nlohmann::json llm = nlohmann::json::object();

    /// A dataset id not used yet ("ds1", "ds2", ...).
    std::string nextDatasetId() const;
    const Dataset* findDataset(const std::string& id) const;
    /// The first dataset with the role, or nullptr.
    const Dataset* datasetWithRole(DatasetRole role) const;
    /// An LLM server and no batching-server scenario or accelerator model: the views of a
    /// batching server (sweep overlay, simulation, region) have nothing of this project to show.
    bool studiesOnlyAnLlmServer() const
    {
        return !llm.empty() && scenarios.empty() && model.empty();
    }
};

} // namespace bs::data
