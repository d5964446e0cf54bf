#include "fitpredictions.h"

#include "accelpresets.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace bs::cli {

std::vector<FitPredictionRow> fitPredictionRows(const accel::FitResult& fit,
                                                const data::SweepTable& fullSweep,
                                                const std::vector<int>& asked)
{
    // The same run and service-time source as the fit, over every row of the sweep.
    std::map<int, double> measured;
    if (auto all = accel::selectSamples(fullSweep, fit.selection.source, fit.selection.run, 1, {}))
        for (const auto& sample : all->samples)
            measured[sample.batch] = sample.serviceS;
    std::vector<int> batches = asked;
    for (const auto& [batch, serviceS] : measured)
        if (batch > fit.fittedMaxBatch || batch < fit.fittedMinBatch)
            batches.push_back(batch);
    std::sort(batches.begin(), batches.end());
    batches.erase(std::unique(batches.begin(), batches.end()), batches.end());
    std::vector<FitPredictionRow> rows;
    for (int b : batches) {
        FitPredictionRow row{accel::predictService(fit, b), std::nullopt, false};
        if (const auto it = measured.find(b); it != measured.end()) {
            row.measuredS = it->second;
            row.heldOut = row.predicted.extrapolated;
        }
        rows.push_back(row);
    }
    return rows;
}

void printFitPredictions(const accel::FitResult& fit, const std::vector<FitPredictionRow>& rows,
                         CliIo& io)
{
    if (rows.empty())
        return;
    char line[256];
    std::snprintf(line, sizeof line,
                  "\nPredictions (90%% prediction intervals; fitted batch %d-%d)\n",
                  fit.fittedMinBatch, fit.fittedMaxBatch);
    io.out << line;
    std::snprintf(line, sizeof line, "%7s %14s %31s %14s %9s\n", "batch", "predicted",
                  "90% interval", "measured", "error");
    io.out << line;
    for (const auto& row : rows) {
        const auto& p = row.predicted;
        const std::string interval =
            p.hasInterval ? "[" + formatSeconds(p.lowS) + ", " + formatSeconds(p.highS) + "]"
                          : std::string("(none)");
        const std::string measured = row.measuredS ? formatSeconds(*row.measuredS) : "";
        char error[32] = "";
        if (row.measuredS)
            std::snprintf(error, sizeof error, "%+.1f%%",
                          100.0 * (p.serviceS / *row.measuredS - 1.0));
        std::snprintf(line, sizeof line, "%7d %14s %31s %14s %9s%s%s\n", p.batch,
                      formatSeconds(p.serviceS).c_str(), interval.c_str(), measured.c_str(), error,
                      p.extrapolated ? "  extrapolated" : "", row.heldOut ? ", held out" : "");
        io.out << line;
    }
    if (std::any_of(rows.begin(), rows.end(),
                    [](const auto& r) { return r.predicted.extrapolated; }))
        io.out << "warning: predictions outside the fitted batch range assume the model's shape "
                  "holds there; measure one of them before relying on it\n";
    if (!fit.uncertainty.available)
        io.out << "note: no intervals: " << fit.uncertainty.reason << "\n";
}

nlohmann::json fitPredictionsJson(const std::vector<FitPredictionRow>& rows)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& row : rows) {
        const auto& p = row.predicted;
        nlohmann::json entry = {{"batch", p.batch},
                                {"service_s", p.serviceS},
                                {"extrapolated", p.extrapolated},
                                {"level", p.level}};
        if (p.hasInterval)
            entry["interval_s"] = {p.lowS, p.highS};
        if (row.measuredS) {
            entry["measured_s"] = *row.measuredS;
            entry["held_out"] = row.heldOut;
        }
        out.push_back(std::move(entry));
    }
    return out;
}

} // namespace bs::cli
