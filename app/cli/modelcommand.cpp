#include "accel/model.h"
#include "accelpresets.h"
#include "commands.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

namespace bs::cli {

namespace {

/// Batch sizes from --batch, whole numbers from 1 to 10^7; 1, 2, 4, ..., 1024 by default.
Expected<std::vector<int>> batchSizes(const ParsedArgs& args)
{
    auto numbers = numberListOption(args, "--batch");
    if (!numbers)
        return numbers.error();
    std::vector<int> out;
    if (numbers->empty()) {
        for (int b = 1; b <= 1024; b *= 2)
            out.push_back(b);
        return out;
    }
    for (double v : *numbers) {
        if (v < 1.0 || v > 1e7 || v != std::floor(v)) {
            char text[64];
            std::snprintf(text, sizeof text, "%g", v);
            return makeError(ErrorCode::Usage, std::string("--batch: ") + text +
                                                   " is not a whole number from 1 to 10000000");
        }
        out.push_back(int(v));
    }
    return out;
}

/// The model parameters the options describe, as the JSON modelFromJson reads.
Expected<nlohmann::json> paramsJson(const ParsedArgs& args)
{
    nlohmann::json params = nlohmann::json::object();
    for (const char* name : {"--accelerator", "--workload"}) {
        const auto value = args.value(name);
        if (!value) {
            return makeError(ErrorCode::Usage, std::string("batchscope-cli model: ") + name +
                                                   " NAME is required (see batchscope-cli "
                                                   "model --help)");
        }
        params[std::string(name + 2)] = *value;
    }
    if (const auto precision = args.value("--precision"))
        params["precision"] = *precision;
    const std::pair<const char*, const char*> numbers[] = {{"--power-cap-w", "power_cap_w"},
                                                           {"--fusion", "fusion_factor"},
                                                           {"--smooth-max-p", "smooth_max_p"}};
    for (const auto& [option, key] : numbers) {
        if (!args.has(option))
            continue;
        auto value = numberOption(args, option, 0.0);
        if (!value)
            return value.error();
        params[key] = *value;
    }
    if (args.has("--ambient-c")) {
        auto value = numberOption(args, "--ambient-c", 25.0);
        if (!value)
            return value.error();
        params["thermal"] = {{"ambient_c", *value}};
    }
    return params;
}

void printTable(const accel::Model& model, const std::vector<int>& batches, CliIo& io)
{
    const auto& p = model.params();
    char line[256];
    io.out << "Model: " << p.accelerator.name << " / " << p.workload.name << ", "
           << accel::precisionName(p.precision) << ", fusion " << p.fusionFactor << ", "
           << (p.powerCapW ? "power cap " + std::to_string(int(std::lround(*p.powerCapW))) + " W"
                           : std::string("no power cap"))
           << "\n";
    // The table is the model's estimate, not the datasheet: say so, with the factors used.
    const double peakTflops = p.accelerator.peak(p.precision).value_or(0.0) / 1e12;
    std::snprintf(line, sizeof line,
                  "Efficiency-scaled: t(b) uses the datasheet peak %.4g TFLOPS (%s) × "
                  "eta_compute %.2f and %.4g TB/s × eta_memory %.2f, not the peaks "
                  "themselves\n",
                  peakTflops, accel::precisionName(p.precision), p.effectiveEtaCompute(),
                  p.accelerator.memoryBandwidthBytesPerS / 1e12, p.effectiveEtaMemory());
    io.out << line;
    const double crossover = model.crossoverBatch();
    if (std::isfinite(crossover)) {
        std::snprintf(line, sizeof line,
                      "Ridge point %.1f FLOP/B; crossover b* = %.1f (first compute-bound batch "
                      "%d)\n\n",
                      model.ridgePoint(), crossover, model.firstComputeBoundBatch());
    } else {
        std::snprintf(line, sizeof line,
                      "Ridge point %.1f FLOP/B; never compute-bound (memory traffic per item "
                      "costs more than its math)\n\n",
                      model.ridgePoint());
    }
    io.out << line;
    std::snprintf(line, sizeof line, "%7s %12s %13s %8s %13s %10s %9s %6s %8s %11s\n", "batch",
                  "t(b)", "throughput/s", "power W", "energy/inf J", "AI FLOP/B", "bound", "clock",
                  "T_ss °C", "throttle in");
    io.out << line;
    for (int b : batches) {
        const accel::Prediction r = model.predict(b);
        const accel::SustainedLoad s = model.sustained(b);
        std::snprintf(
            line, sizeof line, "%7d %12s %13.1f %8.1f %13.4g %10.1f %9s %6.3f %8.1f %11s%s\n", b,
            formatSeconds(r.serviceS).c_str(), r.throughputPerS, r.powerW, r.energyPerInferenceJ,
            r.arithmeticIntensity, accel::boundName(r.bound), r.clockScale, s.steadyStateC,
            s.throttles ? formatSeconds(s.timeToThrottleS).c_str() : "never",
            r.fitsInMemory ? "" : "  (exceeds memory)");
        io.out << line;
    }
    // What the memory check counts, so "exceeds memory" can be argued with.
    const auto& w = model.params().workload;
    const double deviceGb = model.params().accelerator.memoryBytes / 1e9;
    std::snprintf(line, sizeof line,
                  "\nMemory check: weights + one batch's resident activations + a workspace of "
                  "%.3g GiB (%s)%s\n",
                  w.workspaceBytes / double(1 << 30),
                  w.workspaceBytes == accel::kDefaultWorkspaceBytes ? "assumed; workspace_mib"
                                                                    : "workspace_mib",
                  deviceGb > 0 ? (" against " + std::to_string(int(std::lround(deviceGb))) +
                                  " GB on the device")
                                     .c_str()
                               : "; the device's capacity is unknown");
    io.out << line;
}

int runModel(const ParsedArgs& args, CliIo& io)
{
    if (!args.positionals.empty()) {
        return reportError(
            makeError(ErrorCode::Usage, "batchscope-cli model: takes no file (see --help)"), args,
            io);
    }
    auto batches = batchSizes(args);
    if (!batches)
        return reportError(batches.error(), args, io);
    auto params = paramsJson(args);
    if (!params)
        return reportError(params.error(), args, io);
    auto library = cliPresetLibrary(args);
    if (!library)
        return reportError(library.error(), args, io);
    auto model = accel::modelFromJson(*params, "model", {}, *library);
    if (!model)
        return reportError(model.error(), args, io);
    if (!args.json()) {
        printTable(*model, *batches, io);
        return kExitOk;
    }
    nlohmann::json out = {{"model", accel::toJson(*model)},
                          {"ridge_point_flop_per_byte", model->ridgePoint()},
                          {"first_compute_bound_batch", model->firstComputeBoundBatch()}};
    const double crossover = model->crossoverBatch();
    out["crossover_batch"] =
        std::isfinite(crossover) ? nlohmann::json(crossover) : nlohmann::json();
    nlohmann::json rows = nlohmann::json::array();
    for (int b : *batches) {
        nlohmann::json row = accel::toJson(model->predict(b));
        row["sustained"] = accel::toJson(model->sustained(b));
        rows.push_back(std::move(row));
    }
    out["predictions"] = std::move(rows);
    io.out << out.dump(2) << '\n';
    return kExitOk;
}

} // namespace

CommandSpec modelCommand()
{
    return {"model",
            "model --accelerator NAME --workload NAME [--batch 1,2,4,...] [--precision P] "
            "[--power-cap-w W]",
            "Predict service time, throughput, power, energy and bound per batch size.",
            "t(b) = t_host + (n_kernels/fusion)·t_launch + max(F·b/(P·η_c·s), M(b)/(BW·η_m)),\n"
            "P(b) = P_idle + (P_max − P_idle)·activity(b)·s^γ, where s is the clock the power cap\n"
            "allows. T_ss is the steady temperature under back-to-back batches; 'throttle in' the\n"
            "time from ambient until thermal throttling (see core/accel/README.md).",
            {{"--accelerator", "NAME", "accelerator preset (h100-sxm, a100-sxm-80gb, ...)"},
             {"--workload", "NAME", "workload preset (resnet50, bert-large-384, ...)"},
             {"--batch", "LIST", "batch sizes, comma-separated (default 1,2,4,...,1024)"},
             {"--precision", "P", "fp32, tf32, bf16, fp16, fp8 or int8 (default: the workload's)"},
             {"--power-cap-w", "W", "board power limit in watts"},
             {"--fusion", "F", "fusion factor ≥ 1 (kernels/F, activation bytes × F^β)"},
             {"--smooth-max-p", "P", "p-norm instead of a hard max of compute and memory time"},
             {"--ambient-c", "C", "ambient (inlet) temperature in °C"},
             presetsOption()},
            &runModel};
}

} // namespace bs::cli
