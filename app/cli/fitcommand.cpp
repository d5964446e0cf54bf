#include "accel/calibration.h"
#include "accel/fitreport.h"
#include "accelpresets.h"
#include "commands.h"
#include "fitpredictions.h"
#include "io/readdataset.h"
#include "readoptions.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

namespace bs::cli {

namespace {

/// The default precision when none is named: the workload's, else the device's 16-bit format.
accel::Precision defaultPrecision(const accel::ModelParams& start, bool workloadKnown)
{
    if (workloadKnown)
        return start.workload.defaultPrecision;
    for (auto p : {accel::Precision::Bf16, accel::Precision::Fp16, accel::Precision::Int8}) {
        if (start.accelerator.peakFlopsPerS.empty() || start.accelerator.peak(p))
            return p;
    }
    return start.accelerator.peakFlopsPerS.begin()->first;
}

Expected<accel::ServiceTimeSource> serviceTimeOption(const ParsedArgs& args)
{
    const std::string text = args.value("--service-time").value_or("auto");
    const std::pair<const char*, accel::ServiceTimeSource> choices[] = {
        {"auto", accel::ServiceTimeSource::Auto},
        {"mean", accel::ServiceTimeSource::MeanLatency},
        {"p50", accel::ServiceTimeSource::P50Latency},
        {"throughput", accel::ServiceTimeSource::Throughput}};
    for (const auto& [name, source] : choices) {
        if (text == name)
            return source;
    }
    return makeError(ErrorCode::Usage,
                     "--service-time: '" + text + "' is not one of auto, mean, p50, throughput");
}

Expected<accel::FitOptions> fitOptions(const ParsedArgs& args, const accel::PresetLibrary& lib)
{
    accel::FitOptions options;
    if (const auto name = args.value("--accelerator")) {
        auto spec = lib.accelerator(*name);
        if (!spec)
            return makeError(ErrorCode::Value, "--accelerator: " + spec.error().message);
        options.start.accelerator = *spec;
    }
    if (const auto name = args.value("--workload")) {
        auto spec = lib.workload(*name);
        if (!spec)
            return makeError(ErrorCode::Value, "--workload: " + spec.error().message);
        options.start.workload = *spec;
        options.workloadKnown = true;
    }
    options.start.precision = defaultPrecision(options.start, options.workloadKnown);
    if (const auto text = args.value("--precision")) {
        const auto precision = accel::parsePrecision(*text);
        if (!precision) {
            return makeError(ErrorCode::Usage, "--precision: unknown precision '" + *text +
                                                   "'; expected one of: " + accel::precisionList());
        }
        options.start.precision = *precision;
    }
    auto run = numberOption(args, "--run", 0.0);
    if (!run)
        return run.error();
    if (*run < 0.0 || *run != std::floor(*run))
        return makeError(ErrorCode::Usage, "--run: must be a whole number ≥ 1");
    options.run = int(*run);
    auto source = serviceTimeOption(args);
    if (!source)
        return source.error();
    options.serviceTime = *source;
    if (args.has("--absolute"))
        options.weighting = accel::Weighting::Absolute;
    if (args.has("--hard-max"))
        options.fitSmoothMax = false;
    return options;
}

std::string valueText(const accel::FittedParameter& p, double v)
{
    if (!std::isfinite(v))
        return "-";
    if (p.unit == "s" || p.unit == "s/item")
        return formatSeconds(v) + (p.unit == "s/item" ? "/item" : "");
    char text[32];
    std::snprintf(text, sizeof text, "%.4g%s%s", v, p.unit.empty() ? "" : " ", p.unit.c_str());
    return text;
}

/// --predict: whole batch sizes from 1 to 10^7.
Expected<std::vector<int>> predictBatches(const ParsedArgs& args)
{
    auto numbers = numberListOption(args, "--predict");
    if (!numbers)
        return numbers.error();
    std::vector<int> out;
    for (double v : *numbers) {
        if (v < 1.0 || v > 1e7 || v != std::floor(v))
            return makeError(ErrorCode::Usage, "--predict: expected whole batch sizes from 1 to "
                                               "10000000");
        out.push_back(int(v));
    }
    return out;
}

void printFit(const accel::FitResult& r, const std::string& path, CliIo& io)
{
    char line[256];
    io.out << "Fit of " << path << " (run " << r.selection.run << " of " << r.selection.runCount
           << ", rows " << r.selection.firstRow << "-" << r.selection.lastRow << ")\n";
    io.out << "Accelerator " << r.params.accelerator.name << ", workload "
           << (r.workloadKnown ? r.params.workload.name : "unknown (time terms fitted)") << ", "
           << accel::precisionName(r.params.precision) << "\n\n";
    std::snprintf(line, sizeof line, "%-24s %18s %18s\n", "parameter", "value", "± 1σ");
    io.out << line;
    for (const auto& p : r.parameters) {
        const std::string value = std::isinf(p.value) ? accel::parameterValueText(p.value, p.unit)
                                                      : valueText(p, p.value);
        std::snprintf(line, sizeof line, "%-24s %18s %18s%s\n", p.name.c_str(), value.c_str(),
                      p.fixed ? "fixed" : valueText(p, p.uncertainty).c_str(),
                      p.fixed     ? "  (prior: the sweep cannot pin it)"
                      : p.atBound ? "  (at bound)"
                                  : "");
        io.out << line;
    }
    std::snprintf(line, sizeof line, "\n%7s %14s %14s %10s\n", "batch", "measured", "fitted",
                  "residual");
    io.out << line;
    for (const auto& p : r.points) {
        std::snprintf(line, sizeof line, "%7d %14s %14s %+9.2f%%\n", p.batch,
                      formatSeconds(p.measuredS).c_str(), formatSeconds(p.fittedS).c_str(),
                      100.0 * p.relativeResidual);
        io.out << line;
    }
    std::snprintf(line, sizeof line,
                  "\nR² = %.5f; max |relative residual| %.2f%%; crossover b* = %.1f\n", r.rSquared,
                  100.0 * r.maxRelativeResidual, r.crossoverBatch);
    io.out << line;
    if (r.rSquaredPower) {
        std::snprintf(line, sizeof line, "power R² = %.5f\n", *r.rSquaredPower);
        io.out << line;
    }
    io.out << "\n";
    for (const auto& text : accel::identifiabilityLines(r))
        io.out << text << "\n";
    for (const auto& w : r.warnings)
        io.out << "warning: " << w << "\n";
    for (const auto& n : r.notes)
        io.out << "note: " << n << "\n";
}

int runFit(const ParsedArgs& args, CliIo& io)
{
    if (args.positionals.size() != 1) {
        return reportError(makeError(ErrorCode::Usage, "usage: batchscope-cli fit SWEEP_FILE "
                                                       "[--accelerator NAME] [--workload NAME]"),
                           args, io);
    }
    const std::string& path = args.positionals[0];
    auto library = cliPresetLibrary(args);
    if (!library)
        return reportError(library.error(), args, io);
    auto options = fitOptions(args, *library);
    if (!options)
        return reportError(options.error(), args, io);
    options->path = path;
    const auto readOptions = readOptionsFromArgs(args);
    if (!readOptions)
        return reportError(readOptions.error(), args, io);
    auto dataset = io::readDataset(path, *readOptions);
    if (!dataset)
        return reportError(dataset.error(), args, io);
    const auto sweep = dataset->sweep();
    if (!sweep) {
        return reportError(makeError(ErrorCode::Value, path, 0, 0,
                                     std::string("holds a ") +
                                         data::datasetKindName(dataset->kind) +
                                         ", not a batch sweep"),
                           args, io);
    }
    auto fitMaxBatch = wholeNumberOption(args, "--fit-max-batch", 1, 10'000'000);
    if (!fitMaxBatch)
        return reportError(fitMaxBatch.error(), args, io);
    auto asked = predictBatches(args);
    if (!asked)
        return reportError(asked.error(), args, io);
    data::SweepTable fitted = *sweep;
    if (*fitMaxBatch)
        std::erase_if(fitted.points, [&](const data::SweepPoint& p) {
            return std::uint64_t(p.batchSize) > **fitMaxBatch;
        });
    auto fit = accel::fitToSweep(fitted, *options);
    if (!fit)
        return reportError(fit.error(), args, io);
    const auto predictions = fitPredictionRows(*fit, *sweep, *asked);
    if (args.json()) {
        nlohmann::json out = accel::toJson(*fit);
        out["predictions"] = fitPredictionsJson(predictions);
        io.out << out.dump(2) << '\n';
    } else {
        printFit(*fit, path, io);
        printFitPredictions(*fit, predictions, io);
    }
    return kExitOk;
}

} // namespace

CommandSpec fitCommand()
{
    return {
        "fit",
        "fit SWEEP_FILE [--accelerator NAME] [--workload NAME] [--precision P] [--run N]",
        "Calibrate the accelerator model to a measured batch sweep.",
        "Bounded, weighted Levenberg-Marquardt on the service time t(b) (and power, when the\n"
        "sweep has it). With --workload the fit finds host overhead, eta_compute, eta_memory\n"
        "and the smooth-max exponent; without, the workload's time terms. Each parameter comes\n"
        "with a 1-sigma uncertainty; a warning says when the model does not explain the data\n"
        "(a residual over 10% or a systematic residual pattern). With power readings the\n"
        "idle and peak power and the memory-activity factor are fitted too. An identifiability\n"
        "report says which parameters the sweep cannot pin (an ill-conditioned normal matrix,\n"
        "or a relative standard error over 100%): each is held at its prior (the preset's\n"
        "value, else the fit's starting value), the rest fitted again, and the report says\n"
        "why, with the figure, and where the value comes from.",
        {{"--accelerator", "NAME", "accelerator preset the sweep ran on"},
         {"--workload", "NAME", "workload preset that ran (default: unknown, fit time terms)"},
         {"--precision", "P", "precision that ran (default: the workload's, else bf16/fp16)"},
         {"--run", "N", "which run of a file holding several (default: the longest)"},
         {"--service-time", "SRC", "auto, mean, p50 or throughput (default auto)"},
         {"--absolute", {}, "weight residuals in seconds instead of relative"},
         {"--hard-max", {}, "keep a hard max of compute and memory time (do not fit p)"},
         {"--fit-max-batch", "N",
          "fit only rows up to batch N; the rest are predicted beside their measurement"},
         {"--predict", "LIST", "batch sizes to predict, with 90% prediction intervals"},
         {"--format", "READER", "force a reader instead of detecting the format"},
         readerOptionsOption(),
         presetsOption()},
        &runFit};
}

} // namespace bs::cli
