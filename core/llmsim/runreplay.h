#pragma once

#include "data/llmrun.h"
#include "llmsim/llmresult.h"
#include "llmsim/llmscenario.h"
#include "llmsim/steptimefit.h"
#include "util/canceltoken.h"
#include "util/expected.h"

#include <optional>
#include <string>
#include <vector>

namespace bs::llmsim {

/// Where run headers record the engine knobs the simulator models, first name first
/// (data::llmKnob): a run record's "engine."/"kv_cache." sections, a bench result's plain keys.
inline const std::vector<std::string> kNumGpuBlocksKeys = {"kv_cache.num_gpu_blocks",
                                                           "num_gpu_blocks"};
inline const std::vector<std::string> kMaxNumSeqsKeys = {"engine.max_num_seqs", "max_num_seqs"};
inline const std::vector<std::string> kMaxNumBatchedTokensKeys = {"engine.max_num_batched_tokens",
                                                                  "max_num_batched_tokens"};
/// sglang's step budget: its prefill chunk (-1: no chunking) and a prefill batch's input tokens.
inline const std::vector<std::string> kChunkedPrefillSizeKeys = {"engine.chunked_prefill_size",
                                                                 "chunked_prefill_size"};
inline const std::vector<std::string> kMaxPrefillTokensKeys = {"engine.max_prefill_tokens",
                                                               "max_prefill_tokens"};

/// The scheduling policies the simulator runs, as a scenario names them ("vllm_v1", ...).
const std::vector<std::string>& llmPolicies();

/// The engine of a measured run as far as its header records it (README.md: "Replaying a
/// measured run"): knobs as the run had them, the simulator's defaults where not recorded.
struct RunEngine
{
    EngineConfig engine;
    std::string engineName;        ///< The run's backend, else its tool ("vllm", "sglang").
    bool policyRecorded = false;   ///< engineName maps to a policy: vllm → vllm_v1, sglang.
    bool kvBlocksRecorded = false; ///< num_gpu_blocks recorded; else engine.numGpuBlocks is 0.
};
RunEngine runEngineOf(const data::LlmRun& run);

/// runEngineOf's engine; an error unless both its policy and its KV-cache size are recorded.
Expected<EngineConfig> recordedEngineOf(const data::LlmRun& run);

/// A run's measured requests replayed through an engine with a step model fitted on the run.
struct RunReplay
{
    StepFit fit;
    LlmScenario scenario; ///< What was simulated: one replication, seed 1.
    LlmResult result;
};

/// Replays the run's requests (replayOfMeasured) through `engine`, with the linear step that
/// fitLinearStep fits on the run as it ran (`fitEngine`: the run's own knobs). `knownFit`, the
/// fit of this run through this fitEngine from an earlier call, skips the fit: it is the
/// costly part, and the step time belongs to the model and GPU, not to the knobs. Errors:
/// requests without arrival or token counts, a failed fit, a request the engine can never
/// serve, cancellation.
Expected<RunReplay> replayRun(const data::LlmRun& run, const EngineConfig& fitEngine,
                              const EngineConfig& engine, const std::optional<StepFit>& knownFit,
                              CancelToken cancel = CancelToken());

} // namespace bs::llmsim
