// Feasible-region analysis (issue 7): a 16 (max batch) x 12 (max queue delay) x 10 (rate)
// grid around the demo scenario (ResNet-50 on a T4-class GPU, bursty MMPP traffic, 100,000
// measured requests and 5 replications per cell), SLA p99 10 ms, 60 W per server.
// `bench_region poisson [runs]` runs the same grid with Poisson arrivals (the goal below is for
// it); `bench_region [runs]` the bursty one, whose short runs and full runs must cover enough
// MMPP dwell cycles (core/sim/README.md, "Run length") and cost accordingly.
// Prints, as medians of `runs` repetitions (default 3):
//  - the time of the whole analysis on 2 threads (coarse pass, refinement, capacity curves,
//    recommendation and headroom) - goal <= 10 s;
//  - the time to the first complete coarse preview - goal <= 1 s;
//  - the speed-up from 1 to 2 threads - goal >= 1.8x;
// with each phase's time and how much was simulated. Wall times on a shared machine include
// waiting for a core, so the process CPU time is printed too.
#include "analysis/region.h"
#include "sim/scenariojson.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <sys/resource.h>
#include <vector>

using namespace bs;

namespace {

using Clock = std::chrono::steady_clock;

const char* kSpec = R"({
  "scenario": {
    "name": "demo-dynamic (resources/demo/scenarios) with 100,000 requests per replication",
    "seed": 20240611, "requests": 100000, "warmup_requests": 10000, "replications": 5,
    "arrivals": {"kind": "mmpp2", "rates_per_s": [3000, 6500], "mean_dwell_s": [0.4, 0.1]},
    "policy": {"kind": "dynamic", "max_batch": 32, "max_queue_delay_ms": 2},
    "service": {"kind": "table", "batch": [1, 2, 4, 8, 16, 32, 64, 128, 256],
                "latency_ms": [0.78, 0.93, 1.23, 1.83, 3.05, 5.64, 10.81, 21.17, 41.88],
                "distribution": {"kind": "lognormal", "cv": 0.05}},
    "power": {"idle_w": 10, "busy_w": 65}},
  "axes": [
    {"name": "max_batch", "values": [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256]},
    {"name": "max_queue_delay_ms", "values": [0, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 8, 10]},
    {"name": "rate_per_s", "values": [500, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 4500, 5000]}],
  "constraints": {"sla_p99_ms": 10, "max_power_w": 60}
})";

double processCpuS()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const auto seconds = [](const timeval& t) {
        return double(t.tv_sec) + double(t.tv_usec) * 1e-6;
    };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

struct Run
{
    double wallS = 0.0;
    double cpuS = 0.0;
    double previewS = 0.0;
    std::map<std::string, double> phaseStartS;
    analysis::RegionResult result;
};

Run runOnce(const analysis::RegionSpec& spec, std::size_t threads)
{
    Run run;
    const auto start = Clock::now();
    const double cpuStart = processCpuS();
    const auto since = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    Progress progress([&](const ProgressUpdate& u) {
        if (!run.phaseStartS.contains(u.phase))
            run.phaseStartS[u.phase] = since();
    });
    analysis::RegionOptions options;
    options.threads = threads;
    auto result =
        analysis::computeRegion(spec, options, progress, CancelToken(),
                                [&](const analysis::RegionResult&) { run.previewS = since(); });
    run.wallS = since();
    run.cpuS = processCpuS() - cpuStart;
    if (!result) {
        std::fprintf(stderr, "region failed: %s\n", result.error().toString().c_str());
        std::exit(1);
    }
    run.result = std::move(*result);
    return run;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void printPhases(const Run& run)
{
    const char* order[] = {"screening cells", "refining cells and capacity curves",
                           "confirming boundary cells", "headroom"};
    std::printf("  phases of the last 2-thread run (start times):");
    for (const char* phase : order) {
        const auto it = run.phaseStartS.find(phase);
        if (it != run.phaseStartS.end())
            std::printf("  %s %.2f s", phase, it->second);
    }
    std::printf("  end %.2f s\n", run.wallS);
}

void printWork(const analysis::RegionResult& r)
{
    const auto& s = r.summary;
    int capacityProbes = 0;
    std::uint64_t capacityRequests = 0;
    for (const auto& p : r.capacity) {
        capacityProbes += p.evaluations;
        capacityRequests += p.simulatedRequests;
    }
    std::printf("  cells: %zu feasible, %zu infeasible, %zu unstable, %zu errors; %zu decided by "
                "short runs, %zu simulated in full, %zu analytic, %zu not confident\n",
                s.feasible, s.infeasible, s.unstable, s.errors, s.shortRun, s.simulated, s.analytic,
                s.notConfident);
    std::printf("  requests simulated by the cells: %.1f million; capacity probes: %d over %zu "
                "policies, %.1f million requests; headroom probes: %d\n",
                double(s.simulatedRequests) / 1e6, capacityProbes, r.capacity.size(),
                double(capacityRequests) / 1e6,
                r.recommendation && r.recommendation->headroom
                    ? r.recommendation->headroom->evaluations
                    : 0);
}

} // namespace

