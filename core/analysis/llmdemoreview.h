#pragma once

#include "data/project.h"
#include "util/expected.h"

#include <cstdint>
#include <string>

namespace bs::analysis {

/// The change the built-in LLM demo asks the debug playbook to review: the engine's token budget
/// raised so that long prompts prefill in one step, with everything else (requests, model, GPU,
/// power cap, seed) frozen.
inline constexpr std::int32_t kLlmDemoCandidateBatchedTokens = 8192;

/// What attachLlmDemoReview added.
struct LlmDemoReview
{
    std::int32_t baselineBatchedTokens = 0;
    std::int32_t candidateBatchedTokens = 0;
    std::string baselineFolder, candidateFolder;
    std::string note; ///< In words, for the message bar and the CLI.
};

/// Gives the LLM demo a baseline and a candidate for the playbook: the project's LLM scenario
/// (its `llm` section: the demo's replay or fitted arrivals, model, GPU and power cap) simulated
/// as it is and with max_num_batched_tokens = kLlmDemoCandidateBatchedTokens, each written under
/// `folder` as an engine request log (llmsim/requestlogwriter.h: marked simulated, never taken
/// for a measurement), read back and added as the Baseline and Candidate datasets. Runs of the
/// same scenario are bit-identical, so reopening the demo writes the same files. Errors: no LLM
/// scenario, a simulation that fails, a folder that cannot be written.
Expected<LlmDemoReview> attachLlmDemoReview(data::Project& project, const std::string& folder);

} // namespace bs::analysis
