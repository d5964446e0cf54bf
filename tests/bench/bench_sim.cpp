// Simulator throughput: simulated requests per second on one core, and the ratio to the floor
// (merely drawing the same arrival and service random numbers). Figures are medians of 3 runs,
// as wall time and as the thread's CPU time (user + system): on a shared machine the CPU time
// is what one core actually spent, the wall time includes waiting for a core.
#include "benchtiming.h"
#include "sim/rng.h"
#include "sim/scenariojson.h"
#include "sim/simulator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <numeric>
#include <sys/resource.h>
#include <time.h>
#include <vector>

using namespace bs;

namespace {

using bench::median;
using bench::timed;
using bench::Timing;

sim::Scenario scenario(const char* json)
{
    auto parsed = sim::scenarioFromJson(nlohmann::json::parse(json), "bench");
    if (!parsed) {
        std::fprintf(stderr, "bad bench scenario: %s\n", parsed.error().toString().c_str());
        std::exit(1);
    }
    return *parsed;
}

/// The floor: the same number of arrival draws (exponentials, or MMPP's exponentials for
/// gaps and dwell switches approximated by one exponential per arrival) and service draws.
Timing drawFloor(std::uint64_t arrivals, std::uint64_t batches, const sim::Variability& service)
{
    const sim::VariabilitySampler sampler(service);
    volatile double sink = 0.0;
    return timed([&] {
        sim::Rng arrivalRng(1, sim::kFirstArrivalStream);
        sim::Rng serviceRng(1, sim::kServiceStream);
        double t = 0.0;
        for (std::uint64_t i = 0; i < arrivals; ++i)
            t += arrivalRng.exponential();
        double s = 0.0;
        for (std::uint64_t i = 0; i < batches; ++i)
            s += sampler.draw(serviceRng);
        sink = t + s;
    });
}

struct Figures
{
    Timing median;
    std::uint64_t simulated = 0;
    std::uint64_t batches = 0;
    double p99Ms = 0.0;
    double meanBatch = 0.0;
};

Figures runScenario(const sim::Scenario& s)
{
    Figures f;
    std::vector<Timing> times;
    for (int run = 0; run < 3; ++run) {
        Expected<sim::Result> result = makeError(ErrorCode::Internal, "not run");
        times.push_back(timed([&] { result = sim::simulate(s, {1, nullptr, {}}); }));
        if (!result || !result->stability.stable) {
            std::fprintf(stderr, "simulation failed: %s\n",
                         result ? result->stability.reason.c_str()
                                : result.error().toString().c_str());
            std::exit(1);
        }
        f.batches = std::accumulate(result->batchSizeCounts.begin(), result->batchSizeCounts.end(),
                                    std::uint64_t(0));
        f.p99Ms = result->latency.p99.value * 1000.0;
        f.meanBatch = result->meanBatchSize.value;
    }
    f.median = median(times);
    f.simulated = s.requests + s.warmupRequests;
    return f;
}

void report(const char* name, const sim::Scenario& s)
{
    const Figures f = runScenario(s);
    std::vector<Timing> floors;
    for (int run = 0; run < 3; ++run)
        floors.push_back(drawFloor(f.simulated, f.batches, s.service.distribution));
    const Timing floor = median(floors);
    const double n = double(f.simulated);
    std::printf("%s\n", name);
    std::printf("  requests simulated         %llu (mean batch %.2f, p99 %.3f ms)\n",
                static_cast<unsigned long long>(f.simulated), f.meanBatch, f.p99Ms);
    std::printf("  simulation, CPU time       %.3f s = %.1f million requests/s on one core\n",
                f.median.cpuS, n / f.median.cpuS / 1e6);
    std::printf("  simulation, wall time      %.3f s = %.1f million requests/s\n", f.median.wallS,
                n / f.median.wallS / 1e6);
    std::printf("  random draws alone         %.3f s CPU, %.3f s wall\n", floor.cpuS, floor.wallS);
    std::printf("  ratio simulation / draws   %.2f CPU, %.2f wall (goal <= 5)\n",
                f.median.cpuS / floor.cpuS, f.median.wallS / floor.wallS);
}

} // namespace

int main()
{
    std::printf("bench_sim: one replication, one thread, percentiles included\n\n");
    report("Poisson + dynamic (B=32, T=2 ms) + 1 server, 10 million requests",
           scenario(R"({"seed": 1, "requests": 10000000, "warmup_requests": 100000,
                "replications": 1, "arrivals": {"kind": "poisson", "rate_per_s": 5000},
                "policy": {"kind": "dynamic", "max_batch": 32, "max_queue_delay_ms": 2},
                "service": {"kind": "linear", "base_ms": 1.0, "per_item_ms": 0.1,
                            "distribution": {"kind": "gamma", "cv": 0.2}}})"));
    report("MMPP-2 + dynamic (B=32, T=2 ms) + 8 servers (shared queue), 10 million requests",
           scenario(R"({"seed": 1, "requests": 10000000, "warmup_requests": 100000,
                "replications": 1,
                "arrivals": {"kind": "mmpp2", "rates_per_s": [20000, 60000],
                             "mean_dwell_s": [0.5, 0.1]},
                "policy": {"kind": "dynamic", "max_batch": 32, "max_queue_delay_ms": 2},
                "servers": {"count": 8},
                "service": {"kind": "linear", "base_ms": 1.0, "per_item_ms": 0.1,
                            "distribution": {"kind": "gamma", "cv": 0.2}}})"));
    report("MMPP-2 + dynamic (B=32, T=2 ms) + 8 servers (least_loaded queues), 2 million",
           scenario(R"({"seed": 1, "requests": 2000000, "warmup_requests": 100000,
                "replications": 1,
                "arrivals": {"kind": "mmpp2", "rates_per_s": [20000, 60000],
                             "mean_dwell_s": [0.5, 0.1]},
                "policy": {"kind": "dynamic", "max_batch": 32, "max_queue_delay_ms": 2},
                "servers": {"count": 8, "placement": "least_loaded"},
                "service": {"kind": "linear", "base_ms": 1.0, "per_item_ms": 0.1,
                            "distribution": {"kind": "gamma", "cv": 0.2}}})"));
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("\npeak resident memory %.0f MB (latency store: 8 bytes x 10 million = 80 MB)\n",
                double(usage.ru_maxrss) / 1024.0);
    return 0;
}
