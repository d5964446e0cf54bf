#pragma once

#include "util/expected.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace bs::llmsim {

/// The shape of a decoder-only transformer as its Hugging Face config.json gives it: what
/// weight memory, KV-cache bytes per token and (for mixture-of-experts models) the active
/// parameters per token follow from.
struct ModelShape
{
    std::string modelType; ///< "llama", "qwen3", "qwen3_moe", "mixtral", ...
    std::int32_t layers = 0;
    std::int32_t hidden = 0;
    std::int32_t attentionHeads = 0;
    std::int32_t kvHeads = 0; ///< num_key_value_heads (grouped-query attention); = heads if absent.
    std::int32_t headDim = 0; ///< head_dim; hidden / heads if absent.
    std::int32_t intermediate = 0; ///< Dense MLP width (per expert for Mixtral).
    std::int32_t vocab = 0;
    bool tiedEmbeddings = false;
    std::int32_t experts = 0;            ///< 0 for a dense model.
    std::int32_t expertsPerToken = 0;    ///< Routed experts each token uses.
    std::int32_t expertIntermediate = 0; ///< Per-expert MLP width (moe_intermediate_size).
    std::string dtype; ///< torch_dtype as written ("bfloat16"), empty when absent.

    friend bool operator==(const ModelShape&, const ModelShape&) = default;
};

/// Reads a config.json object. Errors name the key: a missing or non-positive size, heads that
/// do not divide the hidden size without head_dim, a multimodal config whose text model is
/// nested (text_config: give that part).
Expected<ModelShape> modelShapeFromHfConfig(const nlohmann::json& config, const std::string& path);
/// A config.json file, or a shipped model shape named "builtin:NAME" (resources/presets/models:
/// llama-3.1-8b, llama-3.1-70b, qwen3-32b, qwen3-30b-a3b, mixtral-8x7b).
Expected<ModelShape> readHfConfig(const std::string& path);

/// The names of the shipped model shapes, sorted ("llama-3.1-8b", ...).
std::vector<std::string> builtinModelNames();
/// "builtin:NAME": such a path is a name, never resolved against a folder.
bool isBuiltinModelConfig(const std::string& path);
/// "builtin:" + name.
std::string builtinModelConfig(const std::string& name);

/// Every weight: embeddings, per layer attention (q, k, v, o), the MLP or all experts with
/// their router, the two norms, the final norm and the LM head unless tied.
std::int64_t parameterCount(const ModelShape& shape);
/// The weights one token passes through: experts limited to those it is routed to.
std::int64_t activeParameterCount(const ModelShape& shape);

} // namespace bs::llmsim
