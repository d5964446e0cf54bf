#include "workbench/replayarrivals.h"

#include <algorithm>

namespace bs::widgets {

namespace {

bool isReplay(const nlohmann::json& arrivals)
{
    return arrivals.is_object() && arrivals.value("kind", std::string()) == "replay";
}

std::string fileOf(const nlohmann::json& arrivals)
{
    if (!arrivals.contains("file") || !arrivals["file"].is_string())
        return {};
    return arrivals["file"].get<std::string>();
}

/// Whether inline times_s are exactly the trace's arrivals (an embedded dataset's replay).
bool sameTimes(const nlohmann::json& arrivals, const data::RequestTrace& trace)
{
    if (!arrivals.contains("times_s") || !arrivals["times_s"].is_array() ||
        arrivals["times_s"].size() != trace.size())
        return false;
    return arrivals["times_s"] == nlohmann::json(arrivalOrder(trace));
}

} // namespace

std::vector<double> arrivalOrder(const data::RequestTrace& trace)
{
    std::vector<double> times = trace.arrivalS;
    std::stable_sort(times.begin(), times.end());
    return times;
}

double recordedRatePerS(const data::RequestTrace& trace)
{
    if (trace.size() < 2)
        return 0.0;
    const auto [first, last] = std::minmax_element(trace.arrivalS.begin(), trace.arrivalS.end());
    const double spanS = *last - *first;
    return spanS > 0.0 ? double(trace.size() - 1) / spanS : 0.0;
}

bool isReplayable(const data::Dataset& dataset)
{
    const auto trace = dataset.requestTrace();
    return trace && recordedRatePerS(*trace) > 0.0;
}

nlohmann::json replayArrivalsFor(const data::Dataset& dataset)
{
    nlohmann::json arrivals = {{"kind", "replay"}, {"loop", false}};
    if (!dataset.provenance.path.empty())
        arrivals["file"] = dataset.provenance.path;
    else if (const auto trace = dataset.requestTrace())
        arrivals["times_s"] = arrivalOrder(*trace);
    return arrivals;
}

nlohmann::json scenarioReplaying(nlohmann::json scenario, const data::Dataset& dataset)
{
    const auto trace = dataset.requestTrace();
    scenario["arrivals"] = replayArrivalsFor(dataset);
    scenario["requests"] = trace ? trace->size() : 0;
    scenario["warmup_requests"] = 0;
    return scenario;
}

const data::Dataset* replayedDataset(const data::Project& project, const nlohmann::json& arrivals)
{
    if (!isReplay(arrivals))
        return nullptr;
    const std::string file = fileOf(arrivals);
    for (const auto& dataset : project.datasets) {
        const auto trace = dataset.requestTrace();
        if (!trace)
            continue;
        if (!file.empty() ? dataset.provenance.path == file : sameTimes(arrivals, *trace))
            return &dataset;
    }
    return nullptr;
}

nlohmann::json withReplayInMemory(nlohmann::json scenario, const data::Project& project)
{
    if (!scenario.is_object() || !scenario.contains("arrivals"))
        return scenario;
    auto& arrivals = scenario["arrivals"];
    if (fileOf(arrivals).empty() || arrivals.value("column", std::string("arrival")) != "arrival")
        return scenario;
    const data::Dataset* dataset = replayedDataset(project, arrivals);
    if (!dataset)
        return scenario; // not imported (or not loaded yet): the simulator reads the file
    arrivals.erase("file");
    arrivals.erase("column");
    arrivals["times_s"] = arrivalOrder(*dataset->requestTrace());
    return scenario;
}

} // namespace bs::widgets
