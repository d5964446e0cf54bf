#pragma once

#include "analysis/llmrunanalysis.h"
#include "charts/chartcontent.h"
#include "llmsim/runreplay.h"

namespace bs::widgets {

/// Charts of the LLM serving page's "Replay in the simulator" part: pure functions of the
/// measured run's analysis and the replay (null: nothing simulated, `why` says why), so the
/// tests check what is drawn. Latencies in milliseconds, time in seconds from the first arrival.

/// The simulated TTFT and TPOT of every replayed request, seconds, as analysis distributions;
/// TPOT over requests of two or more output tokens, as llmsim's metrics count it.
analysis::Distribution simulatedTtft(const llmsim::RunReplay& replay);
analysis::Distribution simulatedTpot(const llmsim::RunReplay& replay);

/// TTFT and TPOT CDFs on one axis: measured (from the run's records) as steps, simulated dashed
/// in the same colour. Logarithmic in x when they span a decade or more.
ChartContent llmReplayCdfChart(const analysis::LlmRunAnalysis& measured,
                               const llmsim::RunReplay* replay, const QString& why);
/// Inter-token latency CDFs: measured (every gap the run recorded, pooled as vLLM pools them)
/// as steps, simulated (replication 0's gaps at the sketch's 0.4% resolution) dashed in the
/// same colour. Logarithmic in x when they span a decade or more.
ChartContent llmItlCdfChart(const analysis::LlmRunAnalysis& measured,
                            const llmsim::RunReplay* replay, const QString& why);
/// The simulated engine step by step: running and waiting requests.
ChartContent llmReplayQueueChart(const llmsim::RunReplay* replay, const QString& why);
/// The simulated engine's preemptions so far, step by step (KV cache full).
ChartContent llmReplayPreemptionChart(const llmsim::RunReplay* replay, const QString& why);
/// The simulated KV cache step by step: blocks in use as a share of all blocks, in %.
ChartContent llmReplayKvChart(const llmsim::RunReplay* replay, const QString& why);

} // namespace bs::widgets
