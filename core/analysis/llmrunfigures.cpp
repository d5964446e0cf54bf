#include "analysis/llmrunfigures.h"

#include "analysis/powerjoin.h"

#include <algorithm>
#include <set>

namespace bs::analysis {

LlmInFlight llmInFlight(const data::LlmRun& run)
{
    LlmInFlight out;
    double firstS = 0.0, lastS = 0.0, busyS = 0.0;
    bool any = false;
    for (const auto& r : run.requests) {
        if (!r.arrivalS || !r.e2eS)
            continue;
        firstS = any ? std::min(firstS, *r.arrivalS) : *r.arrivalS;
        lastS = any ? std::max(lastS, *r.arrivalS + *r.e2eS) : *r.arrivalS + *r.e2eS;
        busyS += *r.e2eS;
        any = true;
    }
    if (any && lastS > firstS) {
        out.windowS = lastS - firstS;
        out.fromRequests = busyS / *out.windowS;
    }
    if (!run.engineSeries.empty()) {
        double inServer = 0.0, running = 0.0;
        for (const auto& s : run.engineSeries) {
            inServer += double(s.running) + double(s.waiting);
            running += double(s.running);
        }
        const double n = double(run.engineSeries.size());
        out.fromEngineSeries = inServer / n;
        out.runningFromEngineSeries = running / n;
    }
    if (out.fromRequests && out.fromEngineSeries && *out.fromRequests > 0.0)
        out.relativeDifference = (*out.fromEngineSeries - *out.fromRequests) / *out.fromRequests;
    return out;
}

std::optional<LlmGoodput> llmGoodput(const data::LlmRun& run, const LlmSla& sla)
{
    if (sla.empty() || run.requests.empty())
        return std::nullopt;
    LlmGoodput g;
    const auto window = llmInFlight(run).windowS;
    g.durationS = run.durationS.value_or(window.value_or(0.0));
    if (g.durationS <= 0.0)
        return std::nullopt;
    for (const auto& r : run.requests) {
        if (!r.ok || !r.ttftS)
            continue;
        ++g.judged;
        const bool ttftMet = !sla.ttftS || *r.ttftS <= *sla.ttftS;
        const bool tpotMet = !sla.tpotS || !r.tpotS || *r.tpotS <= *sla.tpotS;
        g.good += ttftMet && tpotMet ? 1 : 0;
    }
    if (g.judged == 0)
        return std::nullopt;
    g.perS = double(g.good) / g.durationS;
    return g;
}

std::optional<LlmEnergy> llmEnergy(const data::LlmRun& run)
{
    const bool knowsUtilization = std::any_of(run.gpus.begin(), run.gpus.end(),
                                              [](const auto& g) { return g.meanUtilizationPct; });
    LlmEnergy e;
    for (const auto& g : run.gpus) {
        const bool serving = !knowsUtilization || g.meanUtilizationPct.value_or(0.0) > 0.0;
        if (serving && g.meanPowerW) {
            e.servingGpus.push_back(g.gpu);
            e.servingPowerW += *g.meanPowerW;
        }
    }
    if (e.servingGpus.empty())
        return std::nullopt;
    if (run.outputTokensPerS && *run.outputTokensPerS > 0.0)
        e.perOutputTokenJ = e.servingPowerW / *run.outputTokensPerS;
    if (run.requestsPerS && *run.requestsPerS > 0.0)
        e.perRequestJ = e.servingPowerW / *run.requestsPerS;
    if (!e.perOutputTokenJ && !e.perRequestJ)
        return std::nullopt;
    return e;
}

namespace {

/// The devices of a log that served the run: those busy at some reading inside its window
/// when the log records utilisation (a node's idle GPUs are left out), else every device.
std::vector<int> servingChannels(const data::PowerSeries& log, double beginS, double endS)
{
    const auto channelOf = [&log](std::size_t i) {
        return log.channel.empty() ? 0 : log.channel[i];
    };
    std::set<int> all, busy;
    for (std::size_t i = 0; i < log.size(); ++i) {
        all.insert(channelOf(i));
        if (i < log.utilizationPct.size() && log.timeS[i] >= beginS && log.timeS[i] <= endS &&
            log.utilizationPct[i] > 0.0)
            busy.insert(channelOf(i));
    }
    const auto& chosen = log.utilizationPct.empty() ? all : busy;
    return {chosen.begin(), chosen.end()};
}

} // namespace

std::optional<LlmLoggedEnergy> llmLoggedEnergy(const data::LlmRun& run,
                                               const data::PowerSeries& log)
{
    if (!run.originEpochS || !run.durationS || *run.durationS <= 0.0 || !run.outputTokensTotal ||
        *run.outputTokensTotal <= 0)
        return std::nullopt;
    const EnergyWindow window{"run", *run.originEpochS, *run.originEpochS + *run.durationS,
                              double(*run.outputTokensTotal), kNaN};
    const auto channels = servingChannels(log, window.startS, window.endS);
    // The log must hold the run's GPUs, no fewer and no more: one GPU of a tensor-parallel
    // pair is half the energy, a whole node's log more than the run's.
    const auto gpus = data::llmKnobNumber(
        run, {"hardware.device_count", "engine.tensor_parallel_size", "tensor_parallel_size"});
    if (channels.empty() || (gpus && std::size_t(*gpus) != channels.size()))
        return std::nullopt;
    LlmLoggedEnergy out;
    for (const int channel : channels) {
        PowerJoinOptions options;
        options.channel = log.channel.empty() ? -1 : channel;
        const auto joined = joinPower(log, std::span(&window, 1), options);
        if (!joined || joined->windows.empty() || !joined->windows.front().covered)
            return std::nullopt;
        out.energyJ += joined->windows.front().energyJ;
    }
    out.devices = channels.size();
    out.meanPowerW = out.energyJ / *run.durationS;
    out.perOutputTokenJ = out.energyJ / double(*run.outputTokensTotal);
    return out;
}

std::optional<double> llmEnergyPerOutputTokenJ(const data::LlmRun& run,
                                               const data::PowerSeries* log)
{
    if (const auto energy = llmEnergy(run); energy && energy->perOutputTokenJ)
        return energy->perOutputTokenJ;
    if (log)
        if (const auto logged = llmLoggedEnergy(run, *log))
            return logged->perOutputTokenJ;
    return std::nullopt;
}

} // namespace bs::analysis
