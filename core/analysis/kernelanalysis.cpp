#include "analysis/kernelanalysis.h"

#include "analysis/kernelparts.h"
#include "analysis/radixsort.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace bs::analysis {

namespace {

using data::EventCategory;

bool isDeviceActivity(const data::KernelEvent& e)
{
    return e.phase == data::EventPhase::Complete &&
           (e.category == EventCategory::Kernel || e.category == EventCategory::Memcpy ||
            e.category == EventCategory::Memset);
}

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

Status validate(const data::KernelTrace& t)
{
    for (std::size_t i = 0; i < t.events.size(); ++i) {
        const auto& e = t.events[i];
        if (!std::isfinite(e.startS) || !std::isfinite(e.durationS) || e.durationS < 0.0 ||
            e.nameId >= t.names.size()) {
            return makeError(ErrorCode::Value, "event " + std::to_string(i + 1) +
                                                   ": start or duration is not a finite, "
                                                   "non-negative number (or its name is missing)");
        }
    }
    return {};
}

/// Class and fallback flags per name id, computed once per distinct name.
void classifyNames(detail::KernelWork& w)
{
    const auto& t = w.trace;
    w.nameClass.assign(t.names.size(), std::uint8_t(KernelClass::Other));
    w.nameFlags.assign(t.names.size(), 0);
    std::vector<std::string> marks;
    for (const auto& m : w.options.fallbackNames)
        marks.push_back(lower(m));
    std::vector<std::uint8_t> seen(t.names.size(), 0);
    for (const auto& e : t.events) {
        const bool device = isDeviceActivity(e);
        if (seen[e.nameId] & (device ? 1 : 2))
            continue;
        seen[e.nameId] |= device ? 1 : 2;
        const std::string& name = t.names[e.nameId];
        const std::string lowered = lower(name);
        for (const auto& m : marks) {
            if (!m.empty() && lowered.find(m) != std::string::npos)
                w.nameFlags[e.nameId] |= detail::kUserMarked;
        }
        if (!device)
            continue;
        const KernelClass c = classifyKernel(name, e.category);
        w.nameClass[e.nameId] = std::uint8_t(c);
        if (w.options.expectTensorCores && c == KernelClass::Gemm && expectsTensorCores(name) &&
            !hasTensorCoreMarker(name))
            w.nameFlags[e.nameId] |= detail::kNoTensorCore;
    }
}

/// Device activities in start order: one radix sort of (start, index), skipped when the
/// trace is already in order.
void collectDeviceActivity(detail::KernelWork& w, KernelAnalysis& out)
{
    std::vector<KeyIndex> keys;
    for (std::size_t i = 0; i < w.trace.events.size(); ++i) {
        const auto& e = w.trace.events[i];
        if (isDeviceActivity(e)) {
            keys.push_back({orderedBits(e.startS), i});
            out.kernels += e.category == EventCategory::Kernel ? 1 : 0;
            out.memoryOps += e.category == EventCategory::Kernel ? 0 : 1;
        } else if (e.device >= 0 && e.category == EventCategory::Other &&
                   e.phase == data::EventPhase::Complete) {
            ++out.otherDeviceEvents;
        }
    }
    const bool sorted =
        std::is_sorted(keys.begin(), keys.end(),
                       [](const KeyIndex& a, const KeyIndex& b) { return a.key < b.key; });
    if (!sorted) {
        std::vector<KeyIndex> scratch;
        radixSort(keys, scratch);
    }
    w.device.resize(keys.size());
    for (std::size_t k = 0; k < keys.size(); ++k)
        w.device[k] = std::uint32_t(keys[k].index);
}

/// Counts, class times and launch overhead per step, in one pass over the device activity.
void accumulate(detail::KernelWork& w, std::vector<StepBreakdown>& steps,
                std::vector<double>& overheads, std::vector<TopKernel>& byName)
{
    std::vector<double> overheadSum(steps.size(), 0.0);
    std::vector<std::uint64_t> joined(steps.size(), 0);
    for (std::size_t k = 0; k < w.device.size(); ++k) {
        const auto& e = w.trace.events[w.device[k]];
        auto& s = steps[std::size_t(w.stepOf[k])];
        const auto c = KernelClass(w.nameClass[e.nameId]);
        s.classS[std::size_t(c)] += e.durationS;
        (e.category == EventCategory::Kernel ? s.kernels : s.memoryOps) += 1;
        const std::uint8_t flags = w.nameFlags[e.nameId];
        if (flags & detail::kUserMarked)
            s.userMarkedS += e.durationS;
        else if (flags & detail::kNoTensorCore)
            s.noTensorCoreS += e.durationS;
        if (!std::isnan(w.launchS[k])) {
            const double overhead = e.startS - w.launchS[k];
            overheads.push_back(overhead);
            overheadSum[std::size_t(w.stepOf[k])] += overhead;
            ++joined[std::size_t(w.stepOf[k])];
            s.launchOverheadMaxS = std::isnan(s.launchOverheadMaxS)
                                       ? overhead
                                       : std::max(s.launchOverheadMaxS, overhead);
        }
        auto& top = byName[e.nameId];
        ++top.count;
        top.totalS += e.durationS;
        top.maxS = std::max(top.maxS, e.durationS);
    }
    for (std::size_t i = 0; i < steps.size(); ++i) {
        steps[i].launches = joined[i];
        if (joined[i] > 0)
            steps[i].launchOverheadMeanS = overheadSum[i] / double(joined[i]);
    }
}

std::vector<TopKernel> topKernels(const detail::KernelWork& w, std::vector<TopKernel>& byName,
                                  double deviceTimeS)
{
    std::vector<TopKernel> out;
    for (std::size_t id = 0; id < byName.size(); ++id) {
        auto& k = byName[id];
        if (k.count == 0)
            continue;
        k.name = w.trace.names[id];
        k.kernelClass = KernelClass(w.nameClass[id]);
        k.tensorCore = hasTensorCoreMarker(k.name);
        k.noTensorCoreVariant = (w.nameFlags[id] & detail::kNoTensorCore) != 0;
        k.meanS = k.totalS / double(k.count);
        k.share = deviceTimeS > 0.0 ? k.totalS / deviceTimeS : 0.0;
        out.push_back(std::move(k));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const TopKernel& a, const TopKernel& b) { return a.totalS > b.totalS; });
    if (out.size() > w.options.topKernels)
        out.resize(w.options.topKernels);
    return out;
}

