// The JSON form of an LLM serving scenario, validated key by key (README.md).
#include "llmsim/llmscenariojson.h"

#include "accel/presetlibrary.h"
#include "io/jsonfields.h"

namespace bs::llmsim {

namespace {

using io::JsonFields;
using io::NumberRule;
using nlohmann::json;

constexpr double kMaxTokens = 1 << 24;
constexpr double kMaxCount = 1 << 30;

NumberRule whole(double lo, double hi)
{
    return {lo, hi, false, true};
}

KvMemorySpec readKvMemory(JsonFields& parent)
{
    KvMemorySpec kv;
    const json* object = parent.object("kv_memory", true);
    if (!object)
        return kv;
    JsonFields f(*object, parent.child("kv_memory"), parent.path());
    kv.modelConfig = f.string("model_config");
    kv.deviceMemoryGib = f.number("device_memory_gib", {0.0, 1 << 20, true, false});
    kv.gpuMemoryUtilization = f.numberOr("gpu_memory_utilization", 0.9, {0.0, 1.0, true, false});
    kv.tensorParallel = std::int32_t(f.integerOr("tensor_parallel", 1, whole(1, 1024)));
    kv.weightDtype = f.choice("weight_dtype", {"auto", "bfloat16", "float16", "fp8"}, "auto");
    kv.kvCacheDtype = f.choice("kv_cache_dtype", {"auto", "fp8", "fp8_e4m3", "fp8_e5m2"}, "auto");
    kv.runtimeReserveGib = f.numberOr("runtime_reserve_gib", 1.0, {0.0, 1 << 20, false, false});
    parent.adopt(f.finish());
    return kv;
}

/// The knobs of one policy only (README.md: "Policies"): refused under any other policy.
void readPolicyKnobs(JsonFields& f, EngineConfig& engine)
{
    struct Knob
    {
        const char* key;
        const char* policy;
    };
    for (const Knob knob :
         {Knob{"capacity_scheduler_policy", "trtllm"}, Knob{"max_prefill_tokens", "sglang"},
          Knob{"chunked_prefill_size", "sglang"}, Knob{"schedule_conservativeness", "sglang"}})
        if (f.ok() && f.has(knob.key) && engine.policy != knob.policy)
            f.fail(knob.key, std::string("applies to the ") + knob.policy + " policy only");
    if (!f.ok())
        return;
    if (engine.policy == "trtllm")
        engine.capacitySchedulerPolicy =
            f.choice("capacity_scheduler_policy", {"guaranteed_no_evict", "max_utilization"},
                     "guaranteed_no_evict");
    if (engine.policy == "sglang") {
        engine.maxPrefillTokens =
            std::int32_t(f.integerOr("max_prefill_tokens", 16384, whole(1, kMaxTokens)));
        engine.chunkedPrefillSize =
            std::int32_t(f.integerOr("chunked_prefill_size", 8192, whole(-1, kMaxTokens)));
        if (f.ok() && engine.chunkedPrefillSize == 0)
            f.fail("chunked_prefill_size", "must be -1 (no chunking) or at least 1 (got 0)");
        engine.scheduleConservativeness =
            f.numberOr("schedule_conservativeness", 1.0, {0.0, 100.0, true, false});
    }
    if (f.ok() && engine.policy == "sarathi" && !engine.enableChunkedPrefill)
        f.fail("enable_chunked_prefill", "sarathi always chunks prefills (it must be true)");
}

EngineConfig readEngine(JsonFields& parent)
{
    EngineConfig engine;
    const json* object = parent.object("engine", true);
    if (!object)
        return engine;
    JsonFields f(*object, parent.child("engine"), parent.path());
    engine.policy = f.choice(
        "policy", {"vllm_v1", "vllm_v0", "orca", "sarathi", "trtllm", "sglang"}, "vllm_v1");
    engine.maxNumSeqs = std::int32_t(f.integerOr("max_num_seqs", 256, whole(1, 1 << 20)));
    engine.maxNumBatchedTokens =
        std::int32_t(f.integerOr("max_num_batched_tokens", 2048, whole(1, kMaxTokens)));
    engine.enableChunkedPrefill = f.boolean("enable_chunked_prefill", true);
    engine.longPrefillTokenThreshold =
        std::int32_t(f.integerOr("long_prefill_token_threshold", 0, whole(0, kMaxTokens)));
    engine.blockSize = std::int32_t(f.integerOr("block_size", 16, whole(1, 1 << 16)));
    // The KV cache: a block count as the engine's log gives it, or sized from memory.
    if (f.has("kv_memory") && f.has("num_gpu_blocks"))
        f.fail("kv_memory", "give num_gpu_blocks or kv_memory, not both");
    else if (f.has("kv_memory"))
        engine.kvMemory = readKvMemory(f);
    else
        engine.numGpuBlocks = f.integer("num_gpu_blocks", whole(1, 1LL << 24));
    engine.enablePrefixCaching = f.boolean("enable_prefix_caching", false);
    if (f.ok() && engine.enablePrefixCaching && engine.policy != "vllm_v1")
        f.fail("enable_prefix_caching", "is modelled for the vllm_v1 policy only");
    if (f.ok() && f.has("prefix_cache_hit_rate") && engine.policy != "vllm_v1")
        f.fail("prefix_cache_hit_rate", "applies to the vllm_v1 policy only");
    engine.prefixCacheHitRate = f.numberOr("prefix_cache_hit_rate", 0.0, NumberRule::range(0, 1));
    if (f.ok() && engine.prefixCacheHitRate > 0.0 && !engine.enablePrefixCaching)
        f.fail("prefix_cache_hit_rate", "needs \"enable_prefix_caching\": true");
    readPolicyKnobs(f, engine);
    parent.adopt(f.finish());
    return engine;
}

/// step.accelerator: a preset name (core/accel presets) or an inline accelerator object.
void readAccelerator(JsonFields& f, const json& object, StepSpec& step)
{
    const json* value = object.contains("accelerator") ? &object["accelerator"] : nullptr;
    if (value && value->is_string()) {
        auto preset = accel::PresetLibrary::builtIn().accelerator(f.string("accelerator"));
        if (preset)
            step.accelerator = std::move(*preset);
        else
            f.fail("accelerator", preset.error().message);
    } else if (value && value->is_object()) {
        auto inlined =
            accel::acceleratorFromJson(*f.object("accelerator"), f.child("accelerator"), f.path());
        if (inlined)
            step.accelerator = std::move(*inlined);
        else
            f.adopt(inlined.error());
    } else {
        f.fail("accelerator", value
                                  ? "must be a preset name or an object"
                                  : "missing; expected a preset name (h100-sxm, ...) or an object");
        f.object("accelerator"); // marks the key as read
    }
}

void readRoofline(JsonFields& f, const json& object, StepSpec& step)
{
    step.kind = StepSpec::Kind::Roofline;
    step.modelConfig = f.string("model_config");
    readAccelerator(f, object, step);
    step.tensorParallel = std::int32_t(f.integerOr("tensor_parallel", 1, whole(1, 1024)));
    step.weightDtype = f.choice("weight_dtype", {"auto", "bfloat16", "float16", "fp8"}, "auto");
    step.kvCacheDtype = f.choice("kv_cache_dtype", {"auto", "fp8", "fp8_e4m3", "fp8_e5m2"}, "auto");
    step.overheadMs = f.numberOr("overhead_ms", 0.0, NumberRule::nonNegative());
    step.overheadPerSeqMs = f.numberOr("overhead_per_seq_ms", 0.0, NumberRule::nonNegative());
    step.interconnectGbPerS = f.numberOr("interconnect_gb_per_s", 0.0, NumberRule::positive());
    if (f.ok() && step.tensorParallel > 1 && !f.has("interconnect_gb_per_s"))
        f.fail("interconnect_gb_per_s",
               "missing: tensor_parallel " + std::to_string(step.tensorParallel) +
                   " needs the GPU-to-GPU bandwidth per direction for its all-reduces (the "
                   "accelerator presets carry none; NVLink 4 on H100 SXM: 450)");
    step.allreduceLatencyUs = f.numberOr("allreduce_latency_us", 0.0, NumberRule::nonNegative());
    step.powerCapW = f.optionalNumber("power_cap_w", {0.0, 1e6, true, false});
    step.thermal = f.boolean("thermal", true);
    step.calibratedOn = f.stringOr("calibrated_on", "");
}

StepSpec readStep(JsonFields& parent)
{
    StepSpec step;
    const json* object = parent.object("step", true);
    if (!object)
        return step;
    JsonFields f(*object, parent.child("step"), parent.path());
    const std::string kind = f.choice("kind", {"linear", "profile", "roofline"});
    if (kind == "linear") {
        step.kind = StepSpec::Kind::Linear;
        step.baseMs = f.numberOr("base_ms", 0.0, NumberRule::nonNegative());
        step.perPrefillTokenMs = f.numberOr("per_prefill_token_ms", 0.0, NumberRule::nonNegative());
        step.perDecodeSeqMs = f.numberOr("per_decode_seq_ms", 0.0, NumberRule::nonNegative());
        step.perContextTokenMs = f.numberOr("per_context_token_ms", 0.0, NumberRule::nonNegative());
        if (f.ok() &&
            step.baseMs + step.perPrefillTokenMs + step.perDecodeSeqMs + step.perContextTokenMs <=
                0.0)
            f.fail("base_ms", "a step must take some time: base_ms, per_prefill_token_ms, "
                              "per_decode_seq_ms and per_context_token_ms are all 0");
    } else if (kind == "profile") {
        step.kind = StepSpec::Kind::Profile;
        step.profileDirectory = f.string("directory");
        step.modelConfig = f.string("model_config");
        step.overheadMs = f.numberOr("overhead_ms", 0.0, NumberRule::nonNegative());
    } else if (kind == "roofline") {
        readRoofline(f, *object, step);
    }
    step.clientOverheadMs = f.numberOr("client_overhead_ms", 0.0, NumberRule::nonNegative());
    parent.adopt(f.finish());
    return step;
}

TokenLengthSpec readLengths(JsonFields& parent, const char* key)
{
    TokenLengthSpec spec;
    const json* object = parent.object(key, true);
    if (!object)
        return spec;
    JsonFields f(*object, parent.child(key), parent.path());
    const std::string kind = f.choice("kind", {"fixed", "uniform", "lognormal"});
    if (kind == "fixed") {
        spec.kind = TokenLengthSpec::Kind::Fixed;
        spec.tokens = std::int32_t(f.integer("tokens", whole(1, kMaxTokens)));
    } else if (kind == "uniform") {
        spec.kind = TokenLengthSpec::Kind::Uniform;
        spec.min = std::int32_t(f.integer("min", whole(1, kMaxTokens)));
        spec.max = std::int32_t(f.integer("max", whole(1, kMaxTokens)));
        if (f.ok() && spec.max < spec.min)
            f.fail("max", "must be at least min (" + std::to_string(spec.min) + ")");
    } else if (kind == "lognormal") {
        spec.kind = TokenLengthSpec::Kind::Lognormal;
        spec.mean = f.number("mean", {1.0, kMaxTokens, false, false});
        spec.cv = f.number("cv", NumberRule::range(0.0, 10.0));
        spec.max = std::int32_t(f.integerOr("max", std::int64_t(kMaxTokens), whole(1, kMaxTokens)));
    }
    parent.adopt(f.finish());
    return spec;
}

std::vector<RequestSpec> readInlineRequests(JsonFields& f, const json& array)
{
    std::vector<RequestSpec> requests;
    for (std::size_t i = 0; i < array.size() && f.ok(); ++i) {
        const std::string key = "requests[" + std::to_string(i) + "]";
        if (!array[i].is_object()) {
            f.fail(key, "expected an object {arrival_s, prompt_tokens, output_tokens}");
            break;
        }
        JsonFields r(array[i], f.child(key), f.path());
        RequestSpec spec;
        spec.arrivalS = r.number("arrival_s", NumberRule::range(0.0, 1e9));
        spec.promptTokens = std::int32_t(r.integer("prompt_tokens", whole(1, kMaxTokens)));
        spec.outputTokens = std::int32_t(r.integer("output_tokens", whole(1, kMaxTokens)));
        f.adopt(r.finish());
        requests.push_back(spec);
    }
    return requests;
}

LlmArrivalSpec readArrivals(JsonFields& parent)
{
    LlmArrivalSpec spec;
    const json* object = parent.object("arrivals", true);
    if (!object)
        return spec;
    JsonFields f(*object, parent.child("arrivals"), parent.path());
    const std::string kind = f.choice("kind", {"replay", "poisson", "fitted"});
    if (kind == "replay") {
        spec.kind = LlmArrivalSpec::Kind::Replay;
        const json* inlineRequests = f.array("requests");
        if (inlineRequests)
            spec.requests = readInlineRequests(f, *inlineRequests);
        else
            spec.file = f.string("file");
        if (f.ok() && !inlineRequests && spec.file.empty())
            f.fail("file", "must name a request file (or give inline requests)");
        if (f.ok() && inlineRequests && f.has("file"))
            f.fail("file", "give either a file or inline requests, not both");
        if (f.ok() && inlineRequests && spec.requests.empty())
            f.fail("requests", "must hold at least one request");
        spec.repeat = std::int32_t(f.integerOr("repeat", 1, whole(1, 1 << 20)));
    } else if (kind == "poisson") {
        spec.kind = LlmArrivalSpec::Kind::Poisson;
        spec.ratePerS = f.number("rate_per_s", {0.0, 1e9, true, false});
        spec.count = f.integer("requests", whole(1, kMaxCount));
        spec.promptTokens = readLengths(f, "prompt_tokens");
        spec.outputTokens = readLengths(f, "output_tokens");
    } else if (kind == "fitted") {
        spec.kind = LlmArrivalSpec::Kind::Fitted;
        spec.file = f.string("file");
        if (f.ok() && spec.file.empty())
            f.fail("file", "must name the request trace to fit");
        spec.count = f.integerOr("requests", 0, whole(0, kMaxCount));
    }
    spec.rateMultiplier = f.numberOr("rate_multiplier", 1.0, {0.0, 1e9, true, false});
    spec.replicas = std::int32_t(f.integerOr("replicas", 1, whole(1, 1 << 16)));
    parent.adopt(f.finish());
    return spec;
}

SlaSpec readSla(JsonFields& parent)
{
    SlaSpec sla;
    const json* object = parent.object("sla");
    if (!object)
        return sla;
    JsonFields f(*object, parent.child("sla"), parent.path());
    sla.ttftMs = f.numberOr("ttft_ms", 0.0, NumberRule::nonNegative());
    sla.tpotMs = f.numberOr("tpot_ms", 0.0, NumberRule::nonNegative());
    parent.adopt(f.finish());
    return sla;
}

} // namespace

bool isLlmScenarioJson(const nlohmann::json& json)
{
    if (!json.is_object())
        return false;
    const auto kind = json.find("kind");
    if (kind != json.end() && kind->is_string() && kind->get<std::string>() == "llm")
        return true;
    return json.contains("engine");
}

Expected<LlmScenario> llmScenarioFromJson(const nlohmann::json& json, const std::string& path)
{
    if (!json.is_object())
        return makeError(ErrorCode::Format, path, 0, 0, "scenario: expected a JSON object");
    JsonFields f(json, "scenario", path);
    LlmScenario scenario;
    f.choice("kind", {"llm"}, "llm");
    scenario.name = f.stringOr("name", "");
    scenario.seed = f.unsignedOr("seed", 1);
    scenario.replications = std::int32_t(f.integerOr("replications", 1, whole(1, 1000)));
    scenario.engine = readEngine(f);
    scenario.step = readStep(f);
    scenario.arrivals = readArrivals(f);
    scenario.sla = readSla(f);
    if (f.ok() && scenario.arrivals.kind == LlmArrivalSpec::Kind::Replay &&
        scenario.replications > 1)
        f.fail("replications", "a replay is deterministic: every replication would be the same, "
                               "so replications must be 1");
    if (auto status = f.finish(); !status)
        return status.error();
    return scenario;
}

Expected<nlohmann::json> readScenarioFile(const std::string& path)
{
    return io::readJsonFile(path, std::uint64_t(256) << 20);
}

namespace {

json lengthsToJson(const TokenLengthSpec& spec)
{
    switch (spec.kind) {
    case TokenLengthSpec::Kind::Fixed:
        return {{"kind", "fixed"}, {"tokens", spec.tokens}};
    case TokenLengthSpec::Kind::Uniform:
        return {{"kind", "uniform"}, {"min", spec.min}, {"max", spec.max}};
    case TokenLengthSpec::Kind::Lognormal:
        return {{"kind", "lognormal"}, {"mean", spec.mean}, {"cv", spec.cv}, {"max", spec.max}};
    }
    return {};
}

/// The load keys every arrival kind takes, written only when they change something.
void addLoadScaling(json& out, const LlmArrivalSpec& spec)
{
    if (spec.rateMultiplier != 1.0)
        out["rate_multiplier"] = spec.rateMultiplier;
    if (spec.replicas != 1)
        out["replicas"] = spec.replicas;
}

json arrivalsToJsonUnscaled(const LlmArrivalSpec& spec)
{
    if (spec.kind == LlmArrivalSpec::Kind::Poisson)
        return {{"kind", "poisson"},
                {"rate_per_s", spec.ratePerS},
                {"requests", spec.count},
                {"prompt_tokens", lengthsToJson(spec.promptTokens)},
                {"output_tokens", lengthsToJson(spec.outputTokens)}};
    if (spec.kind == LlmArrivalSpec::Kind::Fitted)
        return {{"kind", "fitted"}, {"file", spec.file}, {"requests", spec.count}};
    json out = {{"kind", "replay"}, {"repeat", spec.repeat}};
    if (!spec.file.empty()) {
        out["file"] = spec.file;
        return out;
    }
    json requests = json::array();
    for (const RequestSpec& r : spec.requests)
        requests.push_back({{"arrival_s", r.arrivalS},
                            {"prompt_tokens", r.promptTokens},
                            {"output_tokens", r.outputTokens}});
    out["requests"] = std::move(requests);
    return out;
}

json arrivalsToJson(const LlmArrivalSpec& spec)
{
    json out = arrivalsToJsonUnscaled(spec);
    addLoadScaling(out, spec);
    return out;
}

/// A built-in preset as its name, anything else inline (the scenario then stands alone).
json acceleratorToJson(const accel::AcceleratorSpec& spec)
{
    auto preset = accel::PresetLibrary::builtIn().accelerator(spec.name);
    if (preset && *preset == spec)
        return spec.name;
    return accel::toJson(spec);
}

json rooflineToJson(const StepSpec& step)
{
    json out = {{"kind", "roofline"},
                {"model_config", step.modelConfig},
                {"accelerator", acceleratorToJson(step.accelerator)},
                {"tensor_parallel", step.tensorParallel},
                {"weight_dtype", step.weightDtype},
                {"kv_cache_dtype", step.kvCacheDtype},
                {"overhead_ms", step.overheadMs},
                {"allreduce_latency_us", step.allreduceLatencyUs},
                {"thermal", step.thermal}};
    if (step.interconnectGbPerS > 0.0) // absent means none (a single GPU)
        out["interconnect_gb_per_s"] = step.interconnectGbPerS;
    if (step.powerCapW)
        out["power_cap_w"] = *step.powerCapW;
    if (step.overheadPerSeqMs > 0.0)
        out["overhead_per_seq_ms"] = step.overheadPerSeqMs;
    if (!step.calibratedOn.empty())
        out["calibrated_on"] = step.calibratedOn;
    return out;
}

json stepKindToJson(const StepSpec& step)
{
    if (step.kind == StepSpec::Kind::Roofline)
        return rooflineToJson(step);
    if (step.kind == StepSpec::Kind::Profile)
        return {{"kind", "profile"},
                {"directory", step.profileDirectory},
                {"model_config", step.modelConfig},
                {"overhead_ms", step.overheadMs}};
    return {{"kind", "linear"},
            {"base_ms", step.baseMs},
            {"per_prefill_token_ms", step.perPrefillTokenMs},
            {"per_decode_seq_ms", step.perDecodeSeqMs},
            {"per_context_token_ms", step.perContextTokenMs}};
}

json stepToJson(const StepSpec& step)
{
    json out = stepKindToJson(step);
    if (step.clientOverheadMs > 0.0) // absent means none
        out["client_overhead_ms"] = step.clientOverheadMs;
    return out;
}

} // namespace

nlohmann::json llmScenarioToJson(const LlmScenario& scenario)
{
    const EngineConfig& e = scenario.engine;
    json engine = {{"policy", e.policy},
                   {"max_num_seqs", e.maxNumSeqs},
                   {"max_num_batched_tokens", e.maxNumBatchedTokens},
                   {"enable_chunked_prefill", e.enableChunkedPrefill},
                   {"long_prefill_token_threshold", e.longPrefillTokenThreshold},
                   {"block_size", e.blockSize}};
    // vllm_v1's own knobs, written for it only (as every policy's): a scenario switched to
    // another policy reads back without them instead of being refused.
    if (e.policy == "vllm_v1") {
        engine["enable_prefix_caching"] = e.enablePrefixCaching;
        if (e.prefixCacheHitRate > 0.0)
            engine["prefix_cache_hit_rate"] = e.prefixCacheHitRate;
    }
    if (e.kvMemory)
        engine["kv_memory"] = {{"model_config", e.kvMemory->modelConfig},
                               {"device_memory_gib", e.kvMemory->deviceMemoryGib},
                               {"gpu_memory_utilization", e.kvMemory->gpuMemoryUtilization},
                               {"tensor_parallel", e.kvMemory->tensorParallel},
                               {"weight_dtype", e.kvMemory->weightDtype},
                               {"kv_cache_dtype", e.kvMemory->kvCacheDtype},
                               {"runtime_reserve_gib", e.kvMemory->runtimeReserveGib}};
    else
        engine["num_gpu_blocks"] = e.numGpuBlocks;
    if (e.policy == "trtllm")
        engine["capacity_scheduler_policy"] = e.capacitySchedulerPolicy;
    if (e.policy == "sglang") {
        engine["max_prefill_tokens"] = e.maxPrefillTokens;
        engine["chunked_prefill_size"] = e.chunkedPrefillSize;
        engine["schedule_conservativeness"] = e.scheduleConservativeness;
    }
    return {{"kind", "llm"},
            {"name", scenario.name},
            {"seed", scenario.seed},
            {"replications", scenario.replications},
            {"engine", engine},
            {"step", stepToJson(scenario.step)},
            {"arrivals", arrivalsToJson(scenario.arrivals)},
            {"sla", {{"ttft_ms", scenario.sla.ttftMs}, {"tpot_ms", scenario.sla.tpotMs}}}};
}

} // namespace bs::llmsim
