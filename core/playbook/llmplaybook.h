#pragma once

#include "data/llmrun.h"
#include "data/powerseries.h"
#include "playbook/steps.h"

#include <optional>
#include <string>
#include <vector>

namespace bs::playbook {

/// The LLM serving runs under review: the first run of each side's LLM dataset.
struct LlmPair
{
    const data::LlmRun* baseline = nullptr;
    const data::LlmRun* candidate = nullptr;
    std::string baselineName, candidateName;
};

/// Both sides hold LLM runs: the playbook follows the LLM serving pipeline.
std::optional<LlmPair> llmPair(const PlaybookInputs& inputs);

// The run-header knob lookups live with the run (data/llmrun.h); the playbook's steps call them
// as their own.
using data::llmKnob;
using data::llmKnobNumber;

/// Step 1 on LLM runs: model, revision, engine and version, the engine knobs (max_num_seqs,
/// max_num_batched_tokens, chunked prefill, gpu_memory_utilization, tensor parallel size,
/// dtypes, quantization when recorded), dataset and seed, from the run headers (a dataset tag
/// fills in what the header lacks). Unrecorded on both sides is "not recorded".
std::vector<FreezeItem> llmFreezeItems(const LlmPair& pair, const data::RunTags& baselineTags,
                                       const data::RunTags& candidateTags);

/// Step 2 on LLM runs, values in ms (tokens, %, requests/s where named): admission queue
/// (queue time p99, waiting requests), scheduler step (TTFT beyond queue p99, prefill time per
/// prompt token, TTFT p99), KV cache (KV use, preemptions when recorded), decode iterations
/// (TPOT p99 and median, ITL p99), completion and tail (E2E p99, output tokens/s, goodput when
/// both report it, energy per output token from telemetry or else the side's power log,
/// analysis::llmEnergyPerOutputTokenJ). Per-request metrics: the whole run's percentile with
/// its order-statistic interval, and four windows of consecutive arrivals (p90 per window) as
/// slices for persistence.
std::vector<StageMetric> llmStageMetrics(const data::LlmRun& baseline,
                                         const data::LlmRun& candidate, double practicalDelta,
                                         const data::PowerSeries* baselinePower = nullptr,
                                         const data::PowerSeries* candidatePower = nullptr);

/// TTFT and TPOT p99: the serving SLA metrics, alarms wherever their stage is.
bool isLlmAlarmMetric(const StageMetric& metric);

/// Step 3's hypotheses from LLM signals (prefill-bound steps, KV pressure, prefill-decode
/// interference and queueing, dtype changes with quality evidence, throttling).
std::vector<Hypothesis> assessLlmHypotheses(const PlaybookContext& context, const LlmPair& pair,
                                            const LocateFindings& locate);

/// When the end-to-end tail diverges first while TTFT and TPOT hold, and the candidate's
/// requests generate clearly more or fewer output tokens (medians 20% or more apart): why no
/// engine mechanism explains it (a workload or sampling difference). Empty otherwise.
std::string llmOutputLengthExplanation(const LlmPair& pair, const LocateFindings& locate);

/// Whether the fix's replay shows it helping: TTFT, TPOT or ITL p99 falls by 1% or more. A
/// proposal its own replay does not support makes step 4 a warning.
bool replayShowsItHelping(const FixFindings& findings);

/// Step 4 on LLM runs: one bounded engine knob change for the claimed mechanism, and where the
/// candidate's requests can be replayed (arrival, prompt and output tokens, the KV cache size
/// recorded), its simulated movement of TTFT and TPOT p99.
StepResult llmFixStep(const PlaybookContext& context, const LlmPair& pair,
                      const LocateFindings& locate, const ClassificationFindings& classification,
                      FixFindings& findings);

/// A fix value as text ("2048", "fp8").
std::string choiceValueText(const nlohmann::json& value);

/// Step 5's rows on LLM runs: the replay reproduces bit for bit, TTFT, TPOT, goodput and
/// energy per output token, quality and fallback evidence.
void addLlmMatrixRows(const PlaybookContext& context, const LlmPair& pair, const FixFindings& fix,
                      MatrixFindings& findings);

} // namespace bs::playbook
