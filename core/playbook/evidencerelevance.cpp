#include "playbook/evidencerelevance.h"

#include "io/datetime.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <optional>

namespace bs::playbook {

namespace {

std::string deviceKey(const std::string& name)
{
    std::string key;
    for (unsigned char c : name) {
        if (std::isalnum(c))
            key += char(std::tolower(c));
    }
    return key;
}

std::optional<TimeSpan> requestSpan(const SideInputs& side)
{
    const auto& trace = side.requests;
    if (!trace || trace->originEpochS <= 0.0 || trace->arrivalS.empty())
        return std::nullopt;
    const double first = *std::ranges::min_element(trace->arrivalS);
    double last = *std::ranges::max_element(trace->arrivalS);
    if (!trace->completionS.empty())
        last = std::max(last, *std::ranges::max_element(trace->completionS));
    return TimeSpan{trace->originEpochS + first, trace->originEpochS + last,
                    "request trace '" + side.requestsName + "'"};
}

/// An LLM serving run's window (first arrival to last token), when it records its Unix time.
std::optional<TimeSpan> llmRunSpan(const SideInputs& side)
{
    if (!side.llmRuns || side.llmRuns->runs.empty())
        return std::nullopt;
    const auto& run = side.llmRuns->runs.front();
    if (!run.originEpochS || !run.durationS)
        return std::nullopt;
    return TimeSpan{*run.originEpochS, *run.originEpochS + *run.durationS,
                    "LLM run '" + side.llmRunsName + "'"};
}

/// A sweep's measurement window from its metadata: MLPerf's power window, else run_start /
/// run_end (recorded by whoever ran the sweep).
std::optional<TimeSpan> sweepSpan(const SideInputs& side)
{
    if (!side.sweep)
        return std::nullopt;
    const auto& metadata = side.sweep->metadata;
    for (const auto& [beginKey, endKey] :
         {std::pair{"power_begin", "power_end"}, std::pair{"run_start", "run_end"}}) {
        const auto begin = metadata.find(beginKey);
        const auto end = metadata.find(endKey);
        if (begin == metadata.end() || end == metadata.end())
            continue;
        const auto b = io::parseDateTime(begin->second);
        const auto e = io::parseDateTime(end->second);
        if (b && e && e->toSeconds() >= b->toSeconds())
            return TimeSpan{b->toSeconds(), e->toSeconds(),
                            "sweep '" + side.sweepName + "' (" + beginKey + " to " + endKey + ")"};
    }
    return std::nullopt;
}

/// Why the power log's device is not the runs' one, or "" when it may be.
std::string deviceMismatch(const SideInputs& side, const std::string& powerHardware)
{
    if (powerHardware.empty())
        return {};
    std::string others;
    for (const auto* id : {&side.sweepId, &side.requestsId, &side.kernelsId, &side.llmRunsId}) {
        const auto* tags = id->empty() ? nullptr : side.tagsOf(*id);
        if (!tags || tags->hardware.empty())
            continue;
        if (sameDevice(tags->hardware, powerHardware))
            return {};
        if (others.find("'" + tags->hardware + "'") == std::string::npos)
            others += (others.empty() ? "'" : ", '") + tags->hardware + "'";
    }
    if (others.empty())
        return {};
    return "its hardware tag '" + powerHardware + "' is not the device of the " + side.role +
           " runs (" + others + ")";
}

std::string spanText(double beginS, double endS)
{
    return utcText(beginS) + " to " + utcText(endS);
}

} // namespace

std::vector<TimeSpan> runTimeSpans(const SideInputs& side)
{
    std::vector<TimeSpan> spans;
    if (auto span = requestSpan(side))
        spans.push_back(std::move(*span));
    if (auto span = sweepSpan(side))
        spans.push_back(std::move(*span));
    if (auto span = llmRunSpan(side))
        spans.push_back(std::move(*span));
    return spans;
}

std::string utcText(double unixS)
{
    const std::time_t seconds = std::time_t(unixS);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &utc);
    return text;
}

bool sameDevice(const std::string& a, const std::string& b)
{
    return deviceKey(a) == deviceKey(b);
}

void setAsideUnrelatedPower(SideInputs& side)
{
    if (!side.power || side.power->timeS.empty())
        return;
    const auto* tags = side.tagsOf(side.powerId);
    std::string reason = deviceMismatch(side, tags ? tags->hardware : std::string());
    // Plain iterators, not a structured binding: lambdas cannot capture those in C++20.
    const auto range = std::ranges::minmax_element(side.power->timeS);
    const auto first = range.min;
    const auto last = range.max;
    const auto spans = runTimeSpans(side);
    if (reason.empty() && !spans.empty()) {
        const bool overlaps = std::ranges::any_of(spans, [&](const TimeSpan& span) {
            return *first <= span.endS && *last >= span.beginS;
        });
        if (!overlaps) {
            std::string runs;
            for (const auto& span : spans)
                runs += (runs.empty() ? "" : "; ") + span.source + " " +
                        spanText(span.beginS, span.endS);
            reason = "its readings (" + spanText(*first, *last) +
                     ") do not overlap the time span of the " + side.role + " runs (" + runs + ")";
        }
    }
    if (!reason.empty()) {
        side.setAside.push_back({side.powerName, "unrelated: " + reason});
        side.power.reset();
        side.powerName.clear();
        side.powerId.clear();
        return;
    }
    if (spans.empty())
        side.evidenceNotes.push_back(
            side.role + " power log '" + side.powerName +
            "': its overlap with the runs cannot be checked (no " + side.role +
            " run records its time: a request trace or LLM run with an absolute clock, or a "
            "sweep's run_start/run_end or power_begin/power_end)");
}

} // namespace bs::playbook
