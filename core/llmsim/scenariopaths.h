#pragma once

#include "llmsim/llmscenario.h"

#include <string>

namespace bs::llmsim {

/// The scenario with its relative file paths (replayed or fitted request trace, model config,
/// operator profile folder) rewritten from `fromDirectory` to `toDirectory`, so that a copy
/// written into another folder still names the same files. Absolute paths, built-in model
/// names and empty paths are kept; a path that has no relative form (another drive) becomes
/// absolute.
LlmScenario withPathsRebased(LlmScenario scenario, const std::string& fromDirectory,
                             const std::string& toDirectory);

} // namespace bs::llmsim
