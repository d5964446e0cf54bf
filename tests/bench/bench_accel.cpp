// Accelerator model cost: nanoseconds per Model::serveBatch (the simulator calls it once per
// batch; the first call builds the model's per-batch table, inside the first timed run) and per
// Model::predict, and the time of one fitToSweep on an 11-point sweep. Medians of
// 5 runs, as thread CPU time (what one core spent; the machine may be shared).
#include "accel/calibration.h"
#include "accel/model.h"
#include "accel/presetlibrary.h"
#include "benchtiming.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <time.h>
#include <vector>

using namespace bs;
using namespace bs::accel;

namespace {

/// The median CPU time of `runs` calls of `body`.
double medianCpuS(const std::function<void()>& body, int runs = 5)
{
    return bench::medianOf(runs, body).cpuS;
}

Model model(const nlohmann::json& params)
{
    return *modelFromJson(params, "bench", {});
}

/// Back-to-back batches of varying size with idle gaps, so cooling, the cap and throttling all
/// take their branches.
void serveBatches(const Model& m, int count, int firstBatch, double& sink)
{
    ThermalState state = m.initialThermalState();
    double now = 0.0;
    for (int i = 0; i < count; ++i) {
        const int batch = firstBatch + (i * 37) % 256;
        const BatchCost cost = m.serveBatch(batch, state, now);
        now += cost.serviceS + ((i & 7) == 0 ? 1e-3 : 0.0);
        sink += cost.energyJ;
    }
}

} // namespace

int main()
{
    const int calls = 2'000'000;
    double sink = 0.0;
    struct Case
    {
        const char* name;
        nlohmann::json params;
    };
    const std::vector<Case> cases = {
        {"hard max, no cap", {{"accelerator", "h100-sxm"}, {"workload", "resnet50"}}},
        {"smooth max p=4, cap 400 W, 45 °C inlet (throttles)",
         {{"accelerator", "h100-sxm"},
          {"workload", "resnet50"},
          {"smooth_max_p", 4},
          {"power_cap_w", 400},
          {"thermal", {{"ambient_c", 45}, {"throttle_c", 80}}}}},
    };
    std::printf("serveBatch, %d calls per run\n", calls);
    for (const auto& c : cases) {
        const Model m = model(c.params);
        const double s = medianCpuS([&] { serveBatches(m, calls, 1, sink); });
        std::printf("  %-52s %7.1f ns/call\n", c.name, s / calls * 1e9);
    }
    {
        // Above Model::kServeTableBatches the cost is computed per call.
        const Model m = model(cases[1].params);
        const double s = medianCpuS([&] { serveBatches(m, calls, 2000, sink); });
        std::printf("  %-52s %7.1f ns/call\n", "same, batches 2000-2255 (beyond the table)",
                    s / calls * 1e9);
    }
    const Model m = model(cases[1].params);
    const double predictS = medianCpuS([&] {
        for (int i = 0; i < calls; ++i)
            sink += m.predict(1 + i % 1024).serviceS;
    });
    std::printf("predict (smooth max, cap)                              %7.1f ns/call\n",
                predictS / calls * 1e9);

    data::SweepTable sweep;
    for (int b = 1; b <= 1024; b *= 2) {
        data::SweepPoint p;
        p.batchSize = b;
        p.latencyMeanS = m.predict(b).serviceS * (1.0 + 0.01 * ((b * 7) % 5 - 2));
        sweep.points.push_back(p);
    }
    FitOptions options;
    options.start = m.params();
    const double fitS = medianCpuS([&] {
        auto fit = fitToSweep(sweep, options);
        sink += fit ? fit->rSquared : 0.0;
    });
    std::printf("fitToSweep, 11 points, workload unknown              %7.2f ms\n", fitS * 1e3);
    std::printf("(checksum %g)\n", sink);
    return 0;
}
