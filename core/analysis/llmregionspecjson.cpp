// The LLM region spec as JSON (llmregionpack.h: llmRegionSpecToJson, llmRegionSpecFromJson):
// the result's header and a project's `llm` section share this shape.
#include "analysis/llmregionpack.h"
#include "analysis/llmregionparts.h"
#include "io/jsonfields.h"
#include "llmsim/llmscenariojson.h"

namespace bs::analysis {

namespace {

using io::JsonFields;
using io::NumberRule;
using nlohmann::json;

json optionalNumber(const std::optional<double>& v)
{
    return v ? json(*v) : json(nullptr);
}

json limitsJson(const LlmRegionLimits& l)
{
    return {{"ttft_p99_ms", l.ttftP99Ms},
            {"tpot_p99_ms", l.tpotP99Ms},
            {"max_itl_p99_ms", optionalNumber(l.maxItlP99Ms)},
            {"max_e2e_p99_ms", optionalNumber(l.maxE2eP99Ms)},
            {"min_output_tokens_per_s", optionalNumber(l.minOutputTokensPerS)},
            {"min_goodput_per_s", optionalNumber(l.minGoodputPerS)},
            {"max_preemptions_per_request", optionalNumber(l.maxPreemptionsPerRequest)},
            {"max_power_per_gpu_w", optionalNumber(l.maxPowerPerGpuW)},
            {"max_energy_per_output_token_j", optionalNumber(l.maxEnergyPerOutputTokenJ)},
            {"max_temperature_c", optionalNumber(l.maxTemperatureC)}};
}

json axesJson(const LlmRegionSpec& s)
{
    json axes = {{"max_num_seqs", s.maxNumSeqs}, {"max_num_batched_tokens", s.maxNumBatchedTokens}};
    const auto add = [&](const char* name, const auto& values) {
        if (!values.empty())
            axes[name] = values;
    };
    add("rate_per_s", s.ratesPerS);
    add("rate_multiplier", s.rateMultipliers);
    add("replicas", s.replicas);
    add("tensor_parallel", s.tensorParallel);
    add("power_cap_w", s.powerCapsW);
    add("gpu_memory_utilization", s.gpuMemoryUtilizations);
    return axes;
}

std::vector<std::int32_t> wholeNumbers(const std::vector<double>& values)
{
    return {values.begin(), values.end()};
}

void readAxes(JsonFields& f, LlmRegionSpec& spec)
{
    const json* axes = f.object("axes", true);
    if (!axes)
        return;
    JsonFields a(*axes, f.child("axes"), f.path());
    const NumberRule whole = NumberRule::count(1);
    spec.maxNumSeqs = wholeNumbers(a.numbers("max_num_seqs", whole));
    spec.maxNumBatchedTokens = wholeNumbers(a.numbers("max_num_batched_tokens", whole));
    spec.ratesPerS = a.numbers("rate_per_s", NumberRule::positive(), false);
    spec.rateMultipliers = a.numbers("rate_multiplier", NumberRule::positive(), false);
    spec.replicas = wholeNumbers(a.numbers("replicas", whole, false));
    spec.tensorParallel = wholeNumbers(a.numbers("tensor_parallel", whole, false));
    spec.powerCapsW = a.numbers("power_cap_w", NumberRule::positive(), false);
    spec.gpuMemoryUtilizations =
        a.numbers("gpu_memory_utilization", {0.0, 1.0, true, false}, false);
    f.adopt(a.finish());
}

void readLimits(JsonFields& f, LlmRegionLimits& limits)
{
    const json* object = f.object("limits", true);
    if (!object)
        return;
    JsonFields l(*object, f.child("limits"), f.path());
    const auto optional = [&](const char* key) {
        return l.optionalNumber(key, NumberRule::positive()); // null: no such limit
    };
    limits.ttftP99Ms = l.number("ttft_p99_ms", NumberRule::positive());
    limits.tpotP99Ms = l.number("tpot_p99_ms", NumberRule::positive());
    limits.maxItlP99Ms = optional("max_itl_p99_ms");
    limits.maxE2eP99Ms = optional("max_e2e_p99_ms");
    limits.minOutputTokensPerS = optional("min_output_tokens_per_s");
    limits.minGoodputPerS = optional("min_goodput_per_s");
    limits.maxPreemptionsPerRequest = optional("max_preemptions_per_request");
    limits.maxPowerPerGpuW = optional("max_power_per_gpu_w");
    limits.maxEnergyPerOutputTokenJ = optional("max_energy_per_output_token_j");
    limits.maxTemperatureC = optional("max_temperature_c");
    f.adopt(l.finish());
}

} // namespace

LlmRegionSpec readLlmRegionSpec(io::JsonFields& f, const json& document)
{
    LlmRegionSpec spec;
    readAxes(f, spec);
    readLimits(f, spec.limits);
    const std::string objective =
        f.choice("objective", {"max-output-tokens", "max-tokens-per-gpu", "min-energy-per-token"},
                 "max-output-tokens");
    spec.objective = llmObjectiveFromName(objective).value_or(LlmObjective::MaxOutputTokens);
    if (f.ok()) {
        auto scenario = llmsim::llmScenarioFromJson(document.at("scenario"), f.path());
        if (!scenario)
            f.adopt(scenario.error());
        else
            spec.scenario = std::move(*scenario);
    }
    return spec;
}

json llmRegionSpecToJson(const LlmRegionSpec& spec)
{
    return {{"kind", "batchscope.llmregion.spec"},
            {"scenario", llmsim::llmScenarioToJson(spec.scenario)},
            {"axes", axesJson(spec)},
            {"limits", limitsJson(spec.limits)},
            {"objective", llmObjectiveName(spec.objective)}};
}

Expected<LlmRegionSpec> llmRegionSpecFromJson(const json& document, const std::string& path,
                                              const std::string& where)
{
    if (!document.is_object())
        return makeError(ErrorCode::Value, path, 0, 0, where + ": must be an object");
    JsonFields f(document, where, path);
    f.choice("kind", {"batchscope.llmregion.spec"}, "batchscope.llmregion.spec");
    f.object("scenario", true);
    LlmRegionSpec spec = readLlmRegionSpec(f, document);
    if (f.ok())
        if (auto valid = validate(spec); !valid)
            f.fail("axes", valid.error().message);
    if (auto status = f.finish(); !status)
        return status.error();
    return spec;
}

} // namespace bs::analysis
