#pragma once

#include "data/project.h"

#include <string>

namespace bs::io {

/// The public vLLM run the built-in LLM demo is built on, under a shared data folder
/// (Llama-3.1-8B on one RTX 4090, 300 ShareGPT requests; README of the shared data, "llm/").
inline constexpr const char* kLlmDemoRunPath =
    "llm/llmservingsim/bench/examples/RTX4090/Llama-3.1-8B/vllm/requests.jsonl";

/// Where the public measurements are looked for: $BATCHSCOPE_SHARED_DATA when set, else the
/// folder beside the source tree this build came from (CMake's BATCHSCOPE_SHARED_DATA_DEFAULT).
std::string sharedDataDir();

/// What the LLM demo serves, said to the user when it opens.
struct LlmDemoSource
{
    bool realRequests = false; ///< The scenario replays the public run's requests.
    std::string runPath;       ///< Where the run was looked for (absolute when found).
    std::string note;          ///< In words: what is replayed, or why the fitted stand-in is.
};

/// Completes the built-in LLM demo project (resources/demo/llm-demo.bsproj). When the public run
/// reads from `sharedDataDir`, it becomes a dataset of the project (referenced by its path, as
/// every LLM run is; no playbook role: the review's two runs are simulated at the demo's load)
/// and the LLM scenario replays its real requests at the demo's rate multiplier instead of the
/// Poisson arrivals fitted to them. Otherwise the project is left as
/// it is and the note names the folder looked in and why the run was not used.
LlmDemoSource attachLlmDemoRun(data::Project& project, const std::string& sharedDataDir);

} // namespace bs::io
