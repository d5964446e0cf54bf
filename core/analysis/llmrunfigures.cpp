#include "analysis/llmrunfigures.h"

#include "analysis/powerjoin.h"
#include "util/numbertext.h"

#include <algorithm>
#include <limits>
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

Expected<LlmLoggedEnergy> llmLoggedEnergy(const data::LlmRun& run, const data::PowerSeries& log)
{
    const auto refuse = [](const std::string& why) { return makeError(ErrorCode::Value, why); };
    if (!run.originEpochS)
        return refuse("the run has no absolute clock to place it on the power log's time");
    if (!run.durationS || *run.durationS <= 0.0 || !run.outputTokensTotal ||
        *run.outputTokensTotal <= 0)
        return refuse("the run records no duration or no output tokens to charge");
    const EnergyWindow window{"run", *run.originEpochS, *run.originEpochS + *run.durationS,
                              double(*run.outputTokensTotal), kNaN};
    const auto channels = servingChannels(log, window.startS, window.endS);
    if (channels.empty())
        return refuse("no device of the power log is busy inside the run's window");
    // The log must hold the run's GPUs, no fewer and no more: one GPU of a tensor-parallel
    // pair is half the energy, a whole node's log more than the run's.
    const auto gpus = data::llmKnobNumber(
        run, {"hardware.device_count", "engine.tensor_parallel_size", "tensor_parallel_size"});
    if (gpus && std::size_t(*gpus) != channels.size())
        return refuse("the power log's serving devices number " + std::to_string(channels.size()) +
                      ", the run's GPUs " + std::to_string(std::size_t(*gpus)));
    LlmLoggedEnergy out;
    out.fewestReadings = std::numeric_limits<std::uint64_t>::max();
    for (const int channel : channels) {
        PowerJoinOptions options;
        options.channel = log.channel.empty() ? -1 : channel;
        const auto joined = joinPower(log, std::span(&window, 1), options);
        if (!joined)
            return joined.error();
        const auto& charged = joined->windows.front();
        if (!charged.covered)
            return refuse("the power log does not cover the run's whole window");
        out.energyJ += charged.energyJ;
        out.lowJ += charged.lowJ;
        out.highJ += charged.highJ;
        out.fewestReadings = std::min(out.fewestReadings, charged.readings);
    }
    if (out.fewestReadings < kMinLoggedEnergyReadings)
        return refuse("the power log holds " + std::to_string(out.fewestReadings) +
                      " reading(s) of a device inside the run's " + significant(*run.durationS, 3) +
                      " s window; at least " + std::to_string(kMinLoggedEnergyReadings) +
                      " are needed to measure it");
    const double tokens = double(*run.outputTokensTotal);
    out.devices = channels.size();
    out.windowS = *run.durationS;
    out.meanPowerW = out.energyJ / *run.durationS;
    out.perOutputTokenJ = out.energyJ / tokens;
    out.perOutputTokenLowJ = out.lowJ / tokens;
    out.perOutputTokenHighJ = out.highJ / tokens;
    if (run.completed && *run.completed > 0)
        out.perRequestJ = out.energyJ / double(*run.completed);
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
