#pragma once

#include "llmsim/llmresult.h"

#include <string>

namespace bs::cli {

/// An LLM simulation result as aligned text for a terminal: the engine, TTFT/TPOT/ITL/E2E/queue
/// percentiles, throughput and goodput, the engine's queues and KV cache.
std::string formatLlmSimulationSummary(const llmsim::LlmResult& result);

} // namespace bs::cli
