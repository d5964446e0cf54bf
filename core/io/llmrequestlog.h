#pragma once

#include "data/llmrun.h"
#include "io/readercontext.h"

namespace bs::io {

/// A serving engine's per-request log, one JSON object per line, as LLMServingSim records vLLM
/// runs (`requests.jsonl`): `request_id, input_toks, output_toks, arrival_time, queued_ts,
/// scheduled_ts, first_token_ts, last_token_ts`. `arrival_time` is wall-clock epoch seconds
/// and the `*_ts` a monotonic clock with another origin, so only the `*_ts` are compared: the
/// arrival is the queueing time from the first request's, TTFT = first_token_ts - queued_ts,
/// E2E = last_token_ts - queued_ts, queue = scheduled_ts - queued_ts, TPOT = (last - first) /
/// (output tokens - 1). The engine series `timeseries.csv` and the run record `meta.json`
/// beside the file are joined when present (the reader option {"siblings": false} skips them).
Expected<data::LlmRunSet> parseLlmRequestLog(ByteSource& source, ReaderContext& context);

/// parseLlmRequestLog as a readDataset reader.
Expected<data::DatasetContent> readLlmRequestLog(ByteSource& source, ReaderContext& context);

} // namespace bs::io
