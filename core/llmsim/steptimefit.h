#pragma once

#include "data/llmrun.h"
#include "llmsim/llmscenario.h"
#include "util/canceltoken.h"
#include "util/expected.h"

#include <cstddef>
#include <vector>

namespace bs::llmsim {

/// A `linear` step model calibrated on a measured serving run (README.md: "Step time", fitted).
struct StepFit
{
    StepSpec step; ///< Linear: base_ms, per_prefill_token_ms, per_decode_seq_ms fitted; context 0.
    /// Root mean square of ln(simulated / measured) over the requests: 0.1 is about 10%.
    double ttftLogRms = 0.0;
    double tpotLogRms = 0.0;
    std::size_t requests = 0;     ///< Requests replayed, each with a measured TTFT.
    std::size_t tpotRequests = 0; ///< Those with two or more output tokens.
    int evaluations = 0;          ///< Engine replays the search took.
};

/// The measured requests as the engine receives them, in arrival order: arrival (from the
/// first), prompt and output tokens. Failed requests are left out; a kept request without them
/// is an error naming its index.
Expected<std::vector<RequestSpec>> replayOfMeasured(const std::vector<data::LlmRequest>& measured);

/// Fits the three coefficients of a linear step model so that replaying the measured requests
/// through `engine` (its policy and knobs as the run had them) reproduces each request's TTFT
/// and TPOT: it minimises the sum of squared log ratios, simulated over measured, of both, by
/// Nelder-Mead over the logarithms of the coefficients (so each stays positive), from a start
/// taken from the run's median TPOT and TTFT. Calibrate on one run, then predict other knob
/// settings of the same model, engine and GPU with the fitted step.
Expected<StepFit> fitLinearStep(const EngineConfig& engine,
                                const std::vector<data::LlmRequest>& measured,
                                CancelToken cancel = CancelToken());

} // namespace bs::llmsim
