// simulate --fit-roofline: the roofline step calibrated on a measured rate sweep
// (core/llmsim/README.md, "Calibrating the roofline on a rate sweep").
#include "rooflinefitoption.h"

#include <cmath>
#include <cstdio>

namespace bs::cli {

namespace {

std::string pair(double measured, double simulated)
{
    char text[64];
    if (!std::isfinite(measured))
        std::snprintf(text, sizeof text, "%9s / %9.1f", "-", simulated);
    else
        std::snprintf(text, sizeof text, "%9.1f / %9.1f", measured, simulated);
    return text;
}

nlohmann::json figuresJson(const llmsim::RateSweepFigures& f)
{
    const auto value = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nullptr; };
    return {{"ttft_p50_ms", value(f.ttftP50Ms)},
            {"itl_p50_ms", value(f.itlP50Ms)},
            {"e2e_mean_ms", value(f.e2eMeanMs)},
            {"output_tokens_per_s", value(f.outputTokensPerS)}};
}

} // namespace

Expected<std::optional<RooflineFitApplied>> applyRooflineFit(const ParsedArgs& args,
                                                             llmsim::LlmScenario& scenario,
                                                             const std::string& scenarioPath,
                                                             const std::string& baseDirectory)
{
    const auto sweepPath = args.value("--fit-roofline");
    if (!sweepPath)
        return std::optional<RooflineFitApplied>();
    auto calibration = llmsim::calibrateRooflineOnSweepFile(scenario, *sweepPath, baseDirectory);
    if (!calibration) {
        Error error = calibration.error();
        error.message = "--fit-roofline: " + error.message;
        if (error.path.empty()) // about the scenario, not the sweep
            error.path = scenarioPath;
        return error;
    }
    scenario.step = calibration->fit.step;
    return std::optional<RooflineFitApplied>(std::move(*calibration));
}

std::string rooflineFitText(const RooflineFitApplied& applied)
{
    const auto& fit = applied.fit;
    char line[512];
    std::snprintf(line, sizeof line,
                  "Roofline calibrated on %s (%zu runs, %d sweeps simulated): eta_compute %.3g -> "
                  "%.3g, eta_memory %.3g -> %.3g, overhead_per_seq_ms %.3g -> %.3g, "
                  "client_overhead_ms %.3g -> %.3g; log-RMS of the figures %.3f stated -> %.3f "
                  "fitted\n",
                  applied.sweepPath.c_str(), fit.comparisons.size(), fit.evaluations,
                  fit.statedEtaCompute, fit.step.accelerator.etaCompute, fit.statedEtaMemory,
                  fit.step.accelerator.etaMemory, fit.statedPerSeqMs, fit.step.overheadPerSeqMs,
                  fit.statedClientMs, fit.step.clientOverheadMs, fit.statedLogRms, fit.logRms);
    std::string out = line;
    std::snprintf(line, sizeof line, "  %-22s %21s %21s %21s %21s\n", "run (measured / fitted)",
                  "TTFT p50 ms", "ITL p50 ms", "E2E mean ms", "output tokens/s");
    out += line;
    for (const auto& c : fit.comparisons) {
        const auto& m = c.point.measured;
        const auto& s = c.simulated;
        std::snprintf(line, sizeof line, "  %-22s %21s %21s %21s %21s\n", c.point.label.c_str(),
                      pair(m.ttftP50Ms, s.ttftP50Ms).c_str(), pair(m.itlP50Ms, s.itlP50Ms).c_str(),
                      pair(m.e2eMeanMs, s.e2eMeanMs).c_str(),
                      pair(m.outputTokensPerS, s.outputTokensPerS).c_str());
        out += line;
    }
    for (const auto& o : applied.omitted)
        out += "  left out " + o.label + ": " + o.reason + "\n";
    for (const auto& w : fit.warnings)
        out += "  warning: " + w + "\n";
    return out;
}

nlohmann::json rooflineFitJson(const RooflineFitApplied& applied)
{
    const auto& fit = applied.fit;
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& c : fit.comparisons)
        runs.push_back({{"run", c.point.label},
                        {"rate_per_s", c.point.ratePerS},
                        {"requests", c.point.requests},
                        {"measured", figuresJson(c.point.measured)},
                        {"simulated", figuresJson(c.simulated)}});
    nlohmann::json omitted = nlohmann::json::array();
    for (const auto& o : applied.omitted)
        omitted.push_back({{"run", o.label}, {"reason", o.reason}});
    return {{"sweep", applied.sweepPath},
            {"method", "rate_sweep_nelder_mead_soft_l1"},
            {"eta_compute", fit.step.accelerator.etaCompute},
            {"eta_memory", fit.step.accelerator.etaMemory},
            {"stated_eta_compute", fit.statedEtaCompute},
            {"stated_eta_memory", fit.statedEtaMemory},
            {"eta_compute_pinned", fit.etaComputePinned},
            {"eta_memory_pinned", fit.etaMemoryPinned},
            {"overhead_per_seq_ms", fit.step.overheadPerSeqMs},
            {"stated_overhead_per_seq_ms", fit.statedPerSeqMs},
            {"overhead_per_seq_ms_pinned", fit.perSeqPinned},
            {"client_overhead_ms", fit.step.clientOverheadMs},
            {"stated_client_overhead_ms", fit.statedClientMs},
            {"client_overhead_ms_pinned", fit.clientPinned},
            {"log_rms", fit.logRms},
            {"stated_log_rms", fit.statedLogRms},
            {"sweeps_simulated", fit.evaluations},
            {"runs", runs},
            {"left_out", omitted},
            {"warnings", fit.warnings}};
}

} // namespace bs::cli
