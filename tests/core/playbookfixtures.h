#pragma once

// Constructed baseline/candidate pairs with known answers for the playbook tests. Every number
// is chosen so that the expected mechanism follows from first principles; the comments say why.

#include "data/project.h"
#include "playbook/playbookstate.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bs::fixtures {

/// A small deterministic generator (64-bit LCG), so fixtures are identical everywhere.
class Lcg
{
public:
    explicit Lcg(std::uint64_t seed)
        : m_state(seed * 6364136223846793005ULL + 1442695040888963407ULL)
    {}
    double uniform() // [0, 1)
    {
        m_state = m_state * 6364136223846793005ULL + 1442695040888963407ULL;
        return double(m_state >> 11) * 0x1.0p-53;
    }
    double exponential(double mean) { return -mean * std::log(1.0 - uniform()); }

private:
    std::uint64_t m_state;
};

/// Fully recorded run tags; `extra` adds free keys.
inline data::RunTags tags(std::map<std::string, std::string> extra = {},
                          std::string compiler = "TensorRT 10.0.1")
{
    data::RunTags t;
    t.workloadSeed = "42";
    t.modelRevision = "model-v1";
    t.compiler = std::move(compiler);
    t.firmware = "535.104.05";
    t.runtime = "Triton 24.05";
    t.hardware = "H100-SXM";
    t.extra = std::move(extra);
    return t;
}

/// A sweep row: service-like latencies (p50 = service, tail percentiles spread around it).
inline data::SweepPoint point(int batch, double throughputPerS, double p99S,
                              std::optional<double> powerW = std::nullopt,
                              std::uint64_t samples = 20000)
{
    data::SweepPoint p;
    p.batchSize = batch;
    p.throughputPerS = throughputPerS;
    p.latencyMeanS = p99S * 0.55;
    p.latencyP50S = p99S * 0.5;
    p.latencyP90S = p99S * 0.75;
    p.latencyP95S = p99S * 0.85;
    p.latencyP99S = p99S;
    p.latencyP999S = p99S * 1.2;
    p.powerW = powerW;
    if (powerW)
        p.energyPerInferenceJ = *powerW / throughputPerS;
    p.sampleCount = samples;
    return p;
}

/// The batch sizes of every sweep fixture: 1, 2, 4, ..., 256.
inline std::vector<int> batches()
{
    return {1, 2, 4, 8, 16, 32, 64, 128, 256};
}

/// A sweep whose service time is base + perItem·b; `slowdown(b)` multiplies it (1 = same).
template <typename Slowdown>
data::SweepTable sweep(const std::string& name, double baseS, double perItemS, Slowdown slowdown,
                       std::function<std::optional<double>(int)> power = {})
{
    data::SweepTable table;
    table.name = name;
    for (int b : batches()) {
        const double serviceS = (baseS + perItemS * b) * slowdown(b);
        table.points.push_back(
            point(b, b / serviceS, 2.0 * serviceS, power ? power(b) : std::nullopt));
    }
    return table;
}

inline data::Dataset sweepDataset(const std::string& id, data::DatasetRole role,
                                  data::SweepTable table, data::RunTags runTags)
{
    data::Dataset d;
    d.id = id;
    d.name = table.name;
    d.role = role;
    d.tags = std::move(runTags);
    d.provenance.reader = "perf_analyzer";
    d.provenance.path = "/data/" + table.name + ".csv";
    d.provenance.sha256 = std::string(64, 'a');
    d.provenance.sizeBytes = 1234;
    d.setContent(std::make_shared<const data::SweepTable>(std::move(table)));
    return d;
}

/// A request trace at `ratePerS` for `count` requests: queue wait uniform in [0, maxWaitS]
/// (a max-queue-delay batcher at low load waits up to its delay), service `serviceS` ±5%.
inline data::RequestTrace requestTrace(const std::string& name, std::uint64_t seed,
                                       std::size_t count, double ratePerS, double maxWaitS,
                                       double serviceS)
{
    Lcg rng(seed);
    data::RequestTrace t;
    t.name = name;
    double now = 0.0;
    for (std::size_t i = 0; i < count; ++i) {
        now += rng.exponential(1.0 / ratePerS);
        const double dispatch = now + maxWaitS * rng.uniform();
        const double done = dispatch + serviceS * (0.95 + 0.1 * rng.uniform());
        t.arrivalS.push_back(now);
        t.dispatchS.push_back(dispatch);
        t.completionS.push_back(done);
    }
    return t;
}

inline data::Dataset traceDataset(const std::string& id, data::DatasetRole role,
                                  data::RequestTrace trace, data::RunTags runTags)
{
    data::Dataset d;
    d.id = id;
    d.name = trace.name;
    d.role = role;
    d.tags = std::move(runTags);
    d.provenance.reader = "request_csv";
    d.provenance.path = "/data/" + trace.name + ".csv";
    d.provenance.sha256 = std::string(64, 'b');
    d.setContent(std::make_shared<const data::RequestTrace>(std::move(trace)));
    return d;
}

