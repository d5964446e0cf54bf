#include "commands.h"
#include "io/atomicfile.h"
#include "io/servingrequestlog.h"
#include "llmsim/kvcapacity.h"
#include "llmsim/llmresultjson.h"
#include "llmsim/llmscenariojson.h"
#include "llmsim/llmsimulator.h"
#include "llmsim/requestlogwriter.h"
#include "llmsim/scenariopaths.h"
#include "llmsim/steptimefit.h"
#include "llmsimulationsummary.h"
#include "rooflinefitoption.h"
#include "sim/resultjson.h"
#include "sim/scenariojson.h"
#include "sim/simulator.h"
#include "simulationsummary.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <optional>

namespace bs::cli {

namespace {

/// Applies --seed, --requests and --records to the scenario read from the file.
Status applyOverrides(const ParsedArgs& args, sim::Scenario& scenario)
{
    auto seed = wholeNumberOption(args, "--seed", 0, UINT64_MAX);
    if (!seed)
        return seed.error();
    if (*seed)
        scenario.seed = **seed;
    auto requests = wholeNumberOption(args, "--requests", 1, sim::kMaxRequests);
    if (!requests)
        return requests.error();
    if (*requests)
        scenario.requests = **requests;
    if (args.has("--records"))
        scenario.output.records = true;
    return {};
}

/// A simulation error that names no file is about the scenario file.
Error inScenarioFile(Error error, const std::string& path)
{
    if (error.path.empty())
        error.path = path;
    return error;
}

/// --seed and --requests for an LLM scenario (--requests only for generated arrivals: a replay
/// has the requests of its file).
Status applyLlmOverrides(const ParsedArgs& args, llmsim::LlmScenario& scenario)
{
    auto seed = wholeNumberOption(args, "--seed", 0, UINT64_MAX);
    if (!seed)
        return seed.error();
    if (*seed)
        scenario.seed = **seed;
    auto requests = wholeNumberOption(args, "--requests", 1, 1 << 30);
    if (!requests)
        return requests.error();
    if (*requests) {
        if (scenario.arrivals.kind == llmsim::LlmArrivalSpec::Kind::Replay)
            return makeError(
                ErrorCode::Usage,
                "--requests: this LLM scenario replays its requests; only Poisson and fitted "
                "arrivals take a request count");
        scenario.arrivals.count = std::int64_t(**requests);
    }
    return {};
}

/// --fit-step LOG: the linear step fitted on a measured per-request log served by this
/// scenario's engine (core/llmsim/README.md, "Step time": fitted) replaces the scenario's step.
Expected<std::optional<llmsim::StepFit>> applyStepFit(const ParsedArgs& args,
                                                      llmsim::LlmScenario& scenario,
                                                      const std::string& baseDirectory)
{
    const auto logPath = args.value("--fit-step");
    if (!logPath)
        return std::optional<llmsim::StepFit>();
    auto measured = io::readServingRequestLog(*logPath);
    if (!measured)
        return measured.error();
    llmsim::EngineConfig engine = scenario.engine;
    if (engine.kvMemory) {
        auto capacity = llmsim::kvCapacity(*engine.kvMemory, engine.blockSize, baseDirectory);
        if (!capacity)
            return capacity.error();
        engine.numGpuBlocks = capacity->numGpuBlocks;
    }
    auto fit = llmsim::fitLinearStep(engine, *measured);
    if (!fit) {
        Error error = fit.error();
        error.message = "--fit-step: " + error.message;
        if (error.path.empty())
            error.path = *logPath;
        return error;
    }
    scenario.step = fit->step;
    return std::optional<llmsim::StepFit>(*fit);
}

nlohmann::json stepFitJson(const llmsim::StepFit& fit, const std::string& logPath)
{
    return {{"log", logPath},
            {"method", "replay_nelder_mead_then_tpot_regression"},
            {"base_ms", fit.step.baseMs},
            {"per_prefill_token_ms", fit.step.perPrefillTokenMs},
            {"per_decode_seq_ms", fit.step.perDecodeSeqMs},
            {"requests", fit.requests},
            {"tpot_requests", fit.tpotRequests},
            {"ttft_log_rms", fit.ttftLogRms},
            {"tpot_log_rms", fit.tpotLogRms},
            {"replays", fit.evaluations}};
}

std::string stepFitLine(const llmsim::StepFit& fit, const std::string& logPath)
{
    char line[512];
    std::snprintf(line, sizeof line,
                  "Step fitted        on %s (%zu requests, %d replays): base %.4g ms, %.4g ms per "
                  "prefill token, %.4g ms per decoding sequence; log-RMS TTFT %.3f, TPOT %.3f\n",
                  logPath.c_str(), fit.requests, fit.evaluations, fit.step.baseMs,
                  fit.step.perPrefillTokenMs, fit.step.perDecodeSeqMs, fit.ttftLogRms,
                  fit.tpotLogRms);
    return line;
}

/// The LLM continuous-batching simulator (core/llmsim/README.md).
int runLlmSimulate(const nlohmann::json& json, const std::string& path, std::size_t threads,
                   const ParsedArgs& args, CliIo& io)
{
    auto scenario = llmsim::llmScenarioFromJson(json, path);
    if (!scenario)
        return reportError(scenario.error(), args, io);
    if (auto status = applyLlmOverrides(args, *scenario); !status)
        return reportError(status.error(), args, io);
    llmsim::LlmSimOptions options;
    options.baseDirectory = std::filesystem::path(path).parent_path().string();
    options.threads = threads;
    if (args.has("--fit-step") && args.has("--fit-roofline"))
        return reportError(makeError(ErrorCode::Usage,
                                     "--fit-step and --fit-roofline: choose one (the first "
                                     "replaces the step with a linear one, the second "
                                     "calibrates the scenario's roofline)"),
                           args, io);
    auto fit = applyStepFit(args, *scenario, options.baseDirectory);
    if (!fit)
        return reportError(fit.error(), args, io);
    auto roofline = applyRooflineFit(args, *scenario, path, options.baseDirectory);
    if (!roofline)
        return reportError(roofline.error(), args, io);
    if (const auto out = args.value("--calibrated-scenario")) {
        if (!*fit && !*roofline)
            return reportError(makeError(ErrorCode::Usage,
                                         "--calibrated-scenario: needs --fit-step or "
                                         "--fit-roofline (there is nothing calibrated to write)"),
                               args, io);
        // Relative paths are read against the scenario's folder: the copy names the same files
        // from its own.
        const std::string outFolder = std::filesystem::path(*out).parent_path().string();
        const std::string text =
            llmsim::llmScenarioToJson(
                llmsim::withPathsRebased(*scenario, options.baseDirectory, outFolder))
                .dump(2) +
            "\n";
        if (auto status = io::writeFileAtomically(*out, text); !status)
            return reportError(status.error(), args, io);
    }
    auto result = llmsim::simulateLlm(*scenario, options);
    if (!result)
        return reportError(inScenarioFile(result.error(), path), args, io);
    if (const auto records = args.value("--records")) {
        if (auto status = llmsim::writeLlmRequestsCsv(*result, *records); !status)
            return reportError(status.error(), args, io);
    }
    if (const auto folder = args.value("--request-log")) {
        if (auto status = llmsim::writeSimulatedRequestLog(*result, *folder); !status)
            return reportError(status.error(), args, io);
    }
    const std::string logPath = args.value("--fit-step").value_or(std::string());
    if (args.json()) {
        nlohmann::json out = llmsim::llmResultToJson(*result);
        if (*fit)
            out["step_fit"] = stepFitJson(**fit, logPath);
        if (*roofline)
            out["roofline_fit"] = rooflineFitJson(**roofline);
        io.out << out.dump(2) << '\n';
    } else {
        if (*fit)
            io.out << stepFitLine(**fit, logPath);
        if (*roofline)
            io.out << rooflineFitText(**roofline);
        io.out << formatLlmSimulationSummary(*result);
    }
    return kExitOk;
}

int runSimulate(const ParsedArgs& args, CliIo& io)
{
    if (args.positionals.size() != 1) {
        return reportError(
            makeError(ErrorCode::Usage,
                      "usage: batchscope-cli simulate SCENARIO.json [--seed S] "
                      "[--requests N] [--threads N] [--records FILE.csv] [--fit-step LOG.jsonl] "
                      "[--fit-roofline SWEEP.json] [--calibrated-scenario OUT.json] "
                      "[--request-log FOLDER] [--json]"),
            args, io);
    }
    const std::string& path = args.positionals[0];
    auto threads = wholeNumberOption(args, "--threads", 1, 1024);
    if (!threads)
        return reportError(threads.error(), args, io);
    // An LLM scenario goes to its own simulator; anything else (a file that cannot be read or
    // parsed included) takes the queueing simulator's path and its errors.
    if (auto json = llmsim::readScenarioFile(path); json && llmsim::isLlmScenarioJson(*json))
        return runLlmSimulate(*json, path, threads->value_or(0), args, io);
    for (const char* llmOnly :
         {"--fit-step", "--fit-roofline", "--calibrated-scenario", "--request-log"}) {
        if (args.has(llmOnly))
            return reportError(
                makeError(ErrorCode::Usage, std::string(llmOnly) +
                                                ": applies to an LLM scenario; this is a queueing "
                                                "scenario"),
                args, io);
    }
    auto scenario = sim::loadScenario(path);
    if (!scenario)
        return reportError(scenario.error(), args, io);
    if (auto status = applyOverrides(args, *scenario); !status)
        return reportError(status.error(), args, io);

    sim::SimOptions options;
    options.threads = threads->value_or(0);
    options.baseDirectory = std::filesystem::path(path).parent_path().string();
    auto result = sim::simulate(*scenario, options);
    if (!result)
        return reportError(inScenarioFile(result.error(), path), args, io);
    if (const auto records = args.value("--records")) {
        if (auto status = sim::writeRecordsCsv(*result, *records); !status)
            return reportError(status.error(), args, io);
    }
    if (args.json())
        io.out << sim::resultToJson(*result).dump(2) << '\n';
    else
        io.out << formatSimulationSummary(*result);
    if (!result->stability.stable) {
        // The result is printed (it says why); the exit status says the metrics are missing.
        io.err << makeError(ErrorCode::Value, path, 0, 0, result->stability.reason).toString()
               << '\n';
        return kExitBadInput;
    }
    return kExitOk;
}

} // namespace

CommandSpec simulateCommand()
{
    return {
        "simulate",
        "simulate SCENARIO.json [--seed S] [--requests N] [--threads N] [--records FILE.csv] "
        "[--fit-step LOG.jsonl] [--fit-roofline SWEEP.json] [--calibrated-scenario OUT.json] "
        "[--request-log FOLDER]",
        "Run the queueing/batching simulator, or the LLM continuous-batching simulator, on a "
        "scenario.",
        "The scenario JSON is described in core/sim/README.md; a scenario with \"kind\": \"llm\"\n"
        "or an \"engine\" block runs the LLM simulator (core/llmsim/README.md: TTFT, TPOT, ITL,\n"
        "goodput, KV cache). Replications run in parallel and\n"
        "the result is identical for any --threads. A scenario whose offered load reaches the\n"
        "capacity is reported as unstable (exit status 1) instead of with meaningless latencies.\n"
        "Relative replay files are resolved against the scenario file's folder. --fit-step\n"
        "calibrates an LLM scenario's step on a measured run of the same engine settings: copy\n"
        "the fitted step (printed, and under scenario.step in --json) into scenarios with other\n"
        "knobs to predict them. --fit-roofline calibrates a roofline step's eta_compute,\n"
        "eta_memory, overhead_per_seq_ms and client_overhead_ms (the time outside the server)\n"
        "on a measured rate sweep (vLLM or SGLang\n"
        "benchmark results, one run per request rate; the scenario's Poisson lengths stand for\n"
        "the runs' prompts and outputs) and prints measured beside fitted per run;\n"
        "--calibrated-scenario writes the scenario with the calibrated step (its calibrated_on\n"
        "names the sweep, and an LLM region on it says so in every cell's evidence; its\n"
        "relative paths are rewritten against OUT's folder, so it runs from there).",
        {{"--seed", "S", "override the scenario's seed"},
         {"--requests", "N", "override the measured requests per replication"},
         {"--threads", "N", "threads for the replications (default: all cores)"},
         {"--records", "FILE.csv", "write the per-request records of replication 0"},
         {"--fit-step", "LOG.jsonl",
          "LLM: fit the linear step to a measured per-request log (requests.jsonl layout) "
          "served by this scenario's engine, then simulate with it"},
         {"--fit-roofline", "SWEEP.json",
          "LLM: calibrate the roofline step's eta_compute, eta_memory, overhead_per_seq_ms and "
          "client_overhead_ms on a measured rate sweep, then simulate with it"},
         {"--calibrated-scenario", "OUT.json",
          "LLM: write the scenario with the step --fit-step or --fit-roofline calibrated "
          "(relative paths in it are kept as written: write it beside the scenario)"},
         {"--request-log", "FOLDER",
          "LLM: write replication 0 as an engine request log (requests.jsonl, timeseries.csv, "
          "meta.json marked simulated_by) that import, analyze and the playbook read as a run"}},
        &runSimulate};
}

} // namespace bs::cli
