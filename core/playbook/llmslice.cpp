#include "playbook/llmslice.h"

#include "llmsim/llmscenariojson.h"
#include "llmsim/llmsimulator.h"
#include "util/numbertext.h"

#include <algorithm>
#include <cmath>

namespace bs::playbook {

namespace {

constexpr double kExactS = 1e-9;

/// First and one-past-last request (arrival order) of the busy period holding `target`: a
/// period starts at an arrival after every earlier request's last token.
std::pair<std::size_t, std::size_t> busyPeriodOf(const std::vector<llmsim::RequestResult>& rs,
                                                 std::size_t target)
{
    std::size_t first = 0;
    double lastTokenS = -INFINITY;
    for (std::size_t i = 0; i < rs.size(); ++i) {
        if (i > 0 && rs[i].arrivalS > lastTokenS) {
            if (i > target)
                return {first, i};
            first = i;
        }
        lastTokenS = std::max(lastTokenS, rs[i].finishS);
    }
    return {first, rs.size()};
}

} // namespace

Expected<LlmSlice> focusedLlmSlice(const llmsim::LlmScenario& scenario,
                                   const llmsim::LlmResult& whole, const CancelToken& cancel)
{
    const auto& rs = whole.requests;
    if (rs.empty())
        return makeError(ErrorCode::Value, "the replay served no request to slice");
    LlmSlice slice;
    slice.ofRequests = rs.size();
    slice.slowestRequest =
        std::size_t(std::ranges::max_element(rs, {}, &llmsim::RequestResult::ttftS) - rs.begin());
    slice.slowestTtftMs = rs[slice.slowestRequest].ttftS * 1e3;
    const auto [first, end] = busyPeriodOf(rs, slice.slowestRequest);
    slice.firstRequest = first;
    slice.requests = end - first;
    llmsim::LlmScenario alone = scenario;
    alone.arrivals.kind = llmsim::LlmArrivalSpec::Kind::Replay;
    alone.arrivals.file.clear();
    alone.arrivals.requests.clear();
    double lastTokenS = rs[first].arrivalS;
    for (std::size_t i = first; i < end; ++i) {
        // Absolute arrival times: the engine waits idle until the first, as in the whole run.
        alone.arrivals.requests.push_back({rs[i].arrivalS, rs[i].promptTokens, rs[i].outputTokens});
        lastTokenS = std::max(lastTokenS, rs[i].finishS);
    }
    slice.spanS = lastTokenS - rs[first].arrivalS;
    alone.replications = 1;
    alone.name = scenario.name + ", requests " + std::to_string(first + 1) + "-" +
                 std::to_string(end) + " (the busy period of the slowest first token)";
    auto replayed = llmsim::simulateLlm(alone, {}, cancel);
    if (!replayed)
        return replayed.error();
    const double aloneTtftS = replayed->requests.at(slice.slowestRequest - first).ttftS;
    slice.sliceTtftMs = aloneTtftS * 1e3;
    slice.exact = std::abs(aloneTtftS - rs[slice.slowestRequest].ttftS) <= kExactS;
    slice.scenario = llmsim::llmScenarioToJson(alone);
    return slice;
}

std::string llmSliceText(const LlmSlice& slice)
{
    std::string text = "requests " + std::to_string(slice.firstRequest + 1) + "–" +
                       std::to_string(slice.firstRequest + slice.requests) + " of " +
                       std::to_string(slice.ofRequests) + " (" + significant(slice.spanS, 3) +
                       " s: the busy period holding the slowest first token, request " +
                       std::to_string(slice.slowestRequest + 1) + " at " +
                       significant(slice.slowestTtftMs, 4) + " ms)";
    if (slice.requests == slice.ofRequests)
        text += "; the engine was never empty before it, so the whole run is the reproducer";
    text += slice.exact ? "; replayed alone it gives that TTFT exactly"
                        : "; replayed alone it gives " + significant(slice.sliceTtftMs, 4) +
                              " ms, not the same: the period does not start from an empty "
                              "engine's state";
    return text;
}

} // namespace bs::playbook
