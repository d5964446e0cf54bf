#pragma once

#include "accel/acceleratorspec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bs::llmsim {

/// The KV cache sized from memory, as the engine does at start-up, instead of a block count
/// (README.md: "KV-cache capacity"). Sizes per GPU of one replica.
struct KvMemorySpec
{
    std::string modelConfig;      ///< The model's Hugging Face config.json (path as written).
    double deviceMemoryGib = 0.0; ///< Total memory of one GPU, as the driver reports it.
    double gpuMemoryUtilization = 0.9;
    std::int32_t tensorParallel = 1;
    std::string weightDtype = "auto";  ///< auto (the config's), bfloat16, float16, fp8
    std::string kvCacheDtype = "auto"; ///< auto (the activations'), fp8
    /// What the runtime keeps besides weights and KV: CUDA context, the profiling pass's peak
    /// activations, graphs. An assumption; calibrate it from a real start-up log.
    double runtimeReserveGib = 1.0;

    friend bool operator==(const KvMemorySpec&, const KvMemorySpec&) = default;
};

/// The engine's scheduling knobs, named as vLLM names them (README.md: "Engine").
struct EngineConfig
{
    std::string policy = "vllm_v1";
    std::int32_t maxNumSeqs = 256;
    std::int32_t maxNumBatchedTokens = 2048;
    bool enableChunkedPrefill = true;
    /// A prefill chunk is capped at this many tokens when > 0 (0: no cap).
    std::int32_t longPrefillTokenThreshold = 0;
    std::int32_t blockSize = 16;
    /// KV-cache capacity in blocks of blockSize tokens (0 until kvMemory is resolved).
    std::int64_t numGpuBlocks = 0;
    std::optional<KvMemorySpec> kvMemory; ///< Instead of numGpuBlocks: sized from memory.
    /// vllm_v1: a request readmitted after a preemption reuses its blocks still in the cache.
    /// (Prefixes shared between requests are not tracked, token contents being unknown:
    /// prefixCacheHitRate states them.)
    bool enablePrefixCaching = false;
    /// vllm_v1 with prefix caching: the fraction of a new request's prompt tokens already in
    /// the cache when it is first admitted, left there by other requests (a shared system
    /// prompt, earlier turns, a benchmark re-sending its prompts), as vLLM's prefix-cache hit
    /// rate counts them. Those whole blocks are not computed again; they take KV blocks.
    double prefixCacheHitRate = 0.0;
    /// trtllm: TensorRT-LLM's CapacitySchedulerPolicy, guaranteed_no_evict or max_utilization.
    std::string capacitySchedulerPolicy = "guaranteed_no_evict";
    /// sglang: input tokens of one prefill batch (a lone request may exceed it).
    std::int32_t maxPrefillTokens = 16384;
    /// sglang: the largest prefill chunk; -1 turns chunking off.
    std::int32_t chunkedPrefillSize = 8192;
    /// sglang: scales the initial new-token ratio (0.7 x this, at most 1) and its floor.
    double scheduleConservativeness = 1.0;

    friend bool operator==(const EngineConfig&, const EngineConfig&) = default;
};

/// How long one engine step takes (README.md: "Step time").
struct StepSpec
{
    enum class Kind
    {
        Linear,
        Profile,
        Roofline,
    };
    Kind kind = Kind::Linear;
    // linear
    double baseMs = 0.0;
    double perPrefillTokenMs = 0.0;
    double perDecodeSeqMs = 0.0;
    double perContextTokenMs = 0.0;
    // profile: per-operator CSVs and the Hugging Face model config (paths as written)
    std::string profileDirectory;
    std::string modelConfig; ///< profile and roofline.
    double overheadMs = 0.0; ///< Added to every profile or roofline step (host-side scheduling).
    /// Roofline: host-side time per scheduled sequence (sampling, stop checks, streaming),
    /// added to the step; 0 unless calibrated (rooflineratefit.h) or stated.
    double overheadPerSeqMs = 0.0;
    /// Any step: time a request spends outside the engine as a benchmark client measures it
    /// (HTTP, tokenisation, the first token's way back), added to every TTFT and end-to-end
    /// latency and to no gap between tokens; 0 unless calibrated (rooflineratefit.h) or stated.
    /// A constant shift: the engine sees the same Poisson arrivals, only later.
    double clientOverheadMs = 0.0;
    // roofline: the model's shape on an accelerator (README.md: "Step time: roofline")
    accel::AcceleratorSpec accelerator; ///< A preset (by name) or an inline object, resolved.
    std::int32_t tensorParallel = 1;
    std::string weightDtype = "auto";  ///< As in KvMemorySpec.
    std::string kvCacheDtype = "auto"; ///< As in KvMemorySpec.
    /// GPU-to-GPU bandwidth per direction for the all-reduces (presets carry none): required
    /// when tensorParallel > 1.
    double interconnectGbPerS = 0.0;
    double allreduceLatencyUs = 0.0; ///< Fixed cost of each all-reduce (0: not modelled).
    std::optional<double> powerCapW; ///< Board power limit per GPU.
    bool thermal = true;             ///< Throttle at the preset's throttle temperature.
    /// What the roofline's efficiencies were calibrated on (rooflineratefit.h), e.g. "rate
    /// sweep FILE (3 rates)"; empty when they are the preset's. Said in the region's evidence.
    std::string calibratedOn;

