// A roofline calibrated on a rate-sweep file (README.md: "Calibrating the roofline on a rate
// sweep").
#include "llmsim/rooflinesweepfile.h"

#include "io/readdataset.h"

#include <cstdio>
#include <filesystem>

namespace bs::llmsim {

namespace {

Error inSweepFile(Error error, const std::string& path)
{
    if (error.path.empty())
        error.path = path;
    return error;
}

/// What a calibrated step says it was calibrated on, kept in the scenario and named by the
/// region's evidence: "rate sweep FILE (N rates, log-RMS X)".
std::string calibratedOn(const std::string& sweepPath, const RooflineRateFit& fit)
{
    char figures[96];
    std::snprintf(figures, sizeof figures, " (%zu rates, log-RMS %.3f)", fit.comparisons.size(),
                  fit.logRms);
    return "rate sweep " + std::filesystem::path(sweepPath).filename().string() + figures;
}

} // namespace

Expected<SweepCalibration> calibrateRooflineOnSweepFile(const LlmScenario& scenario,
                                                        const std::string& sweepPath,
                                                        const std::string& baseDirectory,
                                                        CancelToken cancel, Progress& progress)
{
    // The scenario's own faults first: they are not the sweep file's.
    if (auto status = canCalibrateOnRateSweep(scenario); !status)
        return status.error();
    auto dataset = io::readDataset(sweepPath);
    if (!dataset)
        return inSweepFile(dataset.error(), sweepPath);
    const auto runs = dataset->llmRuns();
    if (!runs)
        return makeError(ErrorCode::Value, sweepPath, 0, 0,
                         "not an LLM benchmark file (vLLM, SGLang, ... one run per request "
                         "rate); read as " +
                             dataset->provenance.reader);
    SweepCalibration out;
    out.sweepPath = sweepPath;
    const auto points = rateSweepPoints(*runs, scenario, out.omitted);
    auto fit = fitRooflineOnRateSweep(scenario, points, baseDirectory, std::move(cancel), progress);
    if (!fit && points.size() < 2) {
        // Too few runs is the file's fault; say which were left out and why.
        Error error = inSweepFile(fit.error(), sweepPath);
        for (const auto& o : out.omitted)
            error.message += "; left out " + o.label + ": " + o.reason;
        return error;
    }
    if (!fit)
        return fit.error(); // a simulation of the scenario failed
    out.fit = std::move(*fit);
    out.fit.step.calibratedOn = calibratedOn(sweepPath, out.fit);
    return out;
}

} // namespace bs::llmsim