/// Wall, idle, fractions and per-item figures of a step, once busy and fallback are known.
void finishStep(StepBreakdown& s, double lastEndS, double itemsPerStep)
{
    if (s.wallS == 0.0)
        s.wallS = std::max(s.endS, std::isnan(lastEndS) ? s.endS : lastEndS) - s.startS;
    s.idleS = std::max(0.0, s.wallS - s.busyS);
    s.busyFraction = s.wallS > 0.0 ? s.busyS / s.wallS : kNaN;
    s.fallbackS = s.cpuFallbackExposedS + s.noTensorCoreS + s.userMarkedS;
    s.fallbackShare = s.wallS > 0.0 ? s.fallbackS / s.wallS : kNaN;
    if (itemsPerStep > 0.0) {
        s.kernelsPerItem = double(s.kernels) / itemsPerStep;
        s.launchesPerItem = double(s.launches) / itemsPerStep;
    }
}

/// The whole-trace breakdown: the sum over steps (and activity outside them) on the device span.
StepBreakdown totalOf(const std::vector<StepBreakdown>& all, double spanS, double busyS)
{
    StepBreakdown t;
    t.name = "whole trace";
    t.wallS = spanS;
    t.busyS = busyS;
    double overheadSum = 0.0;
    for (const auto& s : all) {
        for (std::size_t c = 0; c < kKernelClassCount; ++c)
            t.classS[c] += s.classS[c];
        t.kernels += s.kernels;
        t.memoryOps += s.memoryOps;
        t.launches += s.launches;
        t.hostGapS += s.hostGapS;
        t.hostGaps += s.hostGaps;
        t.cpuFallbackExposedS += s.cpuFallbackExposedS;
        t.noTensorCoreS += s.noTensorCoreS;
        t.userMarkedS += s.userMarkedS;
        if (s.launches > 0) {
            overheadSum += s.launchOverheadMeanS * double(s.launches);
            t.launchOverheadMaxS = std::isnan(t.launchOverheadMaxS)
                                       ? s.launchOverheadMaxS
                                       : std::max(t.launchOverheadMaxS, s.launchOverheadMaxS);
        }
    }
    if (t.launches > 0)
        t.launchOverheadMeanS = overheadSum / double(t.launches);
    return t;
}

} // namespace

namespace {

constexpr const char* kClassificationRules =
    "Kernel classes by name (case-insensitive, first match wins): communication (nccl, rccl, "
    "msccl, all_reduce, all_gather, reduce_scatter, all_to_all, sendrecv, "
    "cross_device_reduce); memcpy_memset (memcpy/memset events or names); gemm (gemm, gemv, "
    "matmul, bmm, cutlass, cublas, xmma, hmma, wmma, mfma, scudnn, cijk_, fprop, dgrad, wgrad, "
    "conv2d, convolution, winograd, fft, attention, attn, fmha, flash_); elementwise "
    "(elementwise, vectorized, unrolled, reduce, softmax, norm, pool, fill, copy, cat_, index, "
    "scatter, gather, transpose, layout changes, dropout, relu, gelu, silu, embedding, "
    "multi_tensor_apply, epilogue, adam, sgd); other. Mapping fallback: GEMM/conv kernels "
    "whose names show no tensor-core or matrix-core implementation (xmma, hmma, wmma, "
    "tensorop, tf32, fp16/bf16, sm80_+, MFMA, Tensile _MI tiles), CPU ops of at least the "
    "minimum duration that launch no device work (counted by the device idle time they "
    "overlap), and names the user marks.";

void listHostSteps(const detail::KernelWork& w, KernelAnalysis& out)
{
    for (const auto& span : w.steps) {
        StepBreakdown s;
        s.name = span.name;
        s.startS = span.startS;
        s.endS = span.endS;
        finishStep(s, kNaN, w.options.itemsPerStep);
        out.steps.push_back(s);
    }
}

/// The whole trace as one step: the device span, from the first device activity's start to the
/// last one's end, the same window as KernelAnalysis::total (HTA's temporal breakdown uses it
/// too), so the step row and the total never disagree. Needs w.device sorted by start.
detail::StepSpan deviceSpan(const detail::KernelWork& w)
{
    const auto& events = w.trace.events;
    double endS = -INFINITY;
    for (std::uint32_t i : w.device)
        endS = std::max(endS, events[i].startS + events[i].durationS);
    return {"whole trace", events[w.device.front()].startS, endS};
}

double fallbackShareBase(const std::vector<StepBreakdown>& steps)
{
    double sum = 0.0;
    for (const auto& s : steps)
        sum += s.wallS;
    return sum;
}

} // namespace

