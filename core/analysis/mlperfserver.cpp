#include "analysis/mlperfserver.h"

#include "accel/model.h"
#include "accel/precision.h"
#include "util/numbertext.h"

#include <fstream>
#include <sstream>

namespace bs::analysis {

namespace {

std::string number(double value)
{
    return significant(value, 4);
}

Expected<nlohmann::json> readJsonFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorCode::Io, path, 0, 0, "cannot open the harness config");
    std::stringstream text;
    text << in.rdbuf();
    auto json = nlohmann::json::parse(text.str(), nullptr, false);
    if (json.is_discarded() || !json.is_object())
        return makeError(ErrorCode::Format, path, 0, 0, "not a JSON object (harness config.json)");
    return json;
}

Expected<int> positiveInteger(const nlohmann::json& object, const char* key,
                              const std::string& where, const std::string& path, int fallback)
{
    if (!object.contains(key))
        return fallback > 0
                   ? Expected<int>(fallback)
                   : makeError(ErrorCode::Value, path, 0, 0, where + "." + key + ": missing");
    const auto& value = object[key];
    if (!value.is_number_integer() || value.get<long long>() < 1 ||
        value.get<long long>() > 1'000'000)
        return makeError(ErrorCode::Value, path, 0, 0,
                         where + "." + key + ": expected a whole number from 1 to 1000000");
    return int(value.get<long long>());
}

/// Kernel time of a batch in the preset model: t(b) without host work and launches.
double kernelS(const accel::Model& model, int batch)
{
    const auto p = model.predict(batch);
    return p.serviceS - p.overheadS;
}

/// One item's input copy over the host link, when the link, the input size and its type are
/// known; 0 otherwise.
double copyPerItemS(const accel::ModelParams& params, const std::string& inputDtype)
{
    const auto dtype = accel::parsePrecision(inputDtype);
    const double bytes =
        params.workload.inputElementsPerItem * (dtype ? accel::bytesPerElement(*dtype) : 0.0);
    const double link = params.accelerator.hostLinkBytesPerS;
    return bytes > 0.0 && link > 0.0 ? bytes / link : 0.0;
}

/// Host work and launches of one batch: a CUDA graph launches a batch's kernels at once.
double overheadS(const accel::ModelParams& params, bool cudaGraphs)
{
    const double launches = cudaGraphs ? 1.0 : params.workload.kernels / params.fusionFactor;
    return params.effectiveHostOverheadS() + launches * params.accelerator.launchOverheadS;
}

} // namespace

Expected<HarnessScenarioSettings> readNvidiaHarnessConfig(const std::string& path,
                                                          const std::string& system)
{
    auto json = readJsonFile(path);
    if (!json)
        return json.error();
    if (!json->contains(system) || !(*json)[system].is_object())
        return makeError(ErrorCode::Value, path, 0, 0,
                         "no settings for system \"" + system + "\" in the harness config");
    const auto& s = (*json)[system];
    HarnessScenarioSettings out;
    auto batch = positiveInteger(s, "gpu_batch_size", system, path, 0);
    auto inference = positiveInteger(s, "gpu_inference_streams", system, path, 1);
    auto copies = positiveInteger(s, "gpu_copy_streams", system, path, 1);
    for (const auto* value : {&batch, &inference, &copies})
        if (!*value)
            return value->error();
    out.batch = *batch;
    out.inferenceStreams = *inference;
    out.copyStreams = *copies;
    if (s.contains("deque_timeout_us")) {
        if (!s["deque_timeout_us"].is_number() || s["deque_timeout_us"].get<double>() < 0.0)
            return makeError(ErrorCode::Value, path, 0, 0,
                             system + ".deque_timeout_us: expected a number ≥ 0");
        out.dequeTimeoutS = s["deque_timeout_us"].get<double>() * 1e-6;
    }
    out.cudaGraphs = s.value("use_graphs", false) == true;
    if (s.contains("precision") && s["precision"].is_string())
        out.precision = s["precision"].get<std::string>();
    if (s.contains("input_dtype") && s["input_dtype"].is_string())
        out.inputDtype = s["input_dtype"].get<std::string>();
    if (s.contains("server_target_qps") && s["server_target_qps"].is_number())
        out.targetQps = s["server_target_qps"].get<double>();
    return out;
}

