#pragma once

#include "analysis/llmregion.h"
#include "data/project.h"
#include "playbook/reportdocument.h"
#include "util/canceltoken.h"
#include "util/expected.h"
#include "util/progress.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace bs::playbook {

/// The LLM server's curve pack as the report carries it: the region of the project's `llm`
/// section, or why there is none (a bad key, a missing replay file).
struct LlmCurvePack
{
    std::optional<analysis::LlmRegionResult> region;
    std::string note; ///< Why there is no region (names the key or file).
};

/// Computes the LLM region the project's `llm` section asks for (computeLlmRegion, once), with
/// the scenario's relative paths resolved against the project file's folder. Nothing when the
/// project has no LLM server. A bad section or a failing simulation is the pack's note, not an
/// error: the report says why. Errors: cancellation only.
Expected<std::optional<LlmCurvePack>> computeLlmCurvePack(const data::Project& project,
                                                          const std::string& projectPath,
                                                          std::size_t threads, Progress& progress,
                                                          const CancelToken& cancel);

/// The LLM curve pack as a report section: the recommended configuration and its headroom
/// (every check's value, 95% interval, limit and margin; the binding limit), the cell counts,
/// the figures of analysis::llmRegionFigures, and the pack's files (llmCurvePackFiles without
/// the plots: cells.csv, capacity.csv, pareto.csv, recommendation.json, llm-region.json,
/// recommended-scenario.json) as attachments named "<stem>-<file>". Without a region the
/// section says why instead of drawing nothing.
ReportSection llmCurvePackSection(const LlmCurvePack& pack, const std::string& fileStem,
                                  std::vector<ReportAttachment>& attachments);

/// The JSON report's "llm_curve_pack": the region (analysis::llmRegionToJson), or {"note"}.
nlohmann::json llmCurvePackJson(const LlmCurvePack& pack);

} // namespace bs::playbook