Expected<KernelAnalysis> analyzeKernels(const data::KernelTrace& trace,
                                        const KernelAnalysisOptions& options, Progress& progress,
                                        const CancelToken& cancel)
{
    if (auto status = validate(trace); !status)
        return status.error();
    KernelAnalysis out;
    out.name = trace.name;
    out.events = trace.events.size();
    out.classification = kClassificationRules;
    detail::KernelWork w{trace, options, {}, {}, {}, false, {}, {}, {}, {}, {}, {}, {}};
    progress.setPhase("kernels: ordering device activity", 4);
    classifyNames(w);
    collectDeviceActivity(w, out);
    w.steps = detail::findSteps(trace, options.stepAnnotation, out.stepSource, w.wholeTrace);
    if (w.device.empty()) {
        out.note = "no device activity: the trace has no kernel, memcpy or memset events "
                   "(a CPU-only profile)";
        if (out.otherDeviceEvents > 0)
            out.note += "; " + std::to_string(out.otherDeviceEvents) +
                        " other device-side events (e.g. cuda_profiler_range, cuda_sync) were "
                        "not analysed";
        listHostSteps(w, out);
        progress.finish();
        return out;
    }
    if (w.wholeTrace)
        w.steps.front() = deviceSpan(w);
    if (cancel.isCancelled())
        return makeError(ErrorCode::Cancelled, "kernel analysis cancelled");
    progress.advanceTo(1);
    detail::joinLaunches(w);
    detail::assignSteps(w);
    std::vector<StepBreakdown> steps(w.steps.size() + 1);
    for (std::size_t i = 0; i < w.steps.size(); ++i) {
        steps[i].name = w.steps[i].name;
        steps[i].startS = w.steps[i].startS;
        steps[i].endS = w.steps[i].endS;
    }
    std::vector<double> overheads;
    std::vector<TopKernel> byName(trace.names.size());
    accumulate(w, steps, overheads, byName);
    progress.advanceTo(2);
    detail::walkTimeline(w, steps, out);
    if (cancel.isCancelled())
        return makeError(ErrorCode::Cancelled, "kernel analysis cancelled");
    progress.advanceTo(3);
    detail::findFallbacks(w, steps, out);
    for (std::size_t i = 0; i < w.steps.size(); ++i)
        finishStep(steps[i], w.stepLastEndS[i], options.itemsPerStep);
    const StepBreakdown& outside = steps.back();
    if (outside.kernels + outside.memoryOps > 0)
        out.notes.push_back(std::to_string(outside.kernels + outside.memoryOps) +
                            " device activities were launched outside every step; they count "
                            "in the whole-trace figures only");
    double busyS = 0.0;
    for (const auto& [a, b] : w.busy)
        busyS += b - a;
    out.total = totalOf(steps, out.deviceSpanS, busyS);
    if (out.devices.size() >= 2) {
        double sum = 0.0, most = 0.0;
        for (const auto& d : out.devices)
            sum += d.busyS, most = std::max(most, d.busyS);
        out.total.imbalanceS = most - sum / double(out.devices.size());
    }
    finishStep(out.total, kNaN, 0.0);
    steps.pop_back();
    out.steps = std::move(steps);
    double deviceTimeS = 0.0;
    for (double c : out.total.classS)
        deviceTimeS += c;
    out.topKernels = topKernels(w, byName, deviceTimeS);
    const double base = w.wholeTrace ? out.total.wallS : fallbackShareBase(out.steps);
    for (auto& f : out.fallbacks)
        f.share = base > 0.0 ? f.exposedS / base : 0.0;
    out.launchesJoined = overheads.size();
    std::vector<double> scratch;
    radixSort(overheads, scratch);
    out.launchOverheadS = describeSorted(overheads, 256);
    out.deviceActivity = true;
    progress.finish();
    return out;
}

} // namespace bs::analysis