Expected<MlperfServerScenario> buildMlperfServerScenario(const MlperfServerInputs& in,
                                                         std::uint64_t requests, int replications)
{
    if (in.devices < 1 || !(in.offlineSamplesPerS > 0.0) || !(in.serverQps > 0.0))
        return makeError(ErrorCode::Value,
                         "MLPerf Server prediction: needs devices ≥ 1, an Offline throughput and "
                         "the Server target_qps");
    auto model = accel::Model::create(in.model);
    if (!model)
        return model.error();
    MlperfServerScenario out;
    const int offlineBatch = in.offline.batch;
    const double perDevicePerS = in.offlineSamplesPerS / double(in.devices);
    const double batchPeriodS = double(offlineBatch) / perDevicePerS;
    // One inference stream computes and launches in turn; several hide the launches behind
    // each other's kernels, so the whole period is kernel time.
    const double offlineOverheadS =
        in.offline.inferenceStreams > 1 ? 0.0 : overheadS(in.model, in.offline.cudaGraphs);
    out.kernelScale = (batchPeriodS - offlineOverheadS) / kernelS(*model, offlineBatch);
    if (!(out.kernelScale > 0.0))
        return makeError(ErrorCode::Value,
                         "MLPerf Server prediction: the Offline result (" + number(perDevicePerS) +
                             " samples/s per device at batch " + std::to_string(offlineBatch) +
                             ") is faster than the model's host and launch time alone");
    out.preComputeS = overheadS(in.model, in.server.cudaGraphs);
    out.copyPerItemS = copyPerItemS(in.model, in.server.inputDtype);

    nlohmann::json batches = nlohmann::json::array();
    nlohmann::json latencyMs = nlohmann::json::array();
    for (int b = 1; b <= in.server.batch; ++b) {
        batches.push_back(b);
        latencyMs.push_back(out.kernelScale * kernelS(*model, b) * 1e3);
    }
    out.scenario = {
        {"name", "MLPerf Server predicted from the Offline result and harness settings"},
        {"seed", 20201021},
        {"requests", requests},
        {"warmup_requests", requests / 10},
        {"replications", replications},
        {"arrivals", {{"kind", "poisson"}, {"rate_per_s", in.serverQps}}},
        {"policy",
         {{"kind", "dynamic"},
          {"max_batch", in.server.batch},
          {"max_queue_delay_ms", in.server.dequeTimeoutS * 1e3}}},
        {"servers",
         {{"count", in.devices},
          {"streams", in.server.inferenceStreams},
          {"pre_compute",
           {{"base_ms", out.preComputeS * 1e3}, {"per_item_us", out.copyPerItemS * 1e6}}}}},
        {"service", {{"kind", "table"}, {"batch", batches}, {"latency_ms", latencyMs}}}};

    auto& a = out.assumptions;
    a.push_back("arrivals: Poisson at the Server run's target_qps (" + number(in.serverQps) +
                " /s), as LoadGen issues them, into one queue all " + std::to_string(in.devices) +
                " devices' batchers take from");
    a.push_back("batching: dynamic, max batch " + std::to_string(in.server.batch) +
                " (gpu_batch_size), waiting at most " + number(in.server.dequeTimeoutS * 1e3) +
                " ms to fill (deque_timeout_us)");
    a.push_back("concurrency: " + std::to_string(in.server.inferenceStreams) +
                " batches compute at once per device (gpu_inference_streams), sharing it "
                "equally: no throughput gain from overlap is assumed");
    a.push_back("kernel times: the " + in.model.accelerator.name + " / " + in.model.workload.name +
                " model at " + precisionName(in.model.precision) + ", scaled by " +
                number(out.kernelScale) + " so that batch " + std::to_string(offlineBatch) +
                " with " + std::to_string(in.offline.inferenceStreams) +
                " inference stream(s) gives the Offline result (" + number(perDevicePerS) +
                " samples/s per device)");
    a.push_back("host work and launches per Server batch: " + number(out.preComputeS * 1e6) +
                " µs" + (in.server.cudaGraphs ? " (use_graphs: one graph launch)" : "") +
                ", off the device, holding the batch's stream");
    if (out.copyPerItemS > 0.0)
        a.push_back("input copy: " + number(out.copyPerItemS * 1e6) + " µs per item (" +
                    number(in.model.workload.inputElementsPerItem) + " " + in.server.inputDtype +
                    " elements over the " + number(in.model.accelerator.hostLinkBytesPerS / 1e9) +
                    " GB/s host link) before the batch computes; the " +
                    std::to_string(in.server.copyStreams) +
                    " gpu_copy_streams overlap it with other batches' compute");
    else
        a.push_back("not modelled: the input copy (the preset has no host-link bandwidth or "
                    "input size, or the harness no input_dtype)");
    a.push_back("not modelled: service-time spread within a batch size, LoadGen's own "
                "overhead");
    return out;
}

} // namespace bs::analysis
