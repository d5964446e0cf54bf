#include "analysis/kernelparts.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>

namespace bs::analysis::detail {

namespace {

std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

/// Drops spans that contain another span, so that steps never nest (the innermost match is
/// the step: an outer "forward" wrapping cache clearing and the real forward keeps the latter).
std::vector<StepSpan> innermost(std::vector<StepSpan> spans)
{
    std::sort(spans.begin(), spans.end(), [](const StepSpan& a, const StepSpan& b) {
        return a.startS != b.startS ? a.startS < b.startS : a.endS > b.endS;
    });
    std::vector<StepSpan> out;
    for (std::size_t i = 0; i < spans.size(); ++i) {
        bool container = false;
        for (std::size_t j = i + 1; j < spans.size() && spans[j].startS <= spans[i].endS; ++j) {
            if (spans[j].endS <= spans[i].endS) {
                container = true;
                break;
            }
        }
        if (!container)
            out.push_back(spans[i]);
    }
    return out;
}

} // namespace

std::vector<StepSpan> findSteps(const data::KernelTrace& t, const std::string& pattern,
                                std::string& source, bool& wholeTrace)
{
    const std::string needle = lower(pattern);
    std::vector<StepSpan> spans;
    double first = INFINITY, last = -INFINITY;
    for (const auto& e : t.events) {
        first = std::min(first, e.startS);
        last = std::max(last, e.startS + e.durationS);
        if (e.category != data::EventCategory::UserAnnotation ||
            e.phase != data::EventPhase::Complete)
            continue;
        const std::string& name = t.names[e.nameId];
        const bool match = needle.empty() ? name.rfind("ProfilerStep#", 0) == 0
                                          : lower(name).find(needle) != std::string::npos;
        if (match)
            spans.push_back({name, e.startS, e.startS + e.durationS});
    }
    spans = innermost(std::move(spans));
    wholeTrace = spans.empty();
    if (!wholeTrace) {
        source = needle.empty() ? "ProfilerStep# annotations"
                                : "annotations containing '" + pattern + "'";
        return spans;
    }
    source = needle.empty() ? "whole trace (no ProfilerStep# annotations)"
                            : "whole trace (no annotation contains '" + pattern + "')";
    if (t.events.empty())
        return {{"whole trace", 0.0, 0.0}};
    return {{"whole trace", first, last}};
}

void joinLaunches(KernelWork& w)
{
    const auto& events = w.trace.events;
    w.launchS.assign(w.device.size(), NAN);
    std::int64_t lo = INT64_MAX, hi = INT64_MIN;
    std::size_t runtimeCount = 0;
    for (const auto& e : events) {
        if (e.category == data::EventCategory::Runtime && e.correlation >= 0) {
            lo = std::min(lo, e.correlation);
            hi = std::max(hi, e.correlation);
            ++runtimeCount;
        }
    }
    if (runtimeCount == 0)
        return;
    const auto range = std::uint64_t(hi - lo) + 1;
    std::vector<std::uint32_t> table;
    std::unordered_map<std::int64_t, std::uint32_t> map;
    const bool dense = range <= 4 * std::uint64_t(runtimeCount) + 1024;
    if (dense)
        table.assign(range, UINT32_MAX);
    for (std::size_t i = 0; i < events.size(); ++i) {
        const auto& e = events[i];
        if (e.category != data::EventCategory::Runtime || e.correlation < 0)
            continue;
        if (dense)
            table[std::uint64_t(e.correlation - lo)] = std::uint32_t(i);
        else
            map[e.correlation] = std::uint32_t(i);
    }
    for (std::size_t k = 0; k < w.device.size(); ++k) {
        const std::int64_t c = events[w.device[k]].correlation;
        if (c < lo || c > hi)
            continue;
        std::uint32_t runtime = UINT32_MAX;
        if (dense) {
            runtime = table[std::uint64_t(c - lo)];
        } else if (const auto it = map.find(c); it != map.end()) {
            runtime = it->second;
        }
        if (runtime == UINT32_MAX)
            continue;
        w.launchS[k] = events[runtime].startS;
        w.launchCalls.push_back(runtime);
    }
}

void assignSteps(KernelWork& w)
{
    const auto stepCount = std::int32_t(w.steps.size());
    w.stepOf.assign(w.device.size(), stepCount);
    std::vector<double> starts;
    for (const auto& s : w.steps)
        starts.push_back(s.startS);
    for (std::size_t k = 0; k < w.device.size(); ++k) {
        const auto& e = w.trace.events[w.device[k]];
        if (w.wholeTrace) {
            w.stepOf[k] = 0;
            continue;
        }
        const double t = std::isnan(w.launchS[k]) ? e.startS : w.launchS[k];
        const auto at = std::upper_bound(starts.begin(), starts.end(), t) - starts.begin() - 1;
        if (at >= 0 && t <= w.steps[std::size_t(at)].endS)
            w.stepOf[k] = std::int32_t(at);
    }
}

} // namespace bs::analysis::detail
