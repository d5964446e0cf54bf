#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace bs::cli {

/// The text form of `batchscope-cli analyze`, rendered from its JSON output so that the two
/// always agree.
std::string formatAnalysisSummary(const nlohmann::json& analysis);

} // namespace bs::cli