int main(int argc, char** argv)
{
    // "bench_region [poisson] work": one 2-thread run, printing what was simulated (for tuning).
    std::vector<std::string> args(argv + 1, argv + argc);
    const bool poisson = !args.empty() && args.front() == "poisson";
    if (poisson)
        args.erase(args.begin());
    const bool workOnly = !args.empty() && args.front() == "work";
    const int runs = !args.empty() && !workOnly ? std::max(1, std::atoi(args.front().c_str())) : 3;
    nlohmann::json json = nlohmann::json::parse(kSpec);
    if (poisson) {
        json["scenario"]["arrivals"] = {{"kind", "poisson"}, {"rate_per_s", 3700}};
        json["scenario"]["name"] = "demo-dynamic with Poisson arrivals, 100,000 requests";
    }
    auto spec = analysis::regionSpecFromJson(json, "bench");
    if (!spec) {
        std::fprintf(stderr, "bad bench spec: %s\n", spec.error().toString().c_str());
        return 1;
    }
    if (workOnly) {
        const Run run = runOnce(*spec, 2);
        std::printf("one 2-thread run: %.2f s wall, %.2f s CPU, preview after %.2f s\n", run.wallS,
                    run.cpuS, run.previewS);
        printPhases(run);
        printWork(run.result);
        return 0;
    }
    std::printf("bench_region: %s arrivals, 16 x 12 x 10 = 1920 cells, 100,000 requests x 5 "
                "replications per cell, medians of %d run(s)\n",
                poisson ? "Poisson" : "bursty MMPP-2", runs);
    std::printf("(the machine may be shared: wall times include waiting for a core)\n\n");
    std::vector<double> wall2, cpu2, preview2, wall1, cpu1, preview1;
    Run last2;
    Run last1;
    for (int i = 0; i < runs; ++i) {
        last2 = runOnce(*spec, 2);
        wall2.push_back(last2.wallS);
        cpu2.push_back(last2.cpuS);
        preview2.push_back(last2.previewS);
        last1 = runOnce(*spec, 1);
        wall1.push_back(last1.wallS);
        cpu1.push_back(last1.cpuS);
        preview1.push_back(last1.previewS);
    }
    const bool identical = last1.result == last2.result;
    std::printf("whole analysis, 2 threads     %.2f s wall (%.2f s CPU)   goal <= 10 s\n",
                median(wall2), median(cpu2));
    std::printf("first complete preview        %.2f s                    goal <= 1 s\n",
                median(preview2));
    std::printf("whole analysis, 1 thread      %.2f s wall (%.2f s CPU), preview after %.2f s\n",
                median(wall1), median(cpu1), median(preview1));
    std::printf("speed-up 1 -> 2 threads       %.2fx                     goal >= 1.8x\n",
                median(wall1) / median(wall2));
    std::printf("1- and 2-thread results       %s\n", identical ? "identical" : "DIFFER");
    printPhases(last2);
    printWork(last2.result);
    return identical ? 0 : 1;
}
