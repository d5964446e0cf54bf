// LLM region speed: an 8 (max_num_seqs) x 6 (max_num_batched_tokens) x 8 (rate multiplier) grid
// of 2,000-request replays on vllm_v1 with the roofline step of Llama-3.1-8B on the H100 preset
// (power and thermal state on). The replay is 2,000 requests drawn once (Poisson 10/s, lognormal
// prompts of mean 300 and outputs of mean 200 tokens), inline. Prints the time to the first
// preview (the coarse pass), the whole grid, and cells per second, as medians of 3 runs; and
// what the recommendation's load headroom search adds to the grid.
#include "analysis/llmregion.h"
#include "benchtiming.h"
#include "llmsim/llmscenariojson.h"
#include "llmsim/llmsimulator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

using namespace bs;

namespace {

// The shape-setting keys of meta-llama/Llama-3.1-8B's config.json.
constexpr const char* kLlama8bConfig = R"({
  "model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096,
  "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
  "vocab_size": 128256, "tie_word_embeddings": false, "torch_dtype": "bfloat16"})";

Expected<analysis::LlmRegionSpec> benchSpec(const std::string& folder)
{
    std::ofstream(folder + "/config.json") << kLlama8bConfig;
    auto scenario = llmsim::llmScenarioFromJson(nlohmann::json::parse(R"({
        "kind": "llm", "seed": 7,
        "engine": {"policy": "vllm_v1", "num_gpu_blocks": 28000},
        "step": {"kind": "roofline", "model_config": "config.json", "accelerator": "h100-sxm"},
        "arrivals": {"kind": "poisson", "rate_per_s": 10, "requests": 2000,
                     "prompt_tokens": {"kind": "lognormal", "mean": 300, "cv": 1.0, "max": 4096},
                     "output_tokens": {"kind": "lognormal", "mean": 200, "cv": 1.0, "max": 2048}}})"));
    if (!scenario)
        return scenario.error();
    llmsim::LlmSimOptions options;
    options.baseDirectory = folder;
    auto drawn = llmsim::simulateLlm(*scenario, options);
    if (!drawn)
        return drawn.error();
    analysis::LlmRegionSpec spec;
    spec.scenario = *scenario;
    spec.scenario.arrivals = {}; // the drawn requests, replayed
    for (const auto& r : drawn->requests)
        spec.scenario.arrivals.requests.push_back({r.arrivalS, r.promptTokens, r.outputTokens});
    spec.maxNumSeqs = {8, 16, 32, 64, 96, 128, 192, 256};
    spec.maxNumBatchedTokens = {256, 512, 1024, 2048, 4096, 8192};
    spec.rateMultipliers = {0.5, 1, 1.5, 2, 3, 4, 6, 8};
    spec.limits.ttftP99Ms = 2000.0;
    spec.limits.tpotP99Ms = 100.0;
    spec.limits.maxPowerPerGpuW = 600.0;
    return spec;
}

double medianOf(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0.0 : values[values.size() / 2];
}

} // namespace

int main()
{
    const auto folder = std::filesystem::temp_directory_path() / "bench_llmregion";
    std::filesystem::create_directories(folder);
    auto spec = benchSpec(folder.string());
    if (!spec) {
        std::fprintf(stderr, "bench_llmregion: %s\n", spec.error().toString().c_str());
        return 1;
    }
    std::vector<double> previewS, wholeS, headroomS;
    std::size_t feasible = 0, coarseCells = 0;
    std::optional<analysis::LlmLoadHeadroom> headroom;
    for (int run = 0; run < 3; ++run) {
        // The grid, then the recommendation's load headroom timed by itself (what
        // computeLlmRegion runs after the grid by default).
        analysis::LlmRegionOptions options;
        options.baseDirectory = folder.string();
        options.searchLoadHeadroom = false;
        const double start = bench::wallNowS();
        options.preview = [&](const analysis::LlmRegionResult& preview) {
            previewS.push_back(bench::wallNowS() - start);
            coarseCells = 0;
            for (const auto& c : preview.cells)
                coarseCells += !c.pending;
        };
        auto result = analysis::computeLlmRegion(*spec, options);
        const double gridEnd = bench::wallNowS();
        if (!result) {
            std::fprintf(stderr, "bench_llmregion: %s\n", result.error().toString().c_str());
            return 1;
        }
        if (auto status = analysis::findLlmLoadHeadroom(*result, 0); !status) {
            std::fprintf(stderr, "bench_llmregion: %s\n", status.error().toString().c_str());
            return 1;
        }
        headroomS.push_back(bench::wallNowS() - gridEnd);
        wholeS.push_back(bench::wallNowS() - start);
        feasible = result->feasible;
        if (result->recommendation)
            headroom = result->recommendation->loadHeadroom;
    }
    const std::size_t cells = analysis::llmCellCount(*spec);
    std::printf("LLM region: %zu cells (8 max_num_seqs x 6 budgets x 8 rates) of 2,000-request "
                "replays, Llama-3.1-8B roofline on h100-sxm, %u threads\n",
                cells, std::thread::hardware_concurrency());
    std::printf("  first preview (%zu coarse cells): median %.2f s (goal <= 1 s)\n", coarseCells,
                medianOf(previewS));
    std::printf("  whole grid: median %.2f s (goal <= 10 s), %.0f cells/s; %zu feasible\n",
                medianOf(wholeS), double(cells) / medianOf(wholeS), feasible);
    std::printf("  of which the recommendation's load headroom: median %.2f s",
                medianOf(headroomS));
    if (headroom) {
        std::printf(", %d simulations, x%.3g met", headroom->simulations, headroom->multiplier);
        if (std::isfinite(headroom->failingMultiplier))
            std::printf(", x%.3g fails on %s", headroom->failingMultiplier,
                        analysis::llmConstraintName(headroom->binding));
    }
    std::printf("\n");
    return 0;
}
