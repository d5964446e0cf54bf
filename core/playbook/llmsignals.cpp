#include "analysis/distribution.h"
#include "playbook/llmplaybook.h"

#include <algorithm>
#include <cmath>

namespace bs::playbook {

namespace {

using analysis::kNaN;

double clamp01(double x)
{
    return std::isfinite(x) ? std::clamp(x, 0.0, 1.0) : kNaN;
}

Signal signal(std::string name, double weight, std::string missing)
{
    Signal s;
    s.name = std::move(name);
    s.weight = weight;
    s.missing = std::move(missing);
    return s;
}

const StageMetric* find(const LocateFindings& locate, const std::string& metric)
{
    for (const auto& m : locate.metrics) {
        if (m.metric == metric)
            return &m;
    }
    return nullptr;
}

/// Candidate over baseline of a metric's whole-run value; NaN when not measured.
double ratio(const LocateFindings& locate, const std::string& metric)
{
    const auto* m = find(locate, metric);
    if (!m || !(m->overall.baseline > 0.0))
        return kNaN;
    return m->overall.candidate / m->overall.baseline;
}

/// Diverges upward (worse for a latency or a fill level), overall or persistently.
bool rises(const LocateFindings& locate, const std::string& metric)
{
    const auto* m = find(locate, metric);
    return m && m->divergent() && (m->overall.sign > 0 || m->persistence.direction > 0);
}

double knob(const data::LlmRun& run, const std::vector<std::string>& keys)
{
    return llmKnobNumber(run, keys).value_or(kNaN);
}

const char* kPerRequest = "per-request TTFT, TPOT and prompt tokens of both runs";

Hypothesis compute(const LocateFindings& locate)
{
    Hypothesis h{Mechanism::Compute, {}, kNaN, 0.0, 0.0, {}};
    const double prefill = ratio(locate, "prefill time per prompt token (median)");
    const double decode = ratio(locate, "TPOT median");
    Signal bound =
        signal("prefill-bound steps: prefill time per prompt token rose", 3, kPerRequest);
    if (std::isfinite(prefill)) {
        const bool up = rises(locate, "prefill time per prompt token (median)");
        bound.value = up ? clamp01((prefill - 1.0) / 0.5) : 0.0;
        bound.evidence = "prefill time per prompt token ×" + formatNumber(prefill, 3) +
                         (up ? "" : " (not a divergence)");
    }
    h.signals.push_back(bound);
    Signal share = signal("prefill grew more than decode (compute, not bandwidth)", 2, kPerRequest);
    if (std::isfinite(prefill) && std::isfinite(decode)) {
        share.value = clamp01((prefill - decode) / 0.3);
        share.evidence = "prefill ×" + formatNumber(prefill, 3) + " vs decode (TPOT median) ×" +
                         formatNumber(decode, 3);
    }
    h.signals.push_back(share);
    return h;
}

Hypothesis memory(const LocateFindings& locate, const LlmPair& pair)
{
    Hypothesis h{Mechanism::Memory, {}, kNaN, 0.0, 0.0, {}};
    Signal full = signal("KV cache near full (preemption storms)", 3,
                         "the engine's KV cache use series of both runs (timeseries.csv)");
    if (const auto* kv = find(locate, "KV cache use (mean)")) {
        full.value = rises(locate, "KV cache use (mean)")
                         ? clamp01((kv->overall.candidate - 70.0) / 20.0)
                         : 0.0;
        full.evidence = "KV cache use " + formatValue(kv->overall.baseline, "%") + " → " +
                        formatValue(kv->overall.candidate, "%");
    }
    h.signals.push_back(full);
    Signal capacity = signal("less KV capacity (num_gpu_blocks or gpu_memory_utilization)", 2,
                             "the KV cache size (num_gpu_blocks, gpu_memory_utilization) of "
                             "both runs' headers");
    for (auto keys :
         {std::vector<std::string>{"kv_cache.num_gpu_blocks", "num_gpu_blocks"},
          std::vector<std::string>{"kv_cache.gpu_memory_utilization",
                                   "engine.gpu_memory_utilization", "gpu_memory_utilization"}}) {
        const double b = knob(*pair.baseline, keys), c = knob(*pair.candidate, keys);
        if (std::isfinite(b) && std::isfinite(c) && b > 0.0 && !capacity.available()) {
            capacity.value = clamp01((1.0 - c / b) / 0.3);
            capacity.evidence =
                std::string(*keys.begin()) + " " + formatNumber(b, 4) + " → " + formatNumber(c, 4);
        }
    }
    h.signals.push_back(capacity);
    Signal preempt = signal("preemptions rose", 2, "preemption counts of both runs");
    if (const auto* p = find(locate, "preemptions")) {
        preempt.value = rises(locate, "preemptions") ? 1.0 : 0.0;
        preempt.evidence = "preemptions " + formatNumber(p->overall.baseline) + " → " +
                           formatNumber(p->overall.candidate);
    }
    h.signals.push_back(preempt);
    return h;
}

Hypothesis scheduling(const LocateFindings& locate, const LlmPair& pair)
{
    Hypothesis h{Mechanism::Scheduling, {}, kNaN, 0.0, 0.0, {}};
    Signal spikes = signal("decode spikes: TPOT p99 grew beyond its median (prefill-decode "
                           "interference)",
                           3, kPerRequest);
    const double p99 = ratio(locate, "TPOT p99"), median = ratio(locate, "TPOT median");
    if (std::isfinite(p99) && std::isfinite(median) && median > 0.0) {
        const double spread = p99 / median;
        spikes.value = rises(locate, "TPOT p99") ? clamp01((spread - 1.0) / 0.3) : 0.0;
        spikes.evidence =
            "TPOT p99 ×" + formatNumber(p99, 3) + ", median ×" + formatNumber(median, 3);
    }
    h.signals.push_back(spikes);
    Signal queue = signal("admission queueing (budget or seat limits)", 3,
                          "per-request queue times or the waiting series of both runs");
    const double q = ratio(locate, "queue time p99");
    if (std::isfinite(q)) {
        queue.value = rises(locate, "queue time p99") || rises(locate, "waiting requests (mean)")
                          ? clamp01((q - 1.0) / 1.0)
                          : 0.0;
        queue.evidence = "queue time p99 ×" + formatNumber(q, 3);
    }
    h.signals.push_back(queue);
    Signal knobs = signal("a scheduling knob differs (max_num_batched_tokens, max_num_seqs, "
                          "chunked prefill)",
                          1, "the engine knobs of both runs' headers");
    int recorded = 0, differ = 0;
    for (auto keys :
         {std::vector<std::string>{"engine.max_num_batched_tokens", "max_num_batched_tokens"},
          std::vector<std::string>{"engine.max_num_seqs", "max_num_seqs"},
          std::vector<std::string>{"engine.enable_chunked_prefill", "enable_chunked_prefill"}}) {
        const auto b = llmKnob(*pair.baseline, keys), c = llmKnob(*pair.candidate, keys);
        recorded += !b.empty() || !c.empty();
        if (b != c) {
            ++differ;
            knobs.evidence += (knobs.evidence.empty() ? "" : ", ") + std::string(*keys.begin()) +
                              " " + b + " → " + c;
        }
    }
    if (recorded > 0) {
        knobs.value = differ > 0 ? 1.0 : 0.0;
        if (differ == 0)
            knobs.evidence = "the same scheduling knobs";
    }
    h.signals.push_back(knobs);
    return h;
}

Hypothesis precision(const PlaybookContext& context, const LlmPair& pair)
{
    Hypothesis h{Mechanism::Precision, {}, kNaN, 0.0, 0.0, {}};
    Signal dtypes = signal("weights or KV cache quantised differently (dtype, kv_cache_dtype, "
                           "quantization)",
                           2, "the dtypes of both runs' headers");
    for (auto keys : {std::vector<std::string>{"engine.dtype", "dtype"},
                      std::vector<std::string>{"engine.kv_cache_dtype", "kv_cache_dtype"},
                      std::vector<std::string>{"engine.quantization", "quantization"}}) {
        const auto b = llmKnob(*pair.baseline, keys), c = llmKnob(*pair.candidate, keys);
        if (b.empty() && c.empty())
            continue;
        if (!dtypes.available())
            dtypes.value = 0.0;
        if (b != c) {
            dtypes.value = 1.0;
            dtypes.evidence += (dtypes.evidence.empty() ? "" : ", ") + std::string(*keys.begin()) +
                               " " + (b.empty() ? "?" : b) + " → " + (c.empty() ? "?" : c);
        }
    }
    h.signals.push_back(dtypes);
    Signal quality = signal("quality delta against its tolerance", 2,
                            "quality evidence (an evaluation of both runs' outputs)");
    if (const auto& q = context.state.quality) {
        const double delta = std::fabs(q->candidate - q->baseline);
        quality.value = delta > q->tolerance ? 1.0 : 0.0;
        quality.evidence = q->metric + " " + formatSigned(q->candidate - q->baseline, "") +
                           " (tolerance ±" + formatNumber(q->tolerance) + ")";
    }
    h.signals.push_back(quality);
    return h;
}

Hypothesis thermal(const PlaybookContext& context)
{
    Hypothesis h{Mechanism::Thermal, {}, kNaN, 0.0, 0.0, {}};
    Signal drop = signal("SM clock drop under load (candidate power log or telemetry)", 3,
                         "a power log (nvidia-smi: power, SM clock, temperature) of both runs");
    const auto& c = context.candidate.thermal;
    if (c && c->available && !c->smClockMHz.empty()) {
        double worst = 0.0, hottest = kNaN;
        for (const auto& d : c->drops) {
            if (d.dropFraction > worst) {
                worst = d.dropFraction;
                hottest = d.maxTemperatureC;
            }
        }
        const auto& b = context.baseline.thermal;
        const bool baselineDrops = b && b->available && !b->drops.empty();
        drop.value = baselineDrops ? 0.0 : clamp01(worst / 0.10);
        drop.evidence = c->drops.empty() ? c->verdict
                                         : "SM clock " + formatNumber(100.0 * worst, 2) +
                                               "% below its sustained " +
                                               formatValue(c->sustainedClockMHz, "MHz") + " at " +
                                               formatValue(hottest, "°C") +
                                               (baselineDrops ? "; the baseline drops too" : "");
    }
    h.signals.push_back(drop);
    // Filled in by assessLlmHypotheses, which has the step 2 findings.
    h.signals.push_back(signal("prefill and decode slow together", 1, kPerRequest));
    return h;
}

} // namespace

namespace {

double medianOutputTokens(const data::LlmRun& run)
{
    std::vector<double> tokens;
    for (const auto& r : run.requests)
        if (r.ok && r.outputTokens)
            tokens.push_back(double(*r.outputTokens));
    if (tokens.empty())
        return kNaN;
    std::ranges::sort(tokens);
    return analysis::quantileOfSorted(tokens, 0.5);
}

bool alarmWorse(const StageMetric& m)
{
    const int worse = m.higherIsWorse ? 1 : -1;
    return isLlmAlarmMetric(m) && m.divergent() &&
           (m.overall.sign == worse || m.persistence.direction == worse);
}

} // namespace

std::string llmOutputLengthExplanation(const LlmPair& pair, const LocateFindings& locate)
{
    if (locate.firstPersistentStage != Stage::CompletionTail ||
        std::ranges::any_of(locate.metrics, alarmWorse))
        return {};
    const double b = medianOutputTokens(*pair.baseline), c = medianOutputTokens(*pair.candidate);
    if (!(b > 0.0 && c > 0.0) || std::max(b, c) / std::min(b, c) < 1.2)
        return {};
    return "the candidate's requests generate " + std::string(c > b ? "more" : "fewer") +
           " output tokens (median " + formatNumber(b) + " → " + formatNumber(c) +
           ") while TTFT and TPOT hold: the end-to-end change follows the output length, a "
           "workload or sampling difference (max_tokens, stop and EOS handling, the generation "
           "config, the dataset's outputs), not an engine mechanism";
}

std::vector<Hypothesis> assessLlmHypotheses(const PlaybookContext& context, const LlmPair& pair,
                                            const LocateFindings& locate)
{
    auto hot = thermal(context);
    // A clock-bound slowdown stretches prefill and decode alike; a knob or cache change moves
    // one of them.
    auto& slows = hot.signals.back();
    const double prefill = ratio(locate, "prefill time per prompt token (median)");
    const double decode = ratio(locate, "TPOT median");
    if (std::isfinite(prefill) && std::isfinite(decode)) {
        const bool both = prefill > 1.05 && decode > 1.05;
        slows.value = both ? clamp01(1.0 - std::fabs(prefill - decode) / 0.3) : 0.0;
        slows.evidence =
            "prefill ×" + formatNumber(prefill, 3) + ", decode ×" + formatNumber(decode, 3);
    }
    return {compute(locate), memory(locate, pair), scheduling(locate, pair),
            precision(context, pair), std::move(hot)};
}

} // namespace bs::playbook
