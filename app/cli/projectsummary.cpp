#include "projectsummary.h"

#include "playbook/memo.h"
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

/// What the memo holds, read through the memo's own parser (its fields are objects with the
/// user's text and the playbook's draft, so a look for plain strings finds none).
nlohmann::json memoSummary(const nlohmann::json& memoJson, const std::string& path)
{
    auto memo = playbook::memoFromJson(memoJson, path);
    if (!memo)
        return {{"readable", false}, {"error", memo.error().message}};
    std::size_t filled = 0;
    for (const auto& ref : playbook::memoFields())
        if (!((*memo).*(ref.field)).text.empty())
            ++filled;
    std::size_t named = 0;
    std::size_t approved = 0;
    for (const auto& owner : memo->owners) {
        named += owner.name.empty() ? 0 : 1;
        approved += owner.state == playbook::SignoffState::Approved ? 1 : 0;
    }
    return {{"readable", true},
            {"fields_filled", filled},
            {"fields", playbook::memoFields().size()},
            {"decision", playbook::decisionName(memo->decision)},
            {"owners", memo->owners.size()},
            {"owners_named", named},
            {"owners_approved", approved},
            {"evidence_figures", memo->evidence.size()}};
}

std::string formatMemoLine(const nlohmann::json& memo)
{
    if (!memo.value("readable", false))
        return "unreadable (" + memo.value("error", std::string()) + ")";
    std::ostringstream out;
    out << memo["fields_filled"].get<std::size_t>() << " of " << memo["fields"].get<std::size_t>()
        << " fields filled, decision " << memo["decision"].get<std::string>() << ", "
        << memo["owners_named"].get<std::size_t>() << " of " << memo["owners"].get<std::size_t>()
        << " owners named (" << memo["owners_approved"].get<std::size_t>() << " approved), "
        << memo["evidence_figures"].get<std::size_t>()
        << (memo["evidence_figures"].get<std::size_t>() == 1 ? " evidence figure"
                                                             : " evidence figures");
    return out.str();
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
            {"memo", memoSummary(project.memo, path)}};
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
    out << "Memo:      " << formatMemoLine(s["memo"]) << "\n";
    return out.str();
}

} // namespace bs::cli
