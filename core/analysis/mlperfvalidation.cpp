#include "analysis/mlperfvalidation.h"

#include "accel/precision.h"
#include "io/readdataset.h"
#include "sim/scenariojson.h"
#include "sim/simulator.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace bs::analysis {

namespace {

namespace fs = std::filesystem;

struct SummaryFigures
{
    data::SweepPoint point;
    std::map<std::string, std::string> metadata;
};

Expected<SummaryFigures> readSummary(const std::string& path)
{
    auto dataset = io::readDataset(path);
    if (!dataset)
        return dataset.error();
    const auto sweep = dataset->sweep();
    if (!sweep || sweep->points.size() != 1)
        return makeError(ErrorCode::Format, path, 0, 0,
                         "expected one MLPerf LoadGen summary (mlperf_log_summary.txt)");
    return SummaryFigures{sweep->points.front(), sweep->metadata};
}

/// A whole number stored as a string or a number in the system description.
Expected<int> systemCount(const nlohmann::json& system, const char* key, const std::string& path)
{
    if (!system.contains(key))
        return 1;
    const auto& value = system[key];
    int out = 0;
    if (value.is_number_integer()) {
        out = value.get<int>();
    } else if (value.is_string()) {
        const std::string text = value.get<std::string>();
        std::from_chars(text.data(), text.data() + text.size(), out);
    }
    if (out < 1 || out > 100000)
        return makeError(ErrorCode::Value, path, 0, 0,
                         std::string(key) + ": expected a whole number of at least 1");
    return out;
}

Expected<int> deviceCount(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorCode::Io, path, 0, 0, "cannot open the system description");
    std::stringstream text;
    text << in.rdbuf();
    const auto system = nlohmann::json::parse(text.str(), nullptr, false);
    if (system.is_discarded() || !system.is_object())
        return makeError(ErrorCode::Format, path, 0, 0,
                         "not a JSON object (systems/<system>.json)");
    auto perNode = systemCount(system, "accelerators_per_node", path);
    if (!perNode)
        return perNode.error();
    auto nodes = systemCount(system, "number_of_nodes", path);
    if (!nodes)
        return nodes.error();
    return *perNode * *nodes;
}

/// run_1, run_2, ... under `performance`, in run order.
std::vector<std::string> runSummaries(const fs::path& performance)
{
    std::vector<std::pair<int, std::string>> runs;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(performance, error)) {
        const std::string name = entry.path().filename().string();
        int number = 0;
        if (name.rfind("run_", 0) != 0 ||
            std::from_chars(name.data() + 4, name.data() + name.size(), number).ec != std::errc{})
            continue;
        const fs::path summary = entry.path() / "mlperf_log_summary.txt";
        if (fs::is_regular_file(summary, error))
            runs.emplace_back(number, summary.string());
    }
    std::sort(runs.begin(), runs.end());
    std::vector<std::string> out;
    for (auto& run : runs)
        out.push_back(std::move(run.second));
    return out;
}

Expected<MlperfMeasuredRun> measuredRun(const std::string& path)
{
    auto summary = readSummary(path);
    if (!summary)
        return summary.error();
    const auto& p = summary->point;
    const auto target = summary->metadata.find("target_qps");
    if (!p.latencyP50S || !p.latencyP99S || target == summary->metadata.end())
        return makeError(ErrorCode::Format, path, 0, 0,
                         "a Server summary needs its 50th and 99th percentile latencies and "
                         "target_qps");
    MlperfMeasuredRun run{path,
                          *p.latencyP50S,
                          p.latencyP90S.value_or(sim::kNaN),
                          *p.latencyP99S,
                          p.latencyMeanS.value_or(sim::kNaN),
                          0.0};
    std::from_chars(target->second.data(), target->second.data() + target->second.size(),
                    run.targetQps);
    if (!(run.targetQps > 0.0))
        return makeError(ErrorCode::Format, path, 0, 0, "target_qps is not a positive number");
    return run;
}

} // namespace

Expected<MlperfServerValidation> validateMlperfServer(const MlperfSubmissionQuery& query,
                                                      accel::ModelParams model,
                                                      std::uint64_t requests, int replications)
{
    const fs::path root(query.root);
    const std::string key = query.harnessSystem.empty()
                                ? query.system.substr(0, query.system.find('_'))
                                : query.harnessSystem;
    const fs::path configs = root / "configs" / query.benchmark;
    auto offline = readNvidiaHarnessConfig((configs / "Offline" / "config.json").string(), key);
    if (!offline)
        return offline.error();
    auto server = readNvidiaHarnessConfig((configs / "Server" / "config.json").string(), key);
    if (!server)
        return server.error();
    MlperfServerValidation out;
    auto devices = deviceCount((root / "systems" / (query.system + ".json")).string());
    if (!devices)
        return devices.error();
    out.devices = *devices;

    const fs::path results = root / "results" / query.system / query.benchmark;
    out.offlinePath =
        (results / "Offline" / "performance" / "run_1" / "mlperf_log_summary.txt").string();
    auto offlineSummary = readSummary(out.offlinePath);
    if (!offlineSummary)
        return offlineSummary.error();
    if (!offlineSummary->point.throughputPerS)
        return makeError(ErrorCode::Format, out.offlinePath, 0, 0, "no samples per second");
    out.offlineSamplesPerS = *offlineSummary->point.throughputPerS;

    const fs::path serverRuns = results / "Server" / "performance";
    for (const auto& path : runSummaries(serverRuns)) {
        auto run = measuredRun(path);
        if (!run)
            return run.error();
        out.measured.push_back(*run);
    }
    if (out.measured.empty())
        return makeError(ErrorCode::Io, serverRuns.string(), 0, 0,
                         "no run_N/mlperf_log_summary.txt of a Server run to compare with");

    if (const auto precision = accel::parsePrecision(server->precision))
        model.precision = *precision;
    MlperfServerInputs inputs{model,
                              out.devices,
                              *offline,
                              *server,
                              out.offlineSamplesPerS,
                              out.measured.front().targetQps};
    auto built = buildMlperfServerScenario(inputs, requests, replications);
    if (!built)
        return built.error();
    out.built = std::move(*built);
    auto scenario = sim::scenarioFromJson(out.built.scenario, "predicted Server scenario");
    if (!scenario)
        return scenario.error();
    auto predicted = sim::simulate(*scenario);
    if (!predicted)
        return predicted.error();
    out.predicted = std::move(*predicted);
    return out;
}

} // namespace bs::analysis
