#include "projectsummary.h"

#include "util/version.h"

#include <sstream>

namespace bs::cli {

namespace {

std::size_t rowCount(const data::Dataset& dataset)
{
    if (auto sweep = dataset.sweep())
        return sweep->points.size();
    if (auto trace = dataset.requestTrace())
        return trace->size();
    if (auto trace = dataset.kernelTrace())
        return trace->events.size();
    if (auto series = dataset.powerSeries())
        return series->size();
    return 0;
}

std::size_t filledMemoFields(const nlohmann::json& memo)
{
    std::size_t filled = 0;
    for (const auto& [section, fields] : memo.items()) {
        if (!fields.is_object())
            continue;
        for (const auto& [key, value] : fields.items()) {
            if (value.is_string() && !value.get<std::string>().empty())
                ++filled;
        }
    }
    return filled;
}

} // namespace

nlohmann::json summarizeProject(const data::Project& project, const std::string& path)
{
    nlohmann::json datasets = nlohmann::json::array();
    for (const auto& dataset : project.datasets) {
        datasets.push_back({{"id", dataset.id},
                            {"name", dataset.name},
                            {"kind", data::datasetKindName(dataset.kind)},
                            {"role", data::datasetRoleName(dataset.role)},
                            {"loaded", dataset.isLoaded()},
                            {"rows", rowCount(dataset)},
                            {"source_path", dataset.provenance.path},
                            {"sha256", dataset.provenance.sha256},
                            {"reader", dataset.provenance.reader},
                            {"warnings", dataset.provenance.warnings.size()}});
    }
    nlohmann::json scenarioNames = nlohmann::json::array();
    for (const auto& scenario : project.scenarios) {
        scenarioNames.push_back(scenario.is_object() && scenario.contains("name")
                                    ? scenario["name"]
                                    : nlohmann::json("(unnamed)"));
    }
    return {{"path", path},
            {"schema", data::Project::kSchemaVersion},
            {"tool_version", kVersionString},
            {"title", project.title},
            {"datasets", std::move(datasets)},
            {"scenarios", std::move(scenarioNames)},
            {"model", project.model},
            {"memo_fields_filled", filledMemoFields(project.memo)}};
}

std::string formatProjectSummary(const nlohmann::json& s)
{
    std::ostringstream out;
    out << "Project:   " << s["path"].get<std::string>() << "\n";
    out << "Title:     " << s["title"].get<std::string>() << "\n";
    out << "Schema:    " << s["schema"].get<int>() << "\n";
    out << "Datasets:  " << s["datasets"].size() << "\n";
    for (const auto& d : s["datasets"]) {
        out << "  " << d["id"].get<std::string>() << "  " << d["kind"].get<std::string>() << "  "
            << d["name"].get<std::string>();
        if (d["role"] != "none")
            out << "  [" << d["role"].get<std::string>() << "]";
        out << "\n      " << d["rows"].get<std::size_t>() << " rows"
            << (d["loaded"].get<bool>() ? "" : " (referenced, not loaded)");
        if (!d["reader"].get<std::string>().empty())
            out << ", read by " << d["reader"].get<std::string>();
        if (d["warnings"].get<std::size_t>() > 0)
            out << ", " << d["warnings"].get<std::size_t>() << " warnings";
        out << "\n";
        const bool fromFile = !d["source_path"].get<std::string>().empty();
        if (fromFile)
            out << "      source " << d["source_path"].get<std::string>() << "\n";
        // Embedded data is pinned by the hash of its stored content, so a reviewer can tell
        // two projects' "same" demo or pasted sweep apart.
        if (!d["sha256"].get<std::string>().empty())
            out << "      sha256 " << d["sha256"].get<std::string>()
                << (fromFile ? "" : " (of the embedded data)") << "\n";
    }
    out << "Scenarios: " << s["scenarios"].size() << "\n";
    for (const auto& name : s["scenarios"])
        out << "  " << name.get<std::string>() << "\n";
    out << "Memo:      " << s["memo_fields_filled"].get<std::size_t>() << " fields filled\n";
    return out.str();
}

} // namespace bs::cli