/// A power log: 60 s idle at 60 W, then load at 320 W with the temperature rising from 45 °C to
/// the 87 °C limit; from there the SM clock falls from 1980 MHz to 1500 MHz (thermal throttling).
/// `throttles` false keeps the clock at 1980 MHz and the temperature at 70 °C.
inline data::PowerSeries powerLog(const std::string& name, bool throttles)
{
    data::PowerSeries s;
    s.name = name;
    s.readingWindowS = 1.0;
    const double t0 = 1.7e9;
    for (int i = 0; i < 600; ++i) {
        const bool idle = i < 60;
        double temperature = idle ? 40.0 : 45.0 + 42.0 * std::min(1.0, (i - 60) / 300.0);
        if (!throttles && !idle)
            temperature = std::min(temperature, 70.0);
        const bool hot = throttles && temperature >= 86.9;
        s.timeS.push_back(t0 + i);
        s.powerW.push_back(idle ? 60.0 : (hot ? 250.0 : 320.0));
        s.smClockMHz.push_back(idle ? 1980.0 : (hot ? 1500.0 : 1980.0));
        s.temperatureC.push_back(temperature);
    }
    return s;
}

inline data::Dataset powerDataset(const std::string& id, data::DatasetRole role,
                                  data::PowerSeries series, data::RunTags runTags)
{
    data::Dataset d;
    d.id = id;
    d.name = series.name;
    d.role = role;
    d.tags = std::move(runTags);
    d.provenance.reader = "nvidia_smi";
    d.provenance.path = "/data/" + series.name + ".csv";
    d.setContent(std::make_shared<const data::PowerSeries>(std::move(series)));
    return d;
}

/// Playbook state that keeps the simulations small (tests stay fast).
inline playbook::PlaybookState fastState()
{
    playbook::PlaybookState state;
    state.options.maxSimulatedRequests = 4000;
    state.options.minReplications = 3;
    return state;
}

/// fastState() with the difference under review accepted, as a reviewer records it in step 1,
/// so the later steps conclude (an unaccepted difference blocks them).
inline playbook::PlaybookState reviewState(const std::string& keyUnderReview)
{
    auto state = fastState();
    state.accept(keyUnderReview, "the " + keyUnderReview + " change is the change under review");
    return state;
}

/// A Poisson / dynamic batching scenario with a linear service time (JSON, as in a project).
inline nlohmann::json linearScenario(double ratePerS, int maxBatch, double delayMs,
                                     std::uint64_t seed = 42)
{
    return {
        {"name", "Poisson traffic, dynamic batching"},
        {"seed", seed},
        {"requests", 4000},
        {"warmup_requests", 500},
        {"replications", 3},
        {"arrivals", {{"kind", "poisson"}, {"rate_per_s", ratePerS}}},
        {"policy", {{"kind", "dynamic"}, {"max_batch", maxBatch}, {"max_queue_delay_ms", delayMs}}},
        {"servers", {{"count", 1}}},
        {"service", {{"kind", "linear"}, {"base_ms", 1.0}, {"per_item_ms", 0.2}}}};
}

using data::DatasetRole;

/// Service 2 ms + 0.1 ms/item; the candidate is 30% slower from batch 64 up and draws the same
/// power: a slowdown that starts only at large batch, as throttling does. With power logs the
/// candidate's SM clock falls from 1980 to 1500 MHz when the temperature reaches 87 °C.
inline data::Project thermalProject(bool withPowerLogs)
{
    data::Project project;
    project.title = "Large-batch slowdown";
    auto power = [](int b) {
        return std::optional<double>(100.0 + 250.0 * std::min(1.0, b / 64.0));
    };
    project.datasets.push_back(
        sweepDataset("ds1", DatasetRole::Baseline,
                     sweep(
                         "baseline sweep", 2e-3, 1e-4, [](int) { return 1.0; }, power),
                     tags()));
    project.datasets.push_back(sweepDataset(
        "ds2", DatasetRole::Candidate,
        sweep(
            "candidate sweep", 2e-3, 1e-4, [](int b) { return b >= 64 ? 1.3 : 1.0; }, power),
        tags()));
    if (withPowerLogs) {
        project.datasets.push_back(
            powerDataset("ds3", DatasetRole::Baseline, powerLog("baseline smi", false), tags()));
        project.datasets.push_back(
            powerDataset("ds4", DatasetRole::Candidate, powerLog("candidate smi", true), tags()));
    }
    return project;
}

/// Request traces at `ratePerS`: the baseline waits up to 1 ms in the queue, the candidate up to
/// 8 ms (its max queue delay was raised from 1 to 8 ms); service is 2 ms in both. With the
/// scenario: the target traffic is 800 req/s Poisson into a dynamic batcher (max batch 16, the
/// candidate's 8 ms delay); a batch of 16 takes 20 ms to fill, so requests wait the full delay.
inline data::Project schedulingProject(bool withScenario)
{
    data::Project project;
    project.title = "Queue delay regression";
    const double rate = withScenario ? 800.0 : 1000.0;
    project.datasets.push_back(traceDataset(
        "ds1", DatasetRole::Baseline, requestTrace("baseline requests", 1, 20000, rate, 1e-3, 2e-3),
        tags({{"max_queue_delay_ms", "1"}})));
    project.datasets.push_back(
        traceDataset("ds2", DatasetRole::Candidate,
                     requestTrace("candidate requests", 2, 20000, rate, 8e-3, 2e-3),
                     tags({{"max_queue_delay_ms", "8"}})));
    if (withScenario) {
        project.scenarios = nlohmann::json::array({linearScenario(800.0, 16, 8.0)});
        project.region = {{"sla_p99_ms", 10.0}};
    }
    return project;
}

} // namespace bs::fixtures
