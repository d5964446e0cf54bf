// LLM simulator speed: the Azure LLM code trace (8,819 requests with their token counts, one
// hour) looped for 24 hours (about 212,000 requests) on vllm_v1 with the operator-profile step
// model of Llama-3.1-8B. Prints engine steps/s and simulated tokens/s per second of one core,
// and the peak resident memory. Needs the shared data folder (BATCHSCOPE_SHARED_DATA or
// ../shared/data next to the source tree).
#include "benchtiming.h"
#include "llmsim/llmsimulator.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/resource.h>

using namespace bs;

namespace {

std::string sharedData()
{
    if (const char* env = std::getenv("BATCHSCOPE_SHARED_DATA"))
        return env;
    return BATCHSCOPE_SHARED_DATA_DEFAULT;
}

} // namespace

int main()
{
    const std::string shared = sharedData();
    const std::string profile =
        shared + "/llm/llmservingsim/profiler/perf/RTX4090/meta-llama/Llama-3.1-8B/bf16/tp1";
    if (!std::filesystem::exists(profile)) {
        std::printf("bench_llmsim: shared data not found at %s: skipped\n", shared.c_str());
        return 0;
    }
    llmsim::LlmScenario scenario;
    scenario.engine.maxNumSeqs = 256;
    scenario.engine.maxNumBatchedTokens = 2048;
    // An 80 GB accelerator's KV cache for Llama-3.1-8B (128 KiB per token, ~60 GB free).
    scenario.engine.numGpuBlocks = 28000;
    scenario.step.kind = llmsim::StepSpec::Kind::Profile;
    scenario.step.profileDirectory = profile;
    scenario.step.modelConfig =
        shared + "/llm/llmservingsim/configs/model/meta-llama/Llama-3.1-8B.json";
    scenario.arrivals.file =
        shared + "/arrival_traces/azure_llm_2023/AzureLLMInferenceTrace_code.csv";
    scenario.arrivals.repeat = 24;

    Expected<llmsim::LlmResult> result = makeError(ErrorCode::Internal, "not run");
    const bench::Timing timing = bench::timed([&] { result = llmsim::simulateLlm(scenario); });
    if (!result) {
        std::fprintf(stderr, "bench_llmsim: %s\n", result.error().toString().c_str());
        return 1;
    }
    const auto& m = result->replications[0];
    double tokens = 0.0;
    for (const auto& r : result->requests)
        tokens += double(r.promptTokens) + r.outputTokens;
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("Azure code trace x 24 (%zu requests, %.1f simulated hours) on vllm_v1, profile "
                "step (Llama-3.1-8B / RTX 4090 operators), %lld KV blocks\n",
                result->requests.size(), m.durationS / 3600.0,
                static_cast<long long>(scenario.engine.numGpuBlocks));
    std::printf("  wall %.3f s, cpu %.3f s (reading the trace included)\n", timing.wallS,
                timing.cpuS);
    std::printf("  %lld steps: %.0f steps/s of cpu\n", static_cast<long long>(m.steps),
                double(m.steps) / timing.cpuS);
    std::printf("  %.3g prompt+output tokens: %.3g simulated tokens/s of cpu\n", tokens,
                tokens / timing.cpuS);
    std::printf("  simulated: TTFT p99 %.1f ms, TPOT p99 %.1f ms, %lld preemptions\n",
                m.ttft.p99S * 1e3, m.tpot.p99S * 1e3, static_cast<long long>(m.preemptions));
    std::printf("  peak resident memory %.0f MB\n", double(usage.ru_maxrss) / 1024.0);
    return 0;
}
