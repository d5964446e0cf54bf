#include "analysis/kernelparts.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace bs::analysis::detail {

namespace {

enum Kind : int
{
    kCpuOp = 0,
    kNoTensorCoreKind = 1,
    kUserMarkedKind = 2,
};

const char* kindName(int kind)
{
    return kind == kCpuOp ? "cpu_op" : kind == kNoTensorCoreKind ? "no_tensor_core" : "user_marked";
}

std::int64_t threadKey(const data::KernelEvent& e)
{
    return (std::int64_t(e.pid) << 32) | std::int64_t(std::uint32_t(e.tid));
}

struct Launch
{
    std::int64_t thread;
    double startS;
    bool operator<(const Launch& o) const
    {
        return thread != o.thread ? thread < o.thread : startS < o.startS;
    }
};

struct Candidate
{
    std::uint32_t event;
    int kind;
};

using Entries = std::map<std::pair<int, std::uint32_t>, FallbackEntry>;

void addEntry(Entries& entries, int kind, std::uint32_t nameId, double timeS, double exposedS)
{
    auto& f = entries[{kind, nameId}];
    ++f.count;
    f.timeS += timeS;
    f.exposedS += exposedS;
}

/// Whether a runtime call that launched device work starts inside [a, b] on this thread.
bool launchesWithin(const std::vector<Launch>& launches, std::int64_t thread, double a, double b)
{
    const auto it = std::lower_bound(launches.begin(), launches.end(), Launch{thread, a});
    return it != launches.end() && it->thread == thread && it->startS <= b;
}

/// CPU ops long enough to matter that launch no device work (or carry a user-marked name),
/// keeping only the outermost of nested ones on a thread.
std::vector<Candidate> cpuCandidates(const KernelWork& w)
{
    const auto& events = w.trace.events;
    std::vector<Launch> launches;
    for (std::uint32_t r : w.launchCalls)
        launches.push_back({threadKey(events[r]), events[r].startS});
    if (!std::is_sorted(launches.begin(), launches.end()))
        std::sort(launches.begin(), launches.end());
    std::vector<Candidate> found;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const auto& e = events[i];
        if (e.category != data::EventCategory::CpuOp || e.phase != data::EventPhase::Complete ||
            e.durationS < w.options.minCpuFallbackS)
            continue;
        if (w.nameFlags[e.nameId] & kUserMarked)
            found.push_back({std::uint32_t(i), kUserMarkedKind});
        else if (!launchesWithin(launches, threadKey(e), e.startS, e.startS + e.durationS))
            found.push_back({std::uint32_t(i), kCpuOp});
    }
    std::sort(found.begin(), found.end(), [&](const Candidate& a, const Candidate& b) {
        const auto &x = events[a.event], &y = events[b.event];
        if (threadKey(x) != threadKey(y))
            return threadKey(x) < threadKey(y);
        return x.startS != y.startS ? x.startS < y.startS : x.durationS > y.durationS;
    });
    std::vector<Candidate> outer;
    for (const auto& c : found) {
        const auto& e = events[c.event];
        if (!outer.empty()) {
            const auto& last = events[outer.back().event];
            if (threadKey(last) == threadKey(e) &&
                e.startS + e.durationS <= last.startS + last.durationS)
                continue;
        }
        outer.push_back(c);
    }
    return outer;
}

std::size_t stepAt(const KernelWork& w, double t)
{
    if (w.wholeTrace)
        return 0;
    const auto it = std::upper_bound(w.steps.begin(), w.steps.end(), t,
                                     [](double v, const StepSpan& s) { return v < s.startS; });
    if (it == w.steps.begin())
        return w.steps.size();
    const auto at = std::size_t(it - w.steps.begin()) - 1;
    return t <= w.steps[at].endS ? at : w.steps.size();
}

} // namespace

void findFallbacks(KernelWork& w, std::vector<StepBreakdown>& steps, KernelAnalysis& out)
{
    const auto& events = w.trace.events;
    Entries entries;
    for (std::uint32_t i : w.device) {
        const auto& e = events[i];
        const std::uint8_t flags = w.nameFlags[e.nameId];
        if (flags & kUserMarked)
            addEntry(entries, kUserMarkedKind, e.nameId, e.durationS, e.durationS);
        else if (flags & kNoTensorCore)
            addEntry(entries, kNoTensorCoreKind, e.nameId, e.durationS, e.durationS);
    }
    for (const auto& c : cpuCandidates(w)) {
        const auto& e = events[c.event];
        const std::size_t step = stepAt(w, e.startS);
        if (step >= w.steps.size())
            continue;
        const auto& span = w.steps[step];
        const double lastEnd = w.stepLastEndS[step];
        const double wallEnd = std::isnan(lastEnd) ? span.endS : std::max(span.endS, lastEnd);
        const double exposed = idleWithin(w, std::max(e.startS, span.startS),
                                          std::min(e.startS + e.durationS, wallEnd));
        (c.kind == kCpuOp ? steps[step].cpuFallbackExposedS : steps[step].userMarkedS) += exposed;
        addEntry(entries, c.kind, e.nameId, e.durationS, exposed);
    }
    for (auto& [key, f] : entries) {
        f.kind = kindName(key.first);
        f.name = w.trace.names[key.second];
        out.fallbacks.push_back(f);
    }
    std::stable_sort(
        out.fallbacks.begin(), out.fallbacks.end(),
        [](const FallbackEntry& a, const FallbackEntry& b) { return a.exposedS > b.exposedS; });
    if (out.fallbacks.size() > 50)
        out.fallbacks.resize(50);
}

} // namespace bs::analysis::detail
