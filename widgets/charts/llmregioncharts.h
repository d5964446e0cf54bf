#pragma once

#include "analysis/llmregion.h"
#include "charts/chartcontent.h"

#include <array>

namespace bs::widgets {

/// Charts of an LLM region result: pure functions of computeLlmRegion's result, so the tests
/// check what is drawn. Latencies in ms, throughput in output tokens/s over every replica.

using LlmRegionSlice = std::array<std::size_t, analysis::kLlmAxisCount>;

/// The slice the panel shows first: the recommended cell's axis indices, else the first cell's.
LlmRegionSlice defaultLlmSlice(const analysis::LlmRegionResult& result);

/// Capacity curves: the highest load met (result.capacity) against max_num_batched_tokens, one
/// line per max_num_seqs, at the slice's replicas, tensor parallel and power cap. A
/// configuration that fails even the lowest load is a point of its own series at zero (named
/// so), and a capacity read conservatively below a load met again is marked non-monotone.
ChartContent llmCapacityChart(const analysis::LlmRegionResult& result, const LlmRegionSlice& slice);
/// Output tokens/s against TTFT p99 for every judged cell, feasible and infeasible apart, the
/// Pareto-optimal cells and the recommended cell marked, the TTFT limit drawn.
ChartContent llmTokensTtftChart(const analysis::LlmRegionResult& result);

} // namespace bs::widgets
