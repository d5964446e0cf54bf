// A simulated run written as an engine's per-request log (requestlogwriter.h).
#include "llmsim/requestlogwriter.h"

#include "io/atomicfile.h"
#include "llmsim/llmscenariojson.h"
#include "util/version.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

namespace bs::llmsim {

namespace {

std::string requestLines(const LlmResult& result)
{
    std::string out;
    for (std::size_t i = 0; i < result.requests.size(); ++i) {
        const auto& r = result.requests[i];
        // The simulator's clock is the engine's monotonic clock: queued at arrival. An engine's
        // log has no client time (client_overhead_ms), so none is added here.
        const nlohmann::json line = {{"request_id", "sim-" + std::to_string(i)},
                                     {"input_toks", r.promptTokens},
                                     {"output_toks", r.outputTokens},
                                     {"queued_ts", r.arrivalS},
                                     {"scheduled_ts", r.firstScheduledS},
                                     {"first_token_ts", r.firstTokenS},
                                     {"last_token_ts", r.finishS}};
        out += line.dump() + "\n";
    }
    return out;
}

/// The engine once per second from the first arrival, as vLLM's periodic log has it: tokens/s
/// over the second just ended, and the queues and KV use as the last step started before the
/// tick left them.
std::string engineSeries(const LlmResult& result)
{
    std::ostringstream out;
    out << "t,prompt_throughput,gen_throughput,running,waiting,kv_cache_pct\n";
    if (result.requests.empty() || result.steps.empty())
        return out.str();
    const double originS = result.requests.front().arrivalS;
    const auto& last = result.steps.back();
    const double endS = last.startS + last.durationS;
    const double blocks = double(std::max<std::int64_t>(result.scenario.engine.numGpuBlocks, 1));
    std::size_t done = 0;  // steps ended by the previous tick
    std::size_t state = 0; // steps started by this tick
    for (int tick = 1; originS + tick < endS + 1.0; ++tick) {
        const double tickS = originS + tick;
        std::int64_t prompt = 0, output = 0;
        while (done < result.steps.size() &&
               result.steps[done].startS + result.steps[done].durationS <= tickS) {
            prompt += result.steps[done].prefillTokens;
            output += result.steps[done].decodeSeqs;
            ++done;
        }
        while (state < result.steps.size() && result.steps[state].startS <= tickS)
            ++state;
        const StepRecord* now = state ? &result.steps[state - 1] : nullptr;
        out << tick << ".0," << prompt << ',' << output << ',' << (now ? now->running : 0) << ','
            << (now ? now->waiting : 0) << ','
            << (now ? std::round(10000.0 * double(now->kvBlocksUsed) / blocks) / 100.0 : 0.0)
            << "\n";
    }
    return out.str();
}

/// The run record, with what a review freezes (engine_version, model revision, dtypes, the
/// dataset) filled from the scenario, so that two simulated runs differ only where their
/// scenarios do.
nlohmann::json runRecord(const LlmResult& result)
{
    const auto& s = result.scenario;
    const auto& e = s.engine;
    const nlohmann::json scenario = llmScenarioToJson(s);
    // The model is what the step knows of it: its shape (builtin:NAME or a config path), or
    // none for a step given as numbers.
    const std::string model =
        s.step.modelConfig.empty()
            ? "no model shape (step: " + scenario["step"].value("kind", "") + ")"
            : s.step.modelConfig;
    nlohmann::json record = {
        {"schema_version", 1},
        {"simulated_by", kSimulatedByLlmsim},
        {"engine_version",
         std::string(kSimulatedByLlmsim) + " " + kVersionString + ", " + e.policy + " policy"},
        {"model", model},
        {"model_revision", model},
        {"dataset", scenario["arrivals"].dump()},
        {"engine_kwargs",
         {{"policy", e.policy},
          {"max_num_seqs", e.maxNumSeqs},
          {"max_num_batched_tokens", e.maxNumBatchedTokens},
          {"enable_chunked_prefill", e.enableChunkedPrefill},
          {"tensor_parallel_size", s.step.tensorParallel},
          {"dtype", s.step.weightDtype},
          {"kv_cache_dtype", s.step.kvCacheDtype},
          {"seed", s.seed}}},
        {"kv_cache",
         {{"num_gpu_blocks", e.numGpuBlocks},
          {"block_size", e.blockSize},
          {"enable_prefix_caching", e.enablePrefixCaching},
          {"num_kv_tokens", e.numGpuBlocks * e.blockSize},
          {"gpu_memory_utilization",
           e.kvMemory ? nlohmann::json(e.kvMemory->gpuMemoryUtilization)
                      : nlohmann::json("not used: the KV cache is given in blocks")}}},
        {"hardware",
         {{"device_name",
           s.step.kind == StepSpec::Kind::Roofline
               ? s.step.accelerator.name
               : std::string("none modelled (step: ") + scenario["step"].value("kind", "") + ")"},
          {"power_cap_w",
           s.step.powerCapW ? nlohmann::json(*s.step.powerCapW) : nlohmann::json("none")}}},
        {"num_requests", result.requests.size()},
        {"tick_seconds", 1.0},
        {"scenario", scenario}};
    return record;
}

} // namespace

Status writeSimulatedRequestLog(const LlmResult& result, const std::string& folder)
{
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error)
        return makeError(ErrorCode::Io, folder + ": cannot create the folder: " + error.message());
    const std::filesystem::path dir(folder);
    const std::pair<const char*, std::string> files[] = {
        {"requests.jsonl", requestLines(result)},
        {"timeseries.csv", engineSeries(result)},
        {"meta.json", runRecord(result).dump(2) + "\n"}};
    for (const auto& [name, bytes] : files) {
        if (auto status = io::writeFileAtomically((dir / name).string(), bytes); !status)
            return status;
    }
    return {};
}

} // namespace bs::llmsim
