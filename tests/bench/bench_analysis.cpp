// Trace analytics on big inputs, after loading (issue: "analysing a 10-million-request trace
// and a 10-million-event kernel trace, each under 2 s on one core"). The traces are generated
// in memory with a fixed seed: Poisson arrivals at 20,000 req/s served in batches (dispatch,
// completion, batch id and size, 4 streams), and a Kineto-like trace of runtime launches joined
// to kernels by correlation on 4 streams, in ProfilerStep annotations. The analyses run on the
// calling thread (one core); figures are medians of 3 runs, wall and thread CPU time.
#include "analysis/kernelanalysis.h"
#include "analysis/requestanalysis.h"
#include "benchtiming.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <time.h>
#include <vector>

using namespace bs;

namespace {

using bench::Timing;

data::RequestTrace requestTrace(std::size_t requests)
{
    std::mt19937_64 rng(20261202);
    std::exponential_distribution<double> gap(20000.0);
    data::RequestTrace trace;
    trace.name = "generated";
    trace.arrivalS.resize(requests);
    trace.dispatchS.resize(requests);
    trace.completionS.resize(requests);
    trace.batchId.resize(requests);
    trace.batchSize.resize(requests);
    trace.streamIndex.resize(requests);
    trace.streamNames = {"a", "b", "c", "d"};
    double now = 0.0, serverFree = 0.0;
    std::size_t i = 0;
    std::int64_t batch = 0;
    while (i < requests) {
        // Greedy batches of up to 32: whoever arrived by the time the server is free.
        const std::size_t first = i;
        do {
            now += gap(rng);
            trace.arrivalS[i] = now;
            trace.streamIndex[i] = std::uint32_t(rng() % 4);
            ++i;
        } while (i < requests && i - first < 32 && now < serverFree);
        const double start = std::max(serverFree, now);
        const double service = 0.0008 + 0.00005 * double(i - first);
        for (std::size_t r = first; r < i; ++r) {
            trace.dispatchS[r] = start;
            trace.completionS[r] = start + service;
            trace.batchId[r] = batch;
            trace.batchSize[r] = std::int32_t(i - first);
        }
        serverFree = start + service;
        ++batch;
    }
    return trace;
}

data::KernelTrace kernelTrace(std::size_t events)
{
    std::mt19937_64 rng(20261203);
    data::KernelTrace trace;
    trace.name = "generated";
    trace.names = {"ProfilerStep#", "cudaLaunchKernel", "ampere_fp16_s16816gemm_fp16_128x128",
                   "vectorized_elementwise_kernel", "Memcpy HtoD (Pinned -> Device)"};
    trace.events.reserve(events);
    double deviceTime = 0.0;
    std::int64_t correlation = 0;
    const std::size_t perStep = 10000;
    while (trace.events.size() + 3 <= events) {
        if (correlation % std::int64_t(perStep) == 0) {
            data::KernelEvent step;
            step.startS = deviceTime;
            step.durationS = double(perStep) * 12e-6;
            step.nameId = 0;
            step.category = data::EventCategory::UserAnnotation;
            trace.names.push_back("ProfilerStep#" +
                                  std::to_string(correlation / std::int64_t(perStep)));
            step.nameId = std::uint32_t(trace.names.size() - 1);
            trace.events.push_back(step);
        }
        data::KernelEvent launch;
        launch.startS = deviceTime;
        launch.durationS = 4e-6;
        launch.correlation = correlation;
        launch.nameId = 1;
        launch.category = data::EventCategory::Runtime;
        trace.events.push_back(launch);
        data::KernelEvent kernel;
        kernel.startS = deviceTime + 5e-6;
        kernel.durationS = 2e-6 + double(rng() % 8) * 1e-6;
        kernel.correlation = correlation;
        kernel.nameId = std::uint32_t(2 + rng() % 3);
        kernel.category =
            kernel.nameId == 4 ? data::EventCategory::Memcpy : data::EventCategory::Kernel;
        kernel.device = 0;
        kernel.stream = std::int32_t(7 + rng() % 4);
        kernel.tid = kernel.stream;
        trace.events.push_back(kernel);
        deviceTime += 12e-6;
        ++correlation;
    }
    return trace;
}

} // namespace

int main()
{
    constexpr std::size_t kCount = 10'000'000;
    const auto requests = requestTrace(kCount);
    std::uint64_t analysed = 0;
    const Timing requestTiming = bench::medianOf(3, [&] {
        auto result = analysis::analyzeRequests(requests);
        analysed = result ? result->requests : 0;
    });
    std::printf(
        "request trace, %zu requests (arrival, dispatch, completion, batches, 4 streams):\n",
        kCount);
    std::printf("  analyzeRequests median %.2f s wall, %.2f s CPU (goal < 2 s on one core); %llu "
                "analysed\n",
                requestTiming.wallS, requestTiming.cpuS, static_cast<unsigned long long>(analysed));

    const auto kernels = kernelTrace(kCount);
    std::uint64_t kernelCount = 0;
    const Timing kernelTiming = bench::medianOf(3, [&] {
        auto result = analysis::analyzeKernels(kernels);
        kernelCount = result ? result->kernels + result->memoryOps : 0;
    });
    std::printf(
        "kernel trace, %zu events (launches joined to kernels and copies, 4 streams, steps):\n",
        kernels.events.size());
    std::printf("  analyzeKernels median %.2f s wall, %.2f s CPU (goal < 2 s on one core); %llu "
                "device events\n",
                kernelTiming.wallS, kernelTiming.cpuS,
                static_cast<unsigned long long>(kernelCount));
    return 0;
}
