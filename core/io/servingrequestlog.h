#pragma once

#include "data/llmrun.h"
#include "util/canceltoken.h"
#include "util/expected.h"
#include "util/progress.h"

#include <string>
#include <vector>

namespace bs::io {

/// Reads a per-request serving log in LLMServingSim's `requests.jsonl` layout: one JSON object
/// per line with `input_toks`, `output_toks`, `queued_ts`, `first_token_ts`, `last_token_ts`
/// (seconds on the engine's monotonic clock) and optionally `request_id`, `arrival_time` (epoch
/// seconds, another clock), `scheduled_ts`.
///
/// Times are measured from the request entering the engine's queue (`queued_ts`), as the tool
/// that writes these files compares them: arrivalS = queued_ts - the earliest queued_ts,
/// TTFT = first_token_ts - queued_ts, E2E = last_token_ts - queued_ts, TPOT = (last - first
/// token) / (output tokens - 1). `arrival_time` is not mixed in: its clock has another origin.
/// Errors name the file, the line and the key: a missing or non-numeric field, negative or
/// non-finite values, tokens below 1, timestamps out of order within a request.
Expected<std::vector<data::LlmRequest>> readServingRequestLog(const std::string& path,
                                                              Progress& progress = Progress::null(),
                                                              CancelToken cancel = CancelToken());

} // namespace bs::io
