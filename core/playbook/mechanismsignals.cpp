#include "playbook/mechanismsignals.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>

namespace bs::playbook {

using analysis::kNaN;

namespace {

const char* const kMissingPowerLog =
    "power/clock/temperature log of the candidate run (nvidia-smi --query-gpu=timestamp,"
    "power.draw,clocks.sm,temperature.gpu --format=csv -lms 200)";
const char* const kMissingRequestTrace =
    "request trace of the candidate with arrival, dispatch and completion times (queue wait vs "
    "service split of the p99), or a scenario to simulate it";
const char* const kMissingKernelTraces = "kernel traces (PyTorch profiler / Kineto) of both runs";
const char* const kMissingCounters =
    "a calibrated accelerator model (batchscope-cli fit on the sweep) or a counter packet "
    "(achieved FLOP/s and DRAM bandwidth per kernel)";
const char* const kMissingQuality =
    "quality signoff data: the quality metric of both runs on the evaluation set, with a "
    "tolerance (playbook quality evidence)";

std::optional<double> parseNumber(const std::string& text)
{
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::string lower(std::string text)
{
    std::ranges::transform(text, text.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

Signal signal(const char* name, double weight, const char* missing)
{
    Signal s;
    s.name = name;
    s.weight = weight;
    s.missing = missing;
    return s;
}

/// Mean of a per-step value over all steps (NaN without steps).
template <typename Value>
double stepMean(const analysis::KernelAnalysis& kernels, Value value)
{
    double sum = 0.0;
    int n = 0;
    for (const auto& step : kernels.steps) {
        const double v = value(step);
        if (std::isfinite(v)) {
            sum += v;
            ++n;
        }
    }
    return n > 0 ? sum / n : kNaN;
}

/// Per-step device time change by kernel class, candidate − baseline (seconds).
std::array<double, analysis::kKernelClassCount> classDeltas(const PlaybookContext& context)
{
    std::array<double, analysis::kKernelClassCount> out{};
    for (std::size_t c = 0; c < out.size(); ++c) {
        auto value = [c](const analysis::StepBreakdown& s) { return s.classS[c]; };
        out[c] = stepMean(*context.candidate.kernels, value) -
                 stepMean(*context.baseline.kernels, value);
    }
    return out;
}

/// Share of the positive per-class growth that falls in the given classes.
double classShare(const std::array<double, analysis::kKernelClassCount>& deltas,
                  std::initializer_list<analysis::KernelClass> classes)
{
    double positive = 0.0, part = 0.0;
    for (std::size_t c = 0; c < deltas.size(); ++c)
        positive += std::max(0.0, deltas[c]);
    for (auto c : classes)
        part += std::max(0.0, deltas[std::size_t(c)]);
    return positive > 0.0 ? part / positive : 0.0;
}

/// Fraction of the divergent batch sizes for which `test` holds.
template <typename Test>
double fractionOfBatches(const std::vector<int>& batches, Test test)
{
    if (batches.empty())
        return 0.0;
    int hits = 0;
    for (int b : batches)
        hits += test(b) ? 1 : 0;
    return double(hits) / double(batches.size());
}

std::string batchList(const std::vector<int>& batches)
{
    if (batches.empty())
        return "none";
    if (batches.size() == 1)
        return std::to_string(batches.front());
    return std::to_string(batches.front()) + "–" + std::to_string(batches.back());
}

/// Fraction of the loaded readings of a power log (at least halfway from idle to peak) that
/// sit at 97% of the limit or above; NaN without readings.
double pinnedFraction(const data::PowerSeries& series, double capW, double idleW)
{
    if (series.powerW.empty())
        return kNaN;
    const double peak = *std::ranges::max_element(series.powerW);
    const double loadedAbove = std::isfinite(idleW) ? 0.5 * (idleW + peak) : 0.5 * peak;
    int loaded = 0, pinned = 0;
    for (double w : series.powerW) {
        if (w < loadedAbove)
            continue;
        ++loaded;
        pinned += w >= 0.97 * capW;
    }
    return loaded > 0 ? double(pinned) / loaded : kNaN;
}

/// The candidate draws its power limit where it diverges (sweep) or under load (power log).
Signal powerAtCapSignal(const PlaybookContext& context, const std::vector<int>& batches)
{
    Signal atCap = signal("candidate power at its limit (sweep at the divergent batch sizes, or "
                          "power log under load)",
                          2,
                          "the candidate's power limit (run tag power_limit_w) with board power "
                          "per batch size (sweep) or a power log");
    const auto cap = candidatePowerCapW(context);
    if (!cap)
        return atCap;
    const auto& sweep = context.inputs.candidate.sweep;
    std::string evidence = "power limit " + formatValue(*cap, "W");
    if (sweep && std::ranges::any_of(sweep->points, [](const data::SweepPoint& p) {
            return p.powerW.has_value();
        })) {
        auto powerAt = [&sweep](int b) {
            for (const auto& p : sweep->points) {
                if (p.batchSize == b && p.powerW)
                    return *p.powerW;
            }
            return kNaN;
        };
        atCap.value = fractionOfBatches(batches, [&](int b) { return powerAt(b) >= 0.97 * *cap; });
        evidence += "; sweep: " + formatNumber(100.0 * atCap.value, 2) +
                    "% of the divergent batch sizes (" + batchList(batches) + ") draw ≥ 97% of it";
    }
    if (const auto& power = context.inputs.candidate.power) {
        const auto& thermal = context.candidate.thermal;
        const double pinned = pinnedFraction(*power, *cap, thermal ? thermal->idlePowerW : kNaN);
        if (std::isfinite(pinned)) {
            atCap.value = std::isfinite(atCap.value) ? std::max(atCap.value, pinned) : pinned;
            evidence += "; power log: " + formatNumber(100.0 * pinned, 2) +
                        "% of loaded readings at ≥ 97% of it";
        }
    }
    if (atCap.available())
        atCap.evidence = evidence;
    return atCap;
}

Hypothesis thermalHypothesis(const PlaybookContext& context, const LocateFindings& locate,
                             const std::optional<accel::Model>& model)
{
    Hypothesis h{Mechanism::Thermal, {}, kNaN, 0.0, 0.0, {}};
    const auto& batches = locate.divergentBatches;

    Signal drop =
        signal("clock drop at high temperature (candidate power log)", 3, kMissingPowerLog);
    const auto& thermal = context.candidate.thermal;
    if (thermal && thermal->available && !thermal->smClockMHz.empty() &&
        !thermal->temperatureC.empty()) {
        double worst = 0.0, hottest = kNaN;
        for (const auto& d : thermal->drops) {
            if (d.dropFraction > worst) {
                worst = d.dropFraction;
                hottest = d.maxTemperatureC;
            }
        }
        const double limitC = model ? model->params().effectiveThermal().throttleC : kNaN;
        const bool hot =
            std::isfinite(limitC) ? hottest >= limitC - 5.0 : thermal->temperatureRiseC >= 10.0;
        drop.value = std::min(1.0, worst / 0.10) * (hot ? 1.0 : 0.5);
        drop.evidence =
            thermal->drops.empty()
                ? thermal->verdict
                : "SM clock " + formatNumber(100.0 * worst, 2) + "% below its sustained " +
                      formatValue(thermal->sustainedClockMHz, "MHz") + " at " +
                      formatValue(hottest, "°C") +
                      (std::isfinite(limitC) ? " (throttle limit " + formatValue(limitC, "°C") + ")"
                                             : "");
    }
    h.signals.push_back(drop);

    h.signals.push_back(powerAtCapSignal(context, batches));

    Signal onset = signal("divergence only above some batch size", 1,
                          "sweeps of both runs over several batch sizes");
    const auto* base = context.inputs.baseline.sweep.get();
    const auto* sweep = context.inputs.candidate.sweep.get();
    if (base && sweep) {
        const auto pairs = pairByBatch(*base, *sweep);
        if (pairs.size() >= 3) {
            const bool large = !batches.empty() && batches.front() > pairs.front().batch &&
                               batches.back() == pairs.back().batch;
            onset.value = large ? 1.0 : 0.0;
            onset.evidence = "divergent batch sizes: " + batchList(batches) + " of " +
                             std::to_string(pairs.front().batch) + "–" +
                             std::to_string(pairs.back().batch);
        }
    }
    h.signals.push_back(onset);

    Signal modelCap = signal("model: power cap or throttling binds at the divergent batch sizes", 1,
                             kMissingCounters);
    if (model && !batches.empty()) {
        modelCap.value = fractionOfBatches(batches, [&model](int b) {
            return model->predict(b).powerCapped || model->sustained(b).throttles;
        });
        modelCap.evidence = formatNumber(100.0 * modelCap.value, 2) +
                            "% of the divergent batch sizes are power-capped or throttle in "
                            "sustained load (model)";
    }
    h.signals.push_back(modelCap);
    return h;
}

double candidateQueueShare(const PlaybookContext& context, std::string& evidence)
{
    if (context.candidate.requests && context.candidate.requests->tail.available) {
        double share = 0.0;
        for (const auto& c : context.candidate.requests->tail.components) {
            if (c.name != "service" && std::isfinite(c.share))
                share += c.share;
        }
        evidence = "request trace tail decomposition: " + formatNumber(100.0 * share, 2) +
                   "% of the p99 excess over the median is waiting (queue, batch formation)";
        return std::clamp(share, 0.0, 1.0);
    }
    // A derived scenario's traffic is an assumption: its queueing says nothing about the symptom.
    const auto& sim = context.simulated.candidate;
    if (sim && !context.scenarios.derived && sim->stability.stable &&
        sim->latency.p99.value > 0.0) {
        const double share = sim->queueWait.p99.value / sim->latency.p99.value;
        evidence = "simulation: queue wait p99 is " + formatNumber(100.0 * share, 2) +
                   "% of the p99 latency";
        return std::clamp(share, 0.0, 1.0);
    }
    return kNaN;
}

bool policyTagDiffers(const PlaybookContext& context, std::string& which)
{
    for (const auto& knob : context.scenarios.knobs) {
        if (knobCategoryRank(knob.knob) == 0) {
            which = knob.tagKey + " " + knob.baseline + " → " + knob.candidate;
            return true;
        }
    }
    const auto differences = data::differingTags(context.inputs.baseline.primaryTags(),
                                                 context.inputs.candidate.primaryTags());
    for (const auto& d : differences) {
        const std::string key = lower(d.key);
        for (const char* word : {"batch", "delay", "queue", "scheduler", "policy"}) {
            if (key.find(word) != std::string::npos) {
                which = d.key + " " + d.baseline + " → " + d.candidate;
                return true;
            }
        }
    }
    return false;
}

Hypothesis schedulingHypothesis(const PlaybookContext& context, const LocateFindings& locate)
{
    Hypothesis h{Mechanism::Scheduling, {}, kNaN, 0.0, 0.0, {}};
    Signal share =
        signal("share of the candidate's p99 spent waiting in the queue", 3, kMissingRequestTrace);
    share.value = candidateQueueShare(context, share.evidence);
    h.signals.push_back(share);

    Signal change = signal("queue wait change explains the p99 change", 2, kMissingRequestTrace);
    change.value = locate.queueShareOfTailChange;
    if (change.available())
        change.evidence = "queue wait p99 change is " + formatNumber(100.0 * change.value, 2) +
                          "% of the p99 latency change";
    h.signals.push_back(change);

    Signal launch =
        signal("launch overhead and host gaps in the step-time change", 1, kMissingKernelTraces);
    if (context.baseline.kernels && context.candidate.kernels) {
        auto overhead = [](const analysis::StepBreakdown& s) {
            return std::isfinite(s.launchOverheadMeanS)
                       ? s.launchOverheadMeanS * double(s.launches) + s.hostGapS
                       : s.hostGapS;
        };
        auto wall = [](const analysis::StepBreakdown& s) { return s.wallS; };
        const double dWall =
            stepMean(*context.candidate.kernels, wall) - stepMean(*context.baseline.kernels, wall);
        const double dOverhead = stepMean(*context.candidate.kernels, overhead) -
                                 stepMean(*context.baseline.kernels, overhead);
        launch.value = dWall > 0.0 ? std::clamp(dOverhead / dWall, 0.0, 1.0) : 0.0;
        launch.evidence = "step time " + formatSigned(dWall * 1e3, "ms") +
                          ", launch overhead + host gaps " + formatSigned(dOverhead * 1e3, "ms");
    }
    h.signals.push_back(launch);

    Signal knob = signal("a batching-policy knob differs between the runs", 1, "");
    std::string which;
    knob.value = policyTagDiffers(context, which) ? 1.0 : 0.0;
    knob.evidence = knob.value > 0.0 ? which : "no policy tag differs";
    h.signals.push_back(knob);
    return h;
}

Hypothesis boundHypothesis(const PlaybookContext& context, const LocateFindings& locate,
                           const std::optional<accel::Model>& model, Mechanism mechanism)
{
    const bool compute = mechanism == Mechanism::Compute;
    const accel::Bound bound = compute ? accel::Bound::Compute : accel::Bound::Memory;
    Hypothesis h{mechanism, {}, kNaN, 0.0, 0.0, {}};
    Signal byModel = signal(compute ? "model: compute-bound at the divergent batch sizes"
                                    : "model: memory-bound at the divergent batch sizes",
                            2, kMissingCounters);
    if (model && !locate.divergentBatches.empty()) {
        const double serviceSide = std::isfinite(locate.queueShareOfTailChange)
                                       ? 1.0 - locate.queueShareOfTailChange
                                       : 1.0;
        // A power-capped batch runs at a lowered clock: its slowdown is the cap's, not the
        // bound's (the thermal hypothesis takes it).
        const double fraction = fractionOfBatches(locate.divergentBatches, [&](int b) {
            const auto p = model->predict(b);
            return p.bound == bound && !p.powerCapped;
        });
        byModel.value = fraction * serviceSide;
        const auto first = model->predict(locate.divergentBatches.front());
        byModel.evidence = formatNumber(100.0 * fraction, 2) + "% of batch sizes " +
                           batchList(locate.divergentBatches) + " are " + accel::boundName(bound) +
                           "-bound at full clock (not power-capped); intensity at batch " +
                           std::to_string(first.batch) + " " +
                           formatValue(first.arithmeticIntensity, "FLOP/B") + " vs ridge " +
                           formatValue(first.ridgePoint, "FLOP/B");
    } else if (model) {
        byModel.value = 0.0;
        byModel.evidence = "no batch size diverges in the sweeps";
    }
    h.signals.push_back(byModel);

    Signal kernels = signal(compute ? "kernel traces: GEMM/convolution time grew"
                                    : "kernel traces: elementwise and memcpy time grew",
                            2, kMissingKernelTraces);
    if (context.baseline.kernels && context.candidate.kernels) {
        const auto deltas = classDeltas(context);
        kernels.value = compute ? classShare(deltas, {analysis::KernelClass::Gemm})
                                : classShare(deltas, {analysis::KernelClass::Elementwise,
                                                      analysis::KernelClass::Memory});
        kernels.evidence =
            formatNumber(100.0 * kernels.value, 2) + "% of the per-step device-time growth";
    }
    h.signals.push_back(kernels);
    return h;
}

bool precisionTag(const data::RunTags& tags, std::string& value)
{
    for (const char* key : {"precision", "dtype", "quantization", "sparsity"}) {
        const auto v = extraTag(tags, key);
        if (!v.empty()) {
            value += (value.empty() ? "" : ", ") + std::string(key) + " " + v;
        }
    }
    return !value.empty();
}

Hypothesis precisionHypothesis(const PlaybookContext& context)
{
    Hypothesis h{Mechanism::Precision, {}, kNaN, 0.0, 0.0, {}};
    Signal changed = signal("precision or sparsity differs between the runs", 2,
                            "the precision of each run (run tag 'precision')");
    std::string b, c;
    const bool baselineTagged = precisionTag(context.inputs.baseline.primaryTags(), b);
    const bool candidateTagged = precisionTag(context.inputs.candidate.primaryTags(), c);
    if (baselineTagged || candidateTagged) {
        changed.value = b != c ? 1.0 : 0.0;
        changed.evidence = "baseline: " + (b.empty() ? "not tagged" : b) +
                           "; candidate: " + (c.empty() ? "not tagged" : c);
    }
    h.signals.push_back(changed);

    Signal quality = signal("quality delta against its tolerance", 2, kMissingQuality);
    if (context.state.quality) {
        const auto& q = *context.state.quality;
        const double delta = q.candidate - q.baseline;
        const bool beyond = std::fabs(delta) > q.tolerance;
        const bool precisionChanged = changed.available() && changed.value > 0.0;
        quality.value = beyond ? (precisionChanged ? 1.0 : 0.5) : (precisionChanged ? 0.5 : 0.0);
        quality.evidence = q.metric + " " + formatSigned(delta, "") + " (tolerance ±" +
                           formatNumber(q.tolerance) + ")" + (beyond ? ": outside" : ": within");
    }
    h.signals.push_back(quality);

    Signal fallback =
        signal("mapping-fallback share grew (kernel traces)", 1, kMissingKernelTraces);
    if (context.baseline.kernels && context.candidate.kernels) {
        const double grow = context.candidate.kernels->total.fallbackShare -
                            context.baseline.kernels->total.fallbackShare;
        fallback.value = std::isfinite(grow) ? std::clamp(grow / 0.10, 0.0, 1.0) : 0.0;
        fallback.evidence = "fallback share of step time " + formatSigned(100.0 * grow, "%", 2);
    }
    h.signals.push_back(fallback);
    return h;
}

} // namespace

bool Signal::available() const
{
    return std::isfinite(value);
}

std::optional<accel::Model> candidateModel(const PlaybookContext& context)
{
    const auto& scenario = context.scenarios.candidate;
    if (scenario && scenario->service.kind == sim::ServiceSpec::Kind::Accelerator) {
        auto model = accel::modelFromJson(scenario->service.acceleratorModel, "service.model", {});
        if (model)
            return std::move(*model);
    }
    return context.inputs.model;
}

std::optional<double> candidatePowerCapW(const PlaybookContext& context)
{
    const auto tags = context.inputs.candidate.primaryTags();
    for (const char* key : {"power_limit_w", "power_cap_w"}) {
        if (auto value = parseNumber(extraTag(tags, key)); value && *value > 0.0)
            return value;
    }
    if (auto model = candidateModel(context))
        return model->params().powerCapW;
    return std::nullopt;
}

std::vector<Hypothesis> assessHypotheses(const PlaybookContext& context,
                                         const LocateFindings& locate)
{
    const auto model = candidateModel(context);
    return {boundHypothesis(context, locate, model, Mechanism::Compute),
            boundHypothesis(context, locate, model, Mechanism::Memory),
            schedulingHypothesis(context, locate), precisionHypothesis(context),
            thermalHypothesis(context, locate, model)};
}

} // namespace bs::playbook
