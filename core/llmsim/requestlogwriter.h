#pragma once

#include "llmsim/llmresult.h"
#include "util/expected.h"

#include <string>

namespace bs::llmsim {

/// Writes replication 0 of a simulated run in the layout of an engine's per-request log
/// (io/llmrequestlog.h reads it back): `requests.jsonl` (one request per line, the simulator's
/// clock as queued/scheduled/first/last token times), `timeseries.csv` (the engine each second:
/// prompt and output tokens/s, running, waiting, KV use) and `meta.json` (the engine knobs, the
/// KV cache, the scenario, and `simulated_by` so that no reader takes it for a measurement).
/// Every view, the playbook and the reports then read a simulated run as they read a real one.
/// `folder` is created when missing; files in it are replaced atomically.
Status writeSimulatedRequestLog(const LlmResult& result, const std::string& folder);

/// The run record's `simulated_by` value: names BatchScope's LLM simulator.
inline constexpr const char* kSimulatedByLlmsim = "BatchScope LLM simulator";

} // namespace bs::llmsim
