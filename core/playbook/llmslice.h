#pragma once

#include "llmsim/llmresult.h"
#include "util/canceltoken.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <limits>

namespace bs::playbook {

/// The focused LLM reproducer: the busy period of a replay that holds its slowest first token,
/// that is, its requests from the last arrival that found the engine empty (every earlier
/// request finished) up to the next such arrival. The engine starts that period as it starts a
/// run, so replayed alone the period gives the same schedule, and the slowest request the
/// same TTFT; `exact` says whether it did (to a nanosecond).
struct LlmSlice
{
    std::size_t firstRequest = 0; ///< 0-based, in arrival order.
    std::size_t requests = 0;
    std::size_t ofRequests = 0;     ///< In the whole replay.
    std::size_t slowestRequest = 0; ///< 0-based in the whole replay.
    double slowestTtftMs = std::numeric_limits<double>::quiet_NaN();
    double sliceTtftMs = std::numeric_limits<double>::quiet_NaN(); ///< Same request, alone.
    double spanS = 0.0; ///< First arrival of the period to its last token.
    bool exact = false;
    nlohmann::json scenario; ///< The period as an llmsim scenario (inline requests).
};

/// The slice of `whole` (the replay of `scenario`, its requests inline) and its replay.
/// Errors: a replay without requests, a failed replay of the slice, cancellation.
Expected<LlmSlice> focusedLlmSlice(const llmsim::LlmScenario& scenario,
                                   const llmsim::LlmResult& whole, const CancelToken& cancel);

/// "requests 212–247 of 320 (the busy period holding the slowest first token, 412 ms), ..."
std::string llmSliceText(const LlmSlice& slice);

} // namespace bs::playbook
