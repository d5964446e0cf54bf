#include "llmsim/scenariopaths.h"

#include "llmsim/modelshape.h"

#include <filesystem>

namespace bs::llmsim {

namespace {

namespace fs = std::filesystem;

/// Where a path really leads, symbolic links followed: the system follows them when it
/// resolves ".." in a relative path, so the rewritten path is worked out between real folders
/// ("" is the working directory; a part that does not exist yet is kept as written).
fs::path realPath(const fs::path& path)
{
    std::error_code error;
    const fs::path absolute = fs::absolute(path.empty() ? fs::path(".") : path, error);
    if (error)
        return path.lexically_normal();
    const fs::path real = fs::weakly_canonical(absolute, error);
    return error ? absolute.lexically_normal() : real;
}

std::string rebased(const std::string& path, const fs::path& from, const fs::path& to)
{
    if (path.empty() || isBuiltinModelConfig(path) || fs::path(path).is_absolute())
        return path;
    const fs::path target = realPath(from / path);
    const fs::path relative = target.lexically_relative(to);
    return relative.empty() ? target.string() : relative.generic_string();
}

} // namespace

LlmScenario withPathsRebased(LlmScenario scenario, const std::string& fromDirectory,
                             const std::string& toDirectory)
{
    const fs::path from = realPath(fromDirectory);
    const fs::path to = realPath(toDirectory);
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
