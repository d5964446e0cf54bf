// The built-in LLM demo on the public vLLM run (llmdemo.h).
#include "io/llmdemo.h"

#include "io/readdataset.h"

#include <cstdlib>
#include <filesystem>

namespace bs::io {

std::string sharedDataDir()
{
    if (const char* env = std::getenv("BATCHSCOPE_SHARED_DATA"); env && *env)
        return env;
#ifdef BATCHSCOPE_SHARED_DATA_DEFAULT
    return BATCHSCOPE_SHARED_DATA_DEFAULT;
#else
    return {};
#endif
}

LlmDemoSource attachLlmDemoRun(data::Project& project, const std::string& sharedDataDir)
{
    LlmDemoSource source;
    const auto fitted = std::string(" The demo draws Poisson requests with lengths fitted to the "
                                    "run instead; set BATCHSCOPE_SHARED_DATA to the shared data "
                                    "folder to replay the real ones.");
    if (sharedDataDir.empty()) {
        source.note = "No shared data folder is known." + fitted;
        return source;
    }
    const std::filesystem::path path = std::filesystem::path(sharedDataDir) / kLlmDemoRunPath;
    source.runPath = std::filesystem::absolute(path).lexically_normal().string();
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error)) {
        source.note = "The public vLLM run is not on this machine (looked for " + source.runPath +
                      ")." + fitted;
        return source;
    }
    auto run = readDataset(source.runPath);
    if (!run) {
        source.note =
            "The public vLLM run could not be read: " + run.error().toString() + "." + fitted;
        return source;
    }
    if (!project.llm.contains("scenario") || !project.llm["scenario"].is_object()) {
        source.note = "The demo project has no LLM scenario to replay the run in.";
        return source;
    }
    run->id = project.nextDatasetId();
    run->name = "vLLM run: Llama-3.1-8B, RTX 4090, 300 requests";
    // The reference the scenario replays: the playbook's two sides are simulated at the demo's
    // load (analysis::attachLlmDemoReview), where the SLA question is asked.
    run->role = data::DatasetRole::None;
    project.datasets.push_back(std::move(*run));
    auto& arrivals = project.llm["scenario"]["arrivals"];
    const double multiplier = arrivals.value("rate_multiplier", 1.0);
    arrivals = {{"kind", "replay"}, {"file", source.runPath}, {"rate_multiplier", multiplier}};
    // A replay is deterministic: more replications would repeat the same run.
    project.llm["scenario"]["replications"] = 1;
    source.realRequests = true;
    source.note = "The LLM scenario replays the 300 real requests of the public vLLM run (" +
                  source.runPath + ").";
    return source;
}

} // namespace bs::io
