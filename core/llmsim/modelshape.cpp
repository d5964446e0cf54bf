// A model's shape from its Hugging Face config.json, and the parameter and KV-cache sizes that
// follow from it (README.md: "KV-cache capacity").
#include "llmsim/modelshape.h"

#include "accel/embeddedpresets.h"
#include "io/jsonfields.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace bs::llmsim {

namespace {

using io::JsonFields;
using io::NumberRule;

constexpr double kMaxDimension = 1 << 24;

NumberRule dimension()
{
    return {1.0, kMaxDimension, false, true};
}

std::int32_t optionalDimension(JsonFields& f, const char* key, std::int32_t fallback)
{
    return std::int32_t(f.integerOr(key, fallback, {0.0, kMaxDimension, false, true}));
}

/// Mixtral names its expert count num_local_experts, Qwen MoE models num_experts.
std::int32_t expertCount(JsonFields& f)
{
    const std::int32_t local = optionalDimension(f, "num_local_experts", 0);
    return local > 0 ? local : optionalDimension(f, "num_experts", 0);
}

std::int64_t mlpParameters(const ModelShape& s, std::int32_t expertsUsed)
{
    // Gated MLP (gate, up, down), as every model type read here has.
    if (s.experts == 0)
        return 3LL * s.hidden * s.intermediate;
    const std::int32_t width = s.expertIntermediate > 0 ? s.expertIntermediate : s.intermediate;
    const std::int64_t router = std::int64_t(s.hidden) * s.experts;
    return 3LL * s.hidden * width * expertsUsed + router;
}

std::int64_t parameters(const ModelShape& s, std::int32_t expertsUsed)
{
    const std::int64_t qAndO = 2LL * s.hidden * s.attentionHeads * s.headDim;
    const std::int64_t kAndV = 2LL * s.hidden * s.kvHeads * s.headDim;
    const std::int64_t norms = 2LL * s.hidden;
    const std::int64_t perLayer = qAndO + kAndV + mlpParameters(s, expertsUsed) + norms;
    const std::int64_t embedding = std::int64_t(s.vocab) * s.hidden;
    return embedding * (s.tiedEmbeddings ? 1 : 2) + perLayer * s.layers + s.hidden;
}

} // namespace

Expected<ModelShape> modelShapeFromHfConfig(const nlohmann::json& config, const std::string& path)
{
    if (!config.is_object())
        return makeError(ErrorCode::Format, path, 0, 0,
                         "expected a Hugging Face config.json object");
    if (config.contains("text_config") && !config.contains("num_hidden_layers"))
        return makeError(ErrorCode::Value, path, 0, 0,
                         "text_config: a multimodal config; give the text model's config (the "
                         "text_config object) as its own file");
    JsonFields f(config, "config", path);
    ModelShape s;
    s.modelType = io::textOr(config, "model_type");
    s.layers = std::int32_t(f.integer("num_hidden_layers", dimension()));
    s.hidden = std::int32_t(f.integer("hidden_size", dimension()));
    s.attentionHeads = std::int32_t(f.integer("num_attention_heads", dimension()));
    s.kvHeads = optionalDimension(f, "num_key_value_heads", s.attentionHeads);
    s.headDim = optionalDimension(f, "head_dim", 0);
    s.intermediate = std::int32_t(f.integer("intermediate_size", dimension()));
    s.vocab = std::int32_t(f.integer("vocab_size", dimension()));
    s.tiedEmbeddings = f.boolean("tie_word_embeddings", false);
    s.experts = expertCount(f);
    s.expertsPerToken = optionalDimension(f, "num_experts_per_tok", 0);
    s.expertIntermediate = optionalDimension(f, "moe_intermediate_size", 0);
    s.dtype = io::textOr(config, "torch_dtype", io::textOr(config, "dtype"));
    if (auto status = f.finishReadingSome(); !status)
        return status.error();
    if (s.headDim == 0) {
        if (s.hidden % s.attentionHeads != 0)
            return makeError(ErrorCode::Value, path, 0, 0,
                             "config.head_dim: missing, and hidden_size " +
                                 std::to_string(s.hidden) + " is not a multiple of " +
                                 std::to_string(s.attentionHeads) + " heads");
        s.headDim = s.hidden / s.attentionHeads;
    }
    if (s.kvHeads < 1 || s.kvHeads > s.attentionHeads || s.attentionHeads % s.kvHeads != 0)
        return makeError(ErrorCode::Value, path, 0, 0,
                         "config.num_key_value_heads: " + std::to_string(s.kvHeads) +
                             " must divide num_attention_heads " +
                             std::to_string(s.attentionHeads));
    if (s.experts > 0 && (s.expertsPerToken < 1 || s.expertsPerToken > s.experts))
        return makeError(ErrorCode::Value, path, 0, 0,
                         "config.num_experts_per_tok: must be from 1 to the " +
                             std::to_string(s.experts) + " experts");
    return s;
}

namespace {

constexpr std::string_view kBuiltinPrefix = "builtin:";

const accel::detail::EmbeddedPreset* builtinModel(const std::string& name)
{
    for (std::size_t i = 0; i < accel::detail::kEmbeddedPresetCount; ++i) {
        const auto& preset = accel::detail::kEmbeddedPresets[i];
        if (std::string_view(preset.kind) == "models" && preset.file == name + ".json")
            return &preset;
    }
    return nullptr;
}

} // namespace

std::vector<std::string> builtinModelNames()
{
    std::vector<std::string> names;
    for (std::size_t i = 0; i < accel::detail::kEmbeddedPresetCount; ++i) {
        const auto& preset = accel::detail::kEmbeddedPresets[i];
        std::string file = preset.file;
        if (std::string_view(preset.kind) == "models" && file.ends_with(".json"))
            names.push_back(file.substr(0, file.size() - 5));
    }
    std::sort(names.begin(), names.end());
    return names;
}

bool isBuiltinModelConfig(const std::string& path)
{
    return path.starts_with(kBuiltinPrefix);
}

std::string builtinModelConfig(const std::string& name)
{
    return std::string(kBuiltinPrefix) + name;
}

Expected<ModelShape> readHfConfig(const std::string& path)
{
    if (isBuiltinModelConfig(path)) {
        const std::string name = path.substr(kBuiltinPrefix.size());
        const auto* preset = builtinModel(name);
        if (!preset) {
            std::string known;
            for (const auto& n : builtinModelNames())
                known += (known.empty() ? "" : ", ") + n;
            return makeError(ErrorCode::Value, path, 0, 0,
                             "no shipped model shape '" + name + "' (known: " + known + ")");
        }
        return modelShapeFromHfConfig(nlohmann::json::parse(preset->text), path);
    }
    auto json = io::readJsonFile(path, std::uint64_t(16) << 20);
    if (!json)
        return json.error();
    return modelShapeFromHfConfig(*json, path);
}

std::int64_t parameterCount(const ModelShape& shape)
{
    return parameters(shape, shape.experts);
}

std::int64_t activeParameterCount(const ModelShape& shape)
{
    return parameters(shape, shape.expertsPerToken);
}

} // namespace bs::llmsim
