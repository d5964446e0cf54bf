#include "accel/presetlibrary.h"
#include "analysis/analysisjson.h"
#include "analysis/llmrunanalysis.h"
#include "analysis/llmruncompare.h"
#include "analysissummary.h"
#include "commands.h"
#include "io/llmrunsummary.h"
#include "io/readdataset.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>
#include <sstream>

namespace bs::cli {

namespace {

using nlohmann::json;

struct AnalyzeOptions
{
    double windowS = 0.0;
    std::optional<double> utcOffsetS;
    double clockOffsetS = 0.0;
    analysis::RequestAnalysisOptions requests;
    analysis::KernelAnalysisOptions kernels;
    /// Thermal RC of --accelerator: power logs are checked against it.
    std::optional<accel::ThermalSpec> thermalModel;
    analysis::LlmSla llmSla; ///< LLM runs: goodput is judged against it.
    /// LLM runs: energy is charged from the first power log among the inputs.
    analysis::LlmPowerLog llmPower;
};

std::vector<std::string> splitList(const std::string& text)
{
    std::vector<std::string> out;
    std::string item;
    std::istringstream in(text);
    while (std::getline(in, item, ','))
        if (!item.empty())
            out.push_back(item);
    return out;
}

Expected<AnalyzeOptions> parseOptions(const ParsedArgs& args)
{
    AnalyzeOptions o;
    auto window = numberOption(args, "--window-s", 0.0);
    auto items = numberOption(args, "--items-per-step", 0.0);
    auto rate = numberOption(args, "--claimed-rate", 0.0);
    auto clock = numberOption(args, "--clock-offset-s", 0.0);
    for (const auto* e : {&window, &items, &rate, &clock}) {
        if (!*e)
            return e->error();
    }
    if (*window < 0.0 || *items < 0.0 || *rate < 0.0)
        return makeError(ErrorCode::Usage,
                         "--window-s, --items-per-step and --claimed-rate must not be negative");
    o.windowS = *window;
    o.clockOffsetS = *clock;
    o.requests.windowS = *window;
    if (*rate > 0.0)
        o.requests.claimedRatePerS = *rate;
    o.kernels.itemsPerStep = *items;
    o.kernels.stepAnnotation = args.value("--step-annotation").value_or("");
    if (const auto names = args.value("--fallback-names"))
        o.kernels.fallbackNames = splitList(*names);
    if (args.has("--utc-offset-s")) {
        auto offset = numberOption(args, "--utc-offset-s", 0.0);
        if (!offset)
            return offset.error();
        o.utcOffsetS = *offset;
    }
    for (const auto& [flag, limit] : {std::pair{"--ttft-sla-ms", &o.llmSla.ttftS},
                                      std::pair{"--tpot-sla-ms", &o.llmSla.tpotS}}) {
        if (!args.has(flag))
            continue;
        auto ms = numberOption(args, flag, 0.0);
        if (!ms)
            return ms.error();
        if (!(*ms > 0.0))
            return makeError(ErrorCode::Usage, std::string(flag) + " must be above zero");
        *limit = *ms * 1e-3;
    }
    if (const auto name = args.value("--accelerator")) {
        auto spec = accel::PresetLibrary::builtIn().accelerator(*name);
        if (!spec)
            return makeError(ErrorCode::Usage, "--accelerator: " + spec.error().message);
        o.thermalModel = spec->thermal;
    }
    return o;
}

/// Reads a file; nvidia-smi logs get the clock offset when one was given.
Expected<data::Dataset> readInput(const std::string& path, const AnalyzeOptions& o)
{
    io::ReadOptions read;
    if (o.utcOffsetS) {
        auto detected = io::detectFormat(path);
        if (detected && detected->reader == "nvidia_smi")
            read.readerOptions = {{"utc_offset_s", *o.utcOffsetS}};
    }
    auto dataset = io::readDataset(path, read);
    if (!dataset) {
        Error e = dataset.error();
        if (e.path.empty())
            e.path = path;
        return e;
    }
    return dataset;
}

struct Loaded
{
    std::string path;
    data::Dataset dataset;
    std::optional<analysis::RequestAnalysis> requests;
    std::optional<analysis::KernelAnalysis> kernels;
};

Error withPath(Error e, const std::string& path)
{
    if (e.path.empty())
        e.path = path;
    return e;
}

/// The runs with --clock-offset-s added to their absolute clocks.
data::LlmRunSet onUnixClock(data::LlmRunSet runs, const AnalyzeOptions& o)
{
    for (auto& run : runs.runs)
        if (run.originEpochS)
            *run.originEpochS += o.clockOffsetS;
    return runs;
}

/// Analyses one dataset by kind; the JSON entry goes to `inputs`.
Status analyseOne(Loaded& l, const AnalyzeOptions& o, json& inputs)
{
    json entry = {{"path", l.path},
                  {"reader", l.dataset.provenance.reader},
                  {"dataset_kind", data::datasetKindName(l.dataset.kind)}};
    if (auto trace = l.dataset.requestTrace()) {
        auto r = analysis::analyzeRequests(*trace, o.requests);
        if (!r)
            return withPath(r.error(), l.path);
        entry["analysis"] = analysis::toJson(*r);
        l.requests = std::move(*r);
    } else if (auto kernels = l.dataset.kernelTrace()) {
        auto k = analysis::analyzeKernels(*kernels, o.kernels);
        if (!k)
            return withPath(k.error(), l.path);
        entry["analysis"] = analysis::toJson(*k);
        l.kernels = std::move(*k);
    } else if (auto sweep = l.dataset.sweep()) {
        entry["analysis"] = analysis::toJson(analysis::sweepConfidence(*sweep));
    } else if (auto runs = l.dataset.llmRuns()) {
        entry["analysis"] = analysis::toJson(
            analysis::analyzeLlmRuns(onUnixClock(*runs, o), o.llmSla, o.llmPower), o.llmSla);
        // The engine's batching limits the run was measured under, beside its figures.
        for (std::size_t i = 0; i < runs->runs.size(); ++i) {
            auto batching = io::llmBatchingKnobs(runs->runs[i]);
            if (!batching.empty())
                entry["analysis"]["runs"][i]["batching"] = std::move(batching);
        }
    } else if (auto power = l.dataset.powerSeries()) {
        entry["analysis"] = {{"kind", "power_series"},
                             {"readings", power->size()},
                             {"reading_window_s", power->readingWindowS}};
    }
    inputs.push_back(std::move(entry));
    return {};
}

json tailDriversJson(const std::vector<Loaded>& loaded)
{
    const analysis::KernelAnalysis* kernels = nullptr;
    for (const auto& l : loaded) {
        if (l.kernels && l.kernels->deviceActivity && !kernels)
            kernels = &*l.kernels;
    }
    json out = json::array();
    bool anyRequests = false;
    for (const auto& l : loaded) {
        if (!l.requests)
            continue;
        anyRequests = true;
        json d = analysis::toJson(analysis::tailDrivers(&*l.requests, kernels));
        d["input"] = l.path;
        out.push_back(std::move(d));
    }
    if (!anyRequests) {
        for (const auto& l : loaded) {
            if (!l.kernels)
                continue;
            json d = analysis::toJson(analysis::tailDriversFromSteps(*l.kernels));
            d["input"] = l.path;
            out.push_back(std::move(d));
        }
    }
    return out;
}

/// Energy windows of the traces that carry absolute time: a request trace's span (per request),
/// and each kernel-trace step (per step, and per item with --items-per-step). LLM runs are charged
/// in their own analysis (analysis::llmLoggedEnergy), as the playbook charges them.
std::vector<analysis::EnergyWindow> energyWindows(const std::vector<Loaded>& loaded,
                                                  const AnalyzeOptions& o,
                                                  std::vector<double>& completions)
{
    std::vector<analysis::EnergyWindow> windows;
    for (const auto& l : loaded) {
        if (l.requests && l.requests->originEpochS != 0.0) {
            const auto trace = l.dataset.requestTrace();
            const double origin = trace->originEpochS;
            for (double c : trace->completionS)
                completions.push_back(origin + c);
            windows.push_back({l.path + " (whole trace)", origin + l.requests->firstArrivalS,
                               origin + l.requests->firstArrivalS + l.requests->spanS,
                               double(std::max<std::uint64_t>(l.requests->completed, 1)),
                               analysis::kNaN});
        }
        if (l.kernels) {
            const double origin = l.dataset.kernelTrace()->originUs * 1e-6 + o.clockOffsetS;
            for (const auto& s : l.kernels->steps) {
                const double items = o.kernels.itemsPerStep > 0.0 ? o.kernels.itemsPerStep : 1.0;
                windows.push_back({l.path + ": " + s.name, origin + s.startS,
                                   origin + s.startS + s.wallS, items, analysis::kNaN});
            }
        }
    }
    return windows;
}

json powerJson(const std::vector<Loaded>& loaded, const AnalyzeOptions& o)
{
    json out = json::array();
    std::vector<double> completions;
    const auto windows = energyWindows(loaded, o, completions);
    for (const auto& l : loaded) {
        const auto power = l.dataset.powerSeries();
        if (!power)
            continue;
        json entry = {{"input", l.path}};
        if (auto thermal = analysis::thermalEvidence(*power, completions, o.windowS))
            entry["thermal"] = analysis::toJson(*thermal);
        else
            entry["thermal"] = {{"available", false}, {"reason", thermal.error().message}};
        if (o.thermalModel) {
            if (auto check = analysis::checkThermalModel(*power, *o.thermalModel))
                entry["thermal_model"] = analysis::toJson(*check);
            else
                entry["thermal_model"] = {{"available", false}, {"reason", check.error().message}};
        }
        if (!windows.empty()) {
            if (auto join = analysis::joinPower(*power, windows))
                entry["energy"] = analysis::toJson(*join);
            else
                entry["energy"] = {{"error", join.error().message}};
        }
        out.push_back(std::move(entry));
    }
    return out;
}

int runAnalyze(const ParsedArgs& args, CliIo& io)
{
    if (args.positionals.empty())
        return reportError(makeError(ErrorCode::Usage, "usage: batchscope-cli analyze FILE... "
                                                       "[--window-s W] [--json]"),
                           args, io);
    auto options = parseOptions(args);
    if (!options)
        return reportError(options.error(), args, io);
    std::vector<Loaded> loaded;
    for (const auto& path : args.positionals) {
        auto dataset = readInput(path, *options);
        if (!dataset)
            return reportError(dataset.error(), args, io);
        loaded.push_back({path, std::move(*dataset), std::nullopt, std::nullopt});
    }
    for (const auto& l : loaded) {
        if (const auto power = l.dataset.powerSeries()) {
            options->llmPower = {power.get(), l.path};
            break;
        }
    }
    json inputs = json::array();
    for (auto& l : loaded) {
        if (auto status = analyseOne(l, *options, inputs); !status)
            return reportError(status.error(), args, io);
    }
    json out = {{"kind", "batchscope.analysis"},
                {"schema", 1},
                {"window_s", options->windowS},
                {"inputs", inputs},
                {"tail_drivers", tailDriversJson(loaded)},
                {"power", powerJson(loaded, *options)}};
    // Two LLM benchmarks (two configurations, before and after a change): point by point.
    if (loaded.size() == 2 && loaded[0].dataset.llmRuns() && loaded[1].dataset.llmRuns())
        out["llm_comparison"] = analysis::toJson(analysis::compareLlmRuns(
            *loaded[0].dataset.llmRuns(), *loaded[1].dataset.llmRuns(), options->llmSla));
    if (args.json())
        io.out << out.dump(2) << '\n';
    else
        io.out << formatAnalysisSummary(out);
    return kExitOk;
}

} // namespace

CommandSpec analyzeCommand()
{
    return {
        "analyze",
        "analyze FILE... [--window-s W] [--step-annotation TEXT] [--items-per-step N] "
        "[--claimed-rate R] [--fallback-names A,B] [--utc-offset-s S] [--clock-offset-s S] "
        "[--accelerator NAME] [--ttft-sla-ms MS] [--tpot-sla-ms MS]",
        "Trace analytics: tail percentiles with confidence, fairness, arrivals, kernel "
        "breakdown, tail drivers, energy.",
        "Reads every FILE (any format the importers know) and prints the artifacts a review asks\n"
        "for. Request traces: latency and queue-wait percentiles with exact 95% order-statistic\n"
        "intervals and an 'insufficient samples' flag, percentiles and throughput over time,\n"
        "tail decomposition, batches, per-stream p99 and Jain's fairness, coordinated omission,\n"
        "and the fitted arrival model as a simulator 'arrivals' object. Kernel traces: per-step\n"
        "busy/idle, kernel time by class, launch overhead, host gaps, per-device and per-stream\n"
        "use, top kernels and mapping fallback. Sweeps: which reported percentiles their sample\n"
        "counts can support. Power logs: clock/temperature evidence aligned with throughput, and\n"
        "energy per request or step with an uncertainty band, and with --accelerator whether the\n"
        "logged temperature follows that preset's thermal model. Tail drivers combine the request\n"
        "and kernel traces. LLM serving runs: exact TTFT/TPOT/ITL/E2E percentiles, mean requests\n"
        "in flight by Little's law against the engine's own counts, goodput under\n"
        "--ttft-sla-ms/--tpot-sla-ms, energy per output token from GPU telemetry and from the\n"
        "first power log given, for a run whose file records Unix time (engine request logs,\n"
        "AIPerf records), with its band and the reason when the log cannot charge it; two LLM "
        "files are compared point by point (runs paired by request rate, else\n"
        "concurrency), every p50/p90/p99 with both intervals and whether they overlap.\n"
        "With --json, the analyses name their methods (\"method\").",
        {{"--window-s", "W", "time-series window in seconds (default: about 100 windows)"},
         {"--step-annotation", "TEXT", "kernel-trace steps: annotations containing TEXT"},
         {"--items-per-step", "N", "items (batch size) per step, for kernels/launches per item"},
         {"--claimed-rate", "R", "fixed offered rate (req/s) for the coordinated-omission check"},
         {"--fallback-names", "A,B", "kernel or CPU op names to count as mapping fallback"},
         {"--utc-offset-s", "S", "clock offset of nvidia-smi timestamps from UTC (e.g. -18000)"},
         {"--clock-offset-s", "S",
          "seconds to add to kernel-trace and LLM-run times to reach Unix time"},
         {"--accelerator", "NAME", "preset whose thermal RC the power logs are checked against"},
         {"--ttft-sla-ms", "MS", "LLM runs: TTFT limit of the SLA goodput is judged against"},
         {"--tpot-sla-ms", "MS", "LLM runs: TPOT limit of the SLA goodput is judged against"}},
        &runAnalyze};
}

} // namespace bs::cli
