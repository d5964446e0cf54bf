// LLM simulator speed: the Azure LLM code trace (8,819 requests with their token counts, one
// hour) looped for 24 hours (about 212,000 requests) on vllm_v1, first with the operator-profile
// step model of Llama-3.1-8B, then with the roofline step of the same model on the H100 preset
// (with per-step power and the thermal state). Prints engine steps/s and simulated tokens/s per
// second of one core, and the peak resident memory. Needs the shared data folder
// (BATCHSCOPE_SHARED_DATA or
// ../shared/data next to the source tree).
#include "accel/presetlibrary.h"
#include "benchtiming.h"
#include "llmsim/llmsimulator.h"

#include <cmath>
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

/// Runs the looped trace on `step` and prints the figures; false when the run failed.
bool runVariant(llmsim::LlmScenario scenario, const llmsim::StepSpec& step, const char* label)
{
    scenario.step = step;
    Expected<llmsim::LlmResult> result = makeError(ErrorCode::Internal, "not run");
    const bench::Timing timing = bench::timed([&] { result = llmsim::simulateLlm(scenario); });
    if (!result) {
        std::fprintf(stderr, "bench_llmsim: %s\n", result.error().toString().c_str());
        return false;
    }
    const auto& m = result->replications[0];
    double tokens = 0.0;
    for (const auto& r : result->requests)
        tokens += double(r.promptTokens) + r.outputTokens;
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("Azure code trace x 24 (%zu requests, %.1f simulated hours) on vllm_v1, %s, %lld "
                "KV blocks\n",
                result->requests.size(), m.durationS / 3600.0, label,
                static_cast<long long>(scenario.engine.numGpuBlocks));
    std::printf("  wall %.3f s, cpu %.3f s (reading the trace included)\n", timing.wallS,
                timing.cpuS);
    std::printf("  %lld steps: %.0f steps/s of cpu\n", static_cast<long long>(m.steps),
                double(m.steps) / timing.cpuS);
    std::printf("  %.3g prompt+output tokens: %.3g simulated tokens/s of cpu\n", tokens,
                tokens / timing.cpuS);
    std::printf("  simulated: TTFT p99 %.1f ms, TPOT p99 %.1f ms, %lld preemptions\n",
                m.ttft.p99S * 1e3, m.tpot.p99S * 1e3, static_cast<long long>(m.preemptions));
    if (std::isfinite(m.energyJ))
        std::printf("  simulated: %.1f kWh, %.0f W mean, %.3f J per output token\n",
                    m.energyJ / 3.6e6, m.meanPowerW, m.energyPerOutputTokenJ);
    std::printf("  peak resident memory so far %.0f MB\n", double(usage.ru_maxrss) / 1024.0);
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    // One variant by name (profile, roofline) for its own peak memory; both by default.
    const std::string only = argc > 1 ? argv[1] : "";
    const std::string shared = sharedData();
    const std::string profile =
        shared + "/llm/llmservingsim/profiler/perf/RTX4090/meta-llama/Llama-3.1-8B/bf16/tp1";
    if (!std::filesystem::exists(profile)) {
        std::printf("bench_llmsim: shared data not found at %s: skipped\n", shared.c_str());
        return 0;
    }
    const std::string modelConfig =
        shared + "/llm/llmservingsim/configs/model/meta-llama/Llama-3.1-8B.json";
    llmsim::LlmScenario scenario;
    scenario.engine.maxNumSeqs = 256;
    scenario.engine.maxNumBatchedTokens = 2048;
    // An 80 GB accelerator's KV cache for Llama-3.1-8B (128 KiB per token, ~60 GB free).
    scenario.engine.numGpuBlocks = 28000;
    scenario.arrivals.file =
        shared + "/arrival_traces/azure_llm_2023/AzureLLMInferenceTrace_code.csv";
    scenario.arrivals.repeat = 24;

    llmsim::StepSpec profileStep;
    profileStep.kind = llmsim::StepSpec::Kind::Profile;
    profileStep.profileDirectory = profile;
    profileStep.modelConfig = modelConfig;
    // The roofline step of the same model on the H100 SXM preset, power and thermal state on.
    llmsim::StepSpec rooflineStep;
    rooflineStep.kind = llmsim::StepSpec::Kind::Roofline;
    rooflineStep.modelConfig = modelConfig;
    rooflineStep.accelerator = *accel::PresetLibrary::builtIn().accelerator("h100-sxm");
    bool ok = true;
    if (only.empty() || only == "profile")
        ok = runVariant(scenario, profileStep, "profile step (Llama-3.1-8B / RTX 4090 operators)");
    if (ok && (only.empty() || only == "roofline"))
        ok = runVariant(scenario, rooflineStep, "roofline step (Llama-3.1-8B bf16 on h100-sxm)");
    return ok ? 0 : 1;
}
