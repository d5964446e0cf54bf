#include "llmsim/scenariopaths.h"

#include "llmsim/modelshape.h"

#include <filesystem>

namespace bs::llmsim {

namespace {

namespace fs = std::filesystem;

/// The folder as an absolute, normalised path ("" is the working directory).
fs::path absoluteFolder(const std::string& directory)
{
    std::error_code error;
    const fs::path folder =
        fs::absolute(directory.empty() ? fs::path(".") : fs::path(directory), error);
    return (error ? fs::path(directory) : folder).lexically_normal();
}

std::string rebased(const std::string& path, const fs::path& from, const fs::path& to)
{
    if (path.empty() || isBuiltinModelConfig(path) || fs::path(path).is_absolute())
        return path;
    const fs::path target = (from / path).lexically_normal();
    const fs::path relative = target.lexically_relative(to);
    return relative.empty() ? target.string() : relative.generic_string();
}

} // namespace

LlmScenario withPathsRebased(LlmScenario scenario, const std::string& fromDirectory,
                             const std::string& toDirectory)
{
    const fs::path from = absoluteFolder(fromDirectory);
    const fs::path to = absoluteFolder(toDirectory);
    if (from == to)
        return scenario;
    scenario.arrivals.file = rebased(scenario.arrivals.file, from, to);
    scenario.step.modelConfig = rebased(scenario.step.modelConfig, from, to);
    scenario.step.profileDirectory = rebased(scenario.step.profileDirectory, from, to);
    if (scenario.engine.kvMemory)
        scenario.engine.kvMemory->modelConfig =
            rebased(scenario.engine.kvMemory->modelConfig, from, to);
    return scenario;
}

} // namespace bs::llmsim
