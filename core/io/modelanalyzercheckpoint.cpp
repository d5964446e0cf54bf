#include "io/modelanalyzercheckpoint.h"

#include "data/tritonsettings.h"
#include "io/jsondocument.h"
#include "io/jsonfields.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

namespace bs::io {

namespace {

using nlohmann::json;

constexpr std::uint64_t kMaxCheckpointBytes = std::uint64_t(1) << 30;

/// Where in the checkpoint a problem is, for errors: the configuration and the measurement.
struct Place
{
    const std::string& path;
    std::string where;

    Error error(const std::string& why, ErrorCode code = ErrorCode::Value) const
    {
        return makeError(code, path, 0, 0, where + ": " + why);
    }

    /// Several models profiled together, which one sweep point cannot hold.
    Error multiModel(const char* what, std::size_t models) const
    {
        return error(std::string(what) + " of " + std::to_string(models) +
                         " models together; read Model Analyzer's CSV report "
                         "(metrics-model-inference.csv) for multi-model runs",
                     ErrorCode::Unsupported);
    }
};

const json* member(const json& object, const char* key)
{
    if (!object.is_object())
        return nullptr;
    const auto& members = object.get_ref<const json::object_t&>();
    const auto it = members.find(key);
    return it == members.end() || it->second.is_null() ? nullptr : &it->second;
}

/// A whole number that protobuf's JSON form may write as a string (64-bit fields).
std::optional<std::int64_t> protoInteger(const json& value)
{
    if (value.is_number_integer())
        return value.get<std::int64_t>();
    if (value.is_number_float() && std::floor(value.get<double>()) == value.get<double>())
        return std::int64_t(value.get<double>());
    if (value.is_string()) {
        const auto& text = value.get_ref<const std::string&>();
        if (!text.empty() && text.size() < 19 &&
            std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::stoll(text);
    }
    return std::nullopt;
}

Expected<std::int64_t> protoIntegerAt(const json& object, const char* key, std::int64_t fallback,
                                      const Place& place)
{
    const json* value = member(object, key);
    if (!value)
        return fallback;
    const auto number = protoInteger(*value);
    if (!number || *number < 0)
        return place.error("\"" + std::string(key) + "\" must be a non-negative whole number");
    return *number;
}

/// Model instances running on the GPU: each GPU group's count (1 when absent) on each of its
/// GPUs (every GPU of the machine when it names none). A configuration without groups gets
/// Triton's default, one instance per GPU; one with only CPU groups runs their counts.
Expected<int> instanceCount(const json& config, int gpus, const Place& place)
{
    const json* groups = member(config, "instanceGroup");
    if (!groups)
        return gpus;
    if (!groups->is_array())
        return place.error("\"instanceGroup\" must be a list");
    std::int64_t onGpu = 0, onCpu = 0;
    for (const json& group : *groups) {
        auto count = protoIntegerAt(group, "count", 1, place);
        if (!count)
            return count.error();
        const json* kind = member(group, "kind");
        const std::string kindText = kind && kind->is_string() ? kind->get<std::string>() : "";
        if (kindText == "KIND_CPU" || kindText == "KIND_MODEL") {
            onCpu += *count;
            continue;
        }
        const json* devices = member(group, "gpus");
        const std::int64_t deviceCount = devices && devices->is_array() && !devices->empty()
                                             ? std::int64_t(devices->size())
                                             : gpus;
        onGpu += *count * deviceCount;
    }
    const std::int64_t total = onGpu > 0 ? onGpu : onCpu;
    if (total < 1 || total > 4096)
        return place.error("the instance groups add up to " + std::to_string(total) +
                           " instances; expected 1 to 4,096");
    return int(total);
}

/// The Triton settings a configuration ran under, from its model config (protobuf JSON form).
Expected<data::TritonModelSettings> settingsOf(const json& config, int gpus, const Place& place)
{
    data::TritonModelSettings settings;
    auto instances = instanceCount(config, gpus, place);
    if (!instances)
        return instances.error();
    settings.instances = *instances;
    const json* dynamic = member(config, "dynamicBatching");
    auto maxBatch = protoIntegerAt(config, "maxBatchSize", 0, place);
    if (!maxBatch)
        return maxBatch.error();
    if (!dynamic)
        return settings; // without a dynamic batcher Triton runs each request as it comes
    if (!dynamic->is_object())
        return place.error("\"dynamicBatching\" must be an object");
    settings.maxBatchItems = int(std::min<std::int64_t>(*maxBatch, 1'000'000));
    if (const json* preferred = member(*dynamic, "preferredBatchSize")) {
        if (!preferred->is_array())
            return place.error("\"dynamicBatching.preferredBatchSize\" must be a list");
        for (const json& size : *preferred) {
            const auto items = protoInteger(size);
            if (!items || *items < 1 || *items > 1'000'000)
                return place.error("\"dynamicBatching.preferredBatchSize\" holds " + size.dump() +
                                   "; expected whole numbers from 1");
            settings.preferredBatchItems.push_back(int(*items));
        }
        std::sort(settings.preferredBatchItems.begin(), settings.preferredBatchItems.end());
    }
    auto delayUs = protoIntegerAt(*dynamic, "maxQueueDelayMicroseconds", 0, place);
    if (!delayUs)
        return delayUs.error();
    settings.maxQueueDelayS = double(*delayUs) / 1e6;
    return settings;
}

/// Model Analyzer's records, `[[tag, {"_value": x, ...}], ...]`, as tag -> value.
Expected<std::map<std::string, double>> records(const json* list, const Place& place)
{
    std::map<std::string, double> out;
    if (!list)
        return out;
    if (!list->is_array())
        return place.error("a record list is not a list");
    for (const json& entry : *list) {
        if (!entry.is_array() || entry.size() != 2 || !entry[0].is_string())
            return place.error("a record is not [tag, {\"_value\": ...}]: " +
                               entry.dump().substr(0, 80));
        const json* value = member(entry[1], "_value");
        if (!value || !value->is_number() || !std::isfinite(value->get<double>()) ||
            value->get<double>() < 0.0)
            return place.error("the record \"" + entry[0].get<std::string>() +
                               "\" has no non-negative \"_value\"");
        out[entry[0].get<std::string>()] = value->get<double>();
    }
    return out;
}

std::optional<double> scaled(const std::map<std::string, double>& values, const char* tag,
                             double scale)
{
    const auto it = values.find(tag);
    return it == values.end() ? std::nullopt : std::optional<double>(it->second * scale);
}

/// perf_analyzer's load of a measurement, as the point's concurrency or request rate.
Status applyLoad(const json& params, data::SweepPoint& point, const Place& place)
{
    auto batch = protoIntegerAt(params, "batch-size", 1, place);
    if (!batch)
        return batch.error();
    if (*batch < 1 || *batch > 1'000'000)
        return place.error("\"batch-size\" must be from 1 to 1,000,000");
    point.batchSize = int(*batch);
    const json* concurrency = member(params, "concurrency-range");
    const json* rate = member(params, "request-rate-range");
    const json* load = concurrency ? concurrency : rate;
    if (!load || !load->is_number() || load->get<double>() <= 0.0)
        return place.error("neither a positive \"concurrency-range\" nor \"request-rate-range\"");
    (concurrency ? point.concurrency : point.requestRatePerS) = load->get<double>();
    return {};
}

/// One perf_analyzer measurement (ms, infer/s, W, MB, %) as a sweep point in SI units.
Expected<data::SweepPoint> pointOf(const json& measurement, const std::string& series,
                                   const Place& place)
{
    const json* perModel = member(measurement, "_model_config_measurements");
    if (!perModel || !perModel->is_array() || perModel->empty())
        return place.error("no \"_model_config_measurements\"");
    if (perModel->size() > 1)
        return place.multiModel("a measurement", perModel->size());
    data::SweepPoint point;
    point.series = series;
    const json* params = member((*perModel)[0], "_model_specific_pa_params");
    if (!params)
        return place.error("no \"_model_specific_pa_params\" (batch size and load)");
    if (auto status = applyLoad(*params, point, place); !status)
        return status.error();
    auto perf = records(member((*perModel)[0], "_non_gpu_data"), place);
    if (!perf)
        return perf.error();
    auto gpu = records(member(measurement, "_avg_gpu_data"), place);
    if (!gpu)
        return gpu.error();
    point.throughputPerS = scaled(*perf, "perf_throughput", 1.0);
    point.latencyMeanS = scaled(*perf, "perf_latency_avg", 1e-3);
    point.latencyP90S = scaled(*perf, "perf_latency_p90", 1e-3);
    point.latencyP95S = scaled(*perf, "perf_latency_p95", 1e-3);
    point.latencyP99S = scaled(*perf, "perf_latency_p99", 1e-3);
    point.serverQueueS = scaled(*perf, "perf_server_queue", 1e-3);
    point.computeInputS = scaled(*perf, "perf_server_compute_input", 1e-3);
    point.computeInferS = scaled(*perf, "perf_server_compute_infer", 1e-3);
    point.computeOutputS = scaled(*perf, "perf_server_compute_output", 1e-3);
    const auto sendRecv = scaled(*perf, "perf_client_send_recv", 1e-3);
    const auto responseWait = scaled(*perf, "perf_client_response_wait", 1e-3);
    if (sendRecv && responseWait && point.serverQueueS && point.computeInputS &&
        point.computeInferS && point.computeOutputS) {
        // The response wait holds the network and the server; the server's own parts are
        // predicted, so only the rest is time outside it.
        const double serverS = *point.serverQueueS + *point.computeInputS + *point.computeInferS +
                               *point.computeOutputS;
        point.clientOverheadS = *sendRecv + std::max(0.0, *responseWait - serverS);
    }
    point.powerW = scaled(*gpu, "gpu_power_usage", 1.0);
    point.memoryBytes = scaled(*gpu, "gpu_used_memory", 1e6);
    if (const auto utilization = scaled(*gpu, "gpu_utilization", 0.01))
        point.utilization = std::min(1.0, *utilization);
    if (!point.throughputPerS)
        return place.error("no \"perf_throughput\"");
    return point;
}

data::RequestDistribution distributionOf(const json& runConfig)
{
    const json* perf = member(runConfig, "_perf_config");
    const json* args = perf ? member(*perf, "_args") : nullptr;
    const json* distribution = args ? member(*args, "request-distribution") : nullptr;
    return distribution && distribution->is_string() && *distribution == "poisson"
               ? data::RequestDistribution::Poisson
               : data::RequestDistribution::Constant;
}

struct Reading
{
    data::SweepTable table;
    std::set<std::string> models;
    std::size_t configurationsWithoutMeasurements = 0;
};

/// One model configuration: `[RunConfig, {measurement key: measurement}]`. Its points run from
/// the smallest batch and load up (the checkpoint keeps them keyed by perf_analyzer's command).
Status readConfiguration(const std::string& model, const std::string& variant, const json& runs,
                         int gpus, const std::string& path, Reading& reading)
{
    const Place place{path, "configuration \"" + variant + "\" of model \"" + model + "\""};
    if (!runs.is_array() || runs.empty())
        return place.error("expected [run configuration, measurements]");
    const json* modelRuns = member(runs[0], "_model_run_configs");
    if (!modelRuns || !modelRuns->is_array() || modelRuns->empty())
        return place.error("no \"_model_run_configs\"");
    if (modelRuns->size() > 1)
        return place.multiModel("a configuration", modelRuns->size());
    const json* variantJson = member((*modelRuns)[0], "_model_config_variant");
    const json* config = variantJson ? member(*variantJson, "model_config") : nullptr;
    if (!config || !config->is_object())
        return place.error("no \"_model_config_variant.model_config\"");
    auto settings = settingsOf(*config, gpus, place);
    if (!settings)
        return settings.error();
    if (runs.size() < 2 || !runs[1].is_object() || runs[1].empty()) {
        ++reading.configurationsWithoutMeasurements;
        return {};
    }
    // As Model Analyzer's CSV reports name a point's series: "model/configuration".
    const std::string series = model + "/" + variant;
    std::vector<data::SweepPoint> points;
    for (const auto& [key, measurement] : runs[1].items()) {
        const Place at{path, place.where + ", measurement \"" + key.substr(0, 120) + "\""};
        auto point = pointOf(measurement, series, at);
        if (!point)
            return point.error();
        points.push_back(std::move(*point));
    }
    std::stable_sort(points.begin(), points.end(), [](const auto& a, const auto& b) {
        const double loadA = a.concurrency.value_or(a.requestRatePerS.value_or(0.0));
        const double loadB = b.concurrency.value_or(b.requestRatePerS.value_or(0.0));
        return std::pair(a.batchSize, loadA) < std::pair(b.batchSize, loadB);
    });
    for (auto& point : points)
        reading.table.points.push_back(std::move(point));
    data::recordTritonSettings(reading.table, series, *settings);
    data::recordRequestDistribution(reading.table, series, distributionOf((*modelRuns)[0]));
    reading.models.insert(model);
    return {};
}

Expected<data::LoadAxis> loadAxisOf(const data::SweepTable& table, const std::string& path)
{
    const auto closed = std::count_if(table.points.begin(), table.points.end(),
                                      [](const auto& p) { return p.concurrency.has_value(); });
    if (closed != 0 && std::size_t(closed) != table.points.size())
        return makeError(ErrorCode::Unsupported, path, 0, 0,
                         "the checkpoint mixes concurrency and request-rate measurements; a "
                         "sweep has one load axis");
    return closed ? data::LoadAxis::Concurrency : data::LoadAxis::RequestRate;
}

/// GPU names the checkpoint lists ("NVIDIA TITAN RTX"), and how many.
std::pair<std::string, int> gpusOf(const json& root)
{
    const json* gpus = member(root, "MetricsManager.gpus");
    if (!gpus || !gpus->is_object() || gpus->empty())
        return {"", 1};
    std::string names;
    for (const auto& [uuid, info] : gpus->items()) {
        const json* name = member(info, "name");
        const std::string text = name && name->is_string() ? name->get<std::string>() : uuid;
        names += (names.empty() ? "" : ", ") + text;
    }
    return {names, int(std::min<std::size_t>(gpus->size(), 64))};
}

} // namespace

Expected<data::DatasetContent> readModelAnalyzerCheckpoint(ByteSource& source,
                                                           ReaderContext& context)
{
    if (auto status = refuseReaderOptions(context, "Model Analyzer checkpoint"); !status)
        return status.error();
    auto root = readJsonDocument(source, context.path, kMaxCheckpointBytes);
    if (!root)
        return root.error();
    const json* manager = member(*root, "ResultManager.results");
    const json* results = manager ? member(*manager, "_results") : nullptr;
    if (!results || !results->is_object())
        return makeError(ErrorCode::Format, context.path, 0, 0,
                         "no \"ResultManager.results\"._results object: not a Model Analyzer "
                         "checkpoint with results");
    const auto [gpuNames, gpuCount] = gpusOf(*root);
    Reading reading;
    for (const auto& [model, configurations] : results->items()) {
        if (!configurations.is_object())
            return makeError(ErrorCode::Format, context.path, 0, 0,
                             "the results of model \"" + model + "\" are not an object");
        for (const auto& [variant, runs] : configurations.items()) {
            if (context.cancel.isCancelled())
                return makeError(ErrorCode::Cancelled, context.path, 0, 0, "reading cancelled");
            if (auto status =
                    readConfiguration(model, variant, runs, gpuCount, context.path, reading);
                !status)
                return status.error();
        }
    }
    data::SweepTable& table = reading.table;
    if (table.points.empty())
        return makeError(ErrorCode::Format, context.path, 0, 0,
                         "the checkpoint holds no measurement (Model Analyzer had not measured "
                         "a configuration yet when it wrote it)");
    auto axis = loadAxisOf(table, context.path);
    if (!axis)
        return axis.error();
    table.loadAxis = *axis;
    if (reading.configurationsWithoutMeasurements > 0)
        context.warnings.add("configuration-without-measurements", 0,
                             std::to_string(reading.configurationsWithoutMeasurements) +
                                 " configuration(s) have no measurement (failed or not run "
                                 "yet); left out");
    std::string models;
    for (const auto& model : reading.models)
        models += (models.empty() ? "" : ", ") + model;
    table.name = std::filesystem::path(context.path).filename().string();
    table.metadata["model"] = models;
    if (!gpuNames.empty())
        table.metadata["gpu"] = gpuNames;
    return data::DatasetContent(std::make_shared<const data::SweepTable>(std::move(table)));
}

} // namespace bs::io