    friend bool operator==(const StepSpec&, const StepSpec&) = default;
};

/// A distribution of token counts for generated requests.
struct TokenLengthSpec
{
    enum class Kind
    {
        Fixed,     ///< Always `tokens`.
        Uniform,   ///< Whole numbers uniform on [min, max].
        Lognormal, ///< Rounded lognormal with this mean and coefficient of variation, >= 1.
    };
    Kind kind = Kind::Fixed;
    std::int32_t tokens = 1;
    std::int32_t min = 1;
    std::int32_t max = 1;
    double mean = 1.0;
    double cv = 0.0;

    friend bool operator==(const TokenLengthSpec&, const TokenLengthSpec&) = default;
};

/// One request to serve: when it arrives and how many tokens it reads and writes.
struct RequestSpec
{
    double arrivalS = 0.0;
    std::int32_t promptTokens = 1;
    std::int32_t outputTokens = 1;

    friend bool operator==(const RequestSpec&, const RequestSpec&) = default;
};

/// Where requests come from: a replayed list (file or inline), a Poisson process with token
/// length distributions, or a Poisson process fitted to a trace.
struct LlmArrivalSpec
{
    enum class Kind
    {
        Replay,
        Poisson,
        /// Poisson at the trace's mean rate with lognormal lengths of its mean and spread
        /// (tracefit.h), resolved when the run starts; `count` 0 = as many as the trace.
        Fitted,
    };
    Kind kind = Kind::Replay;
    /// Replay: a per-request serving log (*.jsonl, requests.jsonl layout) or any request trace
    /// with token counts that the importers read (e.g. an Azure LLM inference trace CSV).
    std::string file;
    std::vector<RequestSpec> requests; ///< Replay: inline requests (instead of a file).
    /// Replay: the trace is served this many times back to back; each copy starts one mean gap
    /// after the previous copy's last request, so the mean rate stays the trace's.
    std::int32_t repeat = 1;
    double ratePerS = 0.0;        ///< Poisson.
    std::int64_t count = 1000;    ///< Poisson: requests per replication.
    TokenLengthSpec promptTokens; ///< Poisson.
    TokenLengthSpec outputTokens; ///< Poisson.
    /// Scales the offered rate: a replay's arrival times are divided by it, a Poisson or
    /// fitted rate multiplied (a load sweep of a recorded trace keeps its burst shape).
    double rateMultiplier = 1.0;
    /// This engine is one of `replicas` identical replicas behind a router. Poisson and fitted
    /// arrivals are split at random (each replica sees Poisson at rate / replicas, `count`
    /// requests); a replay is split round-robin and this engine serves every replicas-th
    /// request from the first. Throughput and energy are this replica's.
    std::int32_t replicas = 1;

    friend bool operator==(const LlmArrivalSpec&, const LlmArrivalSpec&) = default;
};

/// The service-level agreement goodput is judged against (0 = no limit on that metric).
struct SlaSpec
{
    double ttftMs = 0.0;
    double tpotMs = 0.0;

    friend bool operator==(const SlaSpec&, const SlaSpec&) = default;
};

/// An LLM serving scenario: everything a run needs, with its seed.
struct LlmScenario
{
    std::string name;
    std::uint64_t seed = 1;
    std::int32_t replications = 1;
    EngineConfig engine;
    StepSpec step;
    LlmArrivalSpec arrivals;
    SlaSpec sla;

    friend bool operator==(const LlmScenario&, const LlmScenario&) = default;
};

} // namespace bs::llmsim
