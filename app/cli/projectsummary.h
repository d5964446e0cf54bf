#pragma once

#include "data/project.h"

#include <nlohmann/json.hpp>

#include <string>

namespace bs::cli {

/// What `project info` reports, as JSON (the --json output).
nlohmann::json summarizeProject(const data::Project& project, const std::string& path);
/// The same summary as aligned text for a terminal.
std::string formatProjectSummary(const nlohmann::json& summary);

} // namespace bs::cli
