#include "playbook/playbookcontext.h"

#include <algorithm>
#include <cmath>

namespace bs::playbook {

namespace {

/// Trace span (first arrival to last completion or arrival), seconds; 0 when empty.
double traceSpanS(const data::RequestTrace& trace)
{
    if (trace.arrivalS.empty())
        return 0.0;
    const auto [lo, hi] = std::ranges::minmax_element(trace.arrivalS);
    double end = *hi;
    if (!trace.completionS.empty())
        end = std::max(end, *std::ranges::max_element(trace.completionS));
    return end - *lo;
}

/// One window length for both traces, so window k of each covers comparable time: about 20
/// windows over the longer trace (enough samples per window for a p99 on typical traces).
double commonWindowS(const PlaybookInputs& inputs)
{
    double span = 0.0;
    for (const auto* side : {&inputs.baseline, &inputs.candidate}) {
        if (side->requests)
            span = std::max(span, traceSpanS(*side->requests));
    }
    return span > 0.0 ? span / 20.0 : 0.0;
}

/// Completion times in Unix seconds (the clock of power logs); empty without an absolute clock.
std::vector<double> unixCompletions(const data::RequestTrace* trace)
{
    std::vector<double> out;
    if (!trace || trace->originEpochS <= 0.0 || trace->completionS.empty())
        return out;
    out.reserve(trace->completionS.size());
    for (double t : trace->completionS)
        out.push_back(trace->originEpochS + t);
    std::ranges::sort(out);
    return out;
}

Status analyzeSide(const SideInputs& side, double windowS, const CancelToken& cancel,
                   SideAnalyses& out)
{
    if (side.requests) {
        analysis::RequestAnalysisOptions options;
        options.windowS = windowS;
        options.arrivals = false;
        auto result = analysis::analyzeRequests(*side.requests, options, Progress::null(), cancel);
        if (result)
            out.requests = std::move(*result);
        else if (result.error().code == ErrorCode::Cancelled)
            return result.error();
        else
            out.problems.push_back(side.requestsName + ": " + result.error().message);
    }
    if (side.kernels) {
        auto result = analysis::analyzeKernels(*side.kernels, {}, Progress::null(), cancel);
        if (result)
            out.kernels = std::move(*result);
        else if (result.error().code == ErrorCode::Cancelled)
            return result.error();
        else
            out.problems.push_back(side.kernelsName + ": " + result.error().message);
    }
    if (side.power) {
        const auto completions = unixCompletions(side.requests.get());
        auto result = analysis::thermalEvidence(*side.power, completions);
        if (result)
            out.thermal = std::move(*result);
        else
            out.problems.push_back(side.powerName + ": " + result.error().message);
    }
    return {};
}

Status simulatePair(PlaybookContext& context)
{
    auto run = [&context](const std::optional<sim::Scenario>& scenario,
                          std::optional<sim::Result>& slot, const char* label) -> Status {
        if (!scenario)
            return {};
        auto result = context.simulate(*scenario);
        if (result)
            slot = std::move(*result);
        else if (result.error().code == ErrorCode::Cancelled)
            return result.error();
        else
            context.simulated.problems.push_back(std::string(label) +
                                                 " scenario: " + result.error().message);
        return {};
    };
    if (auto status = run(context.scenarios.candidate, context.simulated.candidate, "candidate");
        !status)
        return status;
    return run(context.scenarios.baseline, context.simulated.baseline, "baseline");
}

} // namespace

Expected<sim::Result> PlaybookContext::simulate(const sim::Scenario& scenario) const
{
    return sim::simulate(scenario, simOptions, Progress::null(), cancel);
}

Expected<PlaybookContext> prepareContext(const data::Project& project, const PlaybookState& state,
                                         const PlaybookRunOptions& options, Progress& progress,
                                         const CancelToken& cancel)
{
    PlaybookContext context;
    context.state = state;
    context.cancel = cancel;
    context.simOptions.threads = options.threads;
    context.simOptions.pool = options.pool;
    progress.setPhase("Collecting playbook inputs", 3);
    context.inputs = gatherInputs(project, state.options.scenarioIndex);
    context.requestWindowS = commonWindowS(context.inputs);
    progress.advanceTo(1);
    if (auto status =
            analyzeSide(context.inputs.baseline, context.requestWindowS, cancel, context.baseline);
        !status)
        return status.error();
    if (auto status = analyzeSide(context.inputs.candidate, context.requestWindowS, cancel,
                                  context.candidate);
        !status)
        return status.error();
    progress.advanceTo(2);
    context.scenarios = deriveScenarios(context.inputs, state);
    if (auto status = simulatePair(context); !status)
        return status.error();
    progress.advanceTo(3);
    return context;
}

} // namespace bs::playbook
