#include "analysis/llmrunanalysis.h"

#include "analysis/analysisjson.h"
#include "io/jsonfields.h"

#include <algorithm>

namespace bs::analysis {

namespace {

Distribution describe(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return describeSorted(values);
}

void chargeFromPowerLog(LlmRunAnalysis& a, const data::LlmRun& run, const LlmPowerLog& power)
{
    if (!power.series)
        return;
    a.powerLog = power.name;
    if (auto logged = llmLoggedEnergy(run, *power.series))
        a.loggedEnergy = *logged;
    else
        a.loggedEnergyReason = logged.error().message;
}

LlmRunAnalysis analyzeRun(const data::LlmRun& run, const LlmSla& sla, const LlmPowerLog& power)
{
    LlmRunAnalysis a;
    a.tool = run.tool;
    a.simulatedBy = data::llmKnob(run, {"simulated_by"});
    a.line = run.line;
    a.testName = data::llmKnob(run, {"test_name"});
    a.requests = run.requests.size();
    a.requestRatePerS = run.requestRatePerS;
    a.completed = run.completed;
    a.outputTokensPerS = run.outputTokensPerS;
    a.promptTokensPerS = run.promptTokensPerS;
    for (const auto& [name, metric] : run.metrics) {
        if (const auto p99 = metric.percentileS.find("99"); p99 != metric.percentileS.end())
            a.reportedP99S[name] = p99->second;
    }
    a.inFlight = llmInFlight(run);
    a.goodput = llmGoodput(run, sla);
    a.energy = llmEnergy(run);
    chargeFromPowerLog(a, run, power);
    std::vector<double> ttft, tpot, e2e, itl;
    for (const auto& r : run.requests) {
        if (!r.ok) {
            ++a.failed;
            continue;
        }
        if (r.ttftS)
            ttft.push_back(*r.ttftS);
        if (r.tpotS)
            tpot.push_back(*r.tpotS);
        if (r.e2eS)
            e2e.push_back(*r.e2eS);
        itl.insert(itl.end(), r.itlS.begin(), r.itlS.end());
    }
    a.ttft = describe(std::move(ttft));
    a.tpot = describe(std::move(tpot));
    a.e2e = describe(std::move(e2e));
    a.itl = describe(std::move(itl));
    return a;
}

} // namespace

std::vector<LlmRunAnalysis> analyzeLlmRuns(const data::LlmRunSet& set, const LlmSla& sla,
                                           const LlmPowerLog& power)
{
    std::vector<LlmRunAnalysis> out;
    for (const auto& run : set.runs)
        out.push_back(analyzeRun(run, sla, power));
    return out;
}

namespace {

using io::putOptional;

nlohmann::json inFlightJson(const LlmInFlight& f)
{
    nlohmann::json out = nlohmann::json::object();
    putOptional(out, "from_requests", f.fromRequests);
    putOptional(out, "window_s", f.windowS);
    putOptional(out, "from_engine_series", f.fromEngineSeries);
    putOptional(out, "running_from_engine_series", f.runningFromEngineSeries);
    putOptional(out, "relative_difference", f.relativeDifference);
    out["definition"] = "Little's law: sum of E2E / (first arrival -> last token); engine "
                        "series: mean of running + waiting over its samples";
    return out;
}

nlohmann::json goodputJson(const LlmGoodput& g, const LlmSla& sla)
{
    nlohmann::json out = {{"judged", g.judged},
                          {"good", g.good},
                          {"duration_s", g.durationS},
                          {"good_per_s", g.perS}};
    putOptional(out, "ttft_limit_s", sla.ttftS);
    putOptional(out, "tpot_limit_s", sla.tpotS);
    return out;
}

nlohmann::json energyJson(const LlmEnergy& e)
{
    nlohmann::json out = {{"serving_gpus", e.servingGpus}, {"serving_power_w", e.servingPowerW}};
    putOptional(out, "per_output_token_j", e.perOutputTokenJ);
    putOptional(out, "per_request_j", e.perRequestJ);
    out["definition"] = "mean power of the GPUs with utilisation above zero / output token (or "
                        "request) rate";
    return out;
}

nlohmann::json loggedEnergyJson(const LlmRunAnalysis& a)
{
    nlohmann::json out = {{"power_log", a.powerLog}};
    if (!a.loggedEnergy) {
        out["available"] = false;
        out["reason"] = a.loggedEnergyReason;
        return out;
    }
    const auto& e = *a.loggedEnergy;
    out["available"] = true;
    out["energy_j"] = e.energyJ;
    out["band_j"] = {e.lowJ, e.highJ};
    out["per_output_token_j"] = e.perOutputTokenJ;
    out["per_output_token_band_j"] = {e.perOutputTokenLowJ, e.perOutputTokenHighJ};
    putOptional(out, "per_request_j", e.perRequestJ);
    out["mean_power_w"] = e.meanPowerW;
    out["window_s"] = e.windowS;
    out["devices"] = e.devices;
    out["fewest_readings"] = e.fewestReadings;
    out["definition"] = "power of the devices busy in the run's window, integrated from its "
                        "first arrival to its last token / output tokens (or completed requests)";
    return out;
}

} // namespace

nlohmann::json toJson(const std::vector<LlmRunAnalysis>& runs, const LlmSla& sla)
{
    constexpr double kMsPerS = 1e3;
    nlohmann::json list = nlohmann::json::array();
    for (const auto& a : runs) {
        nlohmann::json r = {
            {"tool", a.tool}, {"line", a.line}, {"requests", a.requests}, {"failed", a.failed}};
        if (!a.testName.empty())
            r["test_name"] = a.testName;
        if (!a.simulatedBy.empty())
            r["simulated_by"] = a.simulatedBy;
        if (a.requestRatePerS)
            r["request_rate_per_s"] = *a.requestRatePerS;
        if (a.completed)
            r["completed"] = *a.completed;
        if (a.outputTokensPerS)
            r["output_tokens_per_s"] = *a.outputTokensPerS;
        putOptional(r, "prompt_tokens_per_s", a.promptTokensPerS);
        for (const auto& [name, seconds] : a.reportedP99S)
            r["reported_p99_ms"][name] = seconds * kMsPerS;
        if (a.inFlight.fromRequests || a.inFlight.fromEngineSeries)
            r["in_flight"] = inFlightJson(a.inFlight);
        if (a.goodput)
            r["goodput"] = goodputJson(*a.goodput, sla);
        if (a.energy)
            r["energy"] = energyJson(*a.energy);
        if (a.loggedEnergy || !a.loggedEnergyReason.empty())
            r["logged_energy"] = loggedEnergyJson(a);
        for (const auto& [name, d] : {std::pair{"ttft", &a.ttft}, std::pair{"tpot", &a.tpot},
                                      std::pair{"itl", &a.itl}, std::pair{"e2e", &a.e2e}}) {
            if (d->count > 0)
                r[name] = toJson(*d, "ms", kMsPerS);
        }
        list.push_back(std::move(r));
    }
    return {{"kind", "llm_runs"}, {"runs", list}};
}

} // namespace bs::analysis
