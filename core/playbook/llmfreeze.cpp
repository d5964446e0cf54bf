#include "llmsim/runreplay.h"
#include "playbook/llmplaybook.h"

#include <cmath>
#include <cstdlib>
#include <set>
#include <string_view>

namespace bs::playbook {

namespace {

/// One step-1 item: where the run headers name it, and the dataset tag that stands in for it
/// when a header lacks it (a user-entered model revision, say).
struct LlmFreezeKey
{
    const char* key;
    std::vector<std::string> knobs;
    std::string data::RunTags::*tag = nullptr;
    bool onlyWhenRecorded = false; ///< Absent means the engine's default (quantization: none).
    /// A knob sglang does not have: no "not recorded" row when both runs are sglang's.
    bool notOnSglang = false;
};

const std::vector<LlmFreezeKey>& freezeKeys()
{
    static const std::vector<LlmFreezeKey> keys = {
        {"model_revision",
         {"engine.revision", "revision", "model_revision", "engine.model_revision"},
         &data::RunTags::modelRevision},
        {"engine_version",
         {"vllm_version", "sglang_version", "engine_version", "version", "trtllm_version"},
         &data::RunTags::runtime},
        {"max_num_seqs",
         {"engine.max_num_seqs", "max_num_seqs", "engine.max_batch_size", "max_batch_size"}},
        {"max_num_batched_tokens",
         {"engine.max_num_batched_tokens", "max_num_batched_tokens", "engine.max_num_tokens",
          "max_num_tokens"},
         nullptr,
         false,
         true},
        {"enable_chunked_prefill",
         {"engine.enable_chunked_prefill", "enable_chunked_prefill"},
         nullptr,
         false,
         true},
        // sglang's budget knobs: other engines have none, so no "not recorded" row for them.
        {"chunked_prefill_size", llmsim::kChunkedPrefillSizeKeys, nullptr, true},
        {"max_prefill_tokens", llmsim::kMaxPrefillTokensKeys, nullptr, true},
        {"gpu_memory_utilization",
         {"kv_cache.gpu_memory_utilization", "engine.gpu_memory_utilization",
          "gpu_memory_utilization"}},
        {"tensor_parallel_size",
         {"engine.tensor_parallel_size", "tensor_parallel_size", "tp_size", "tp"}},
        {"dtype", {"engine.dtype", "dtype"}},
        {"kv_cache_dtype", {"engine.kv_cache_dtype", "kv_cache_dtype", "kv_cache.cache_dtype"}},
        {"quantization", {"engine.quantization", "quantization"}, nullptr, true},
        {"dataset", {"dataset_path", "dataset_name", "dataset", "input_config.dataset"}},
        {"seed", {"engine.seed", "seed"}, &data::RunTags::workloadSeed},
    };
    return keys;
}

std::string valueOf(const data::LlmRun& run, const data::RunTags& tags, const LlmFreezeKey& key)
{
    std::string value = llmKnob(run, key.knobs);
    if (value.empty() && key.tag)
        value = tags.*key.tag;
    return value;
}

/// The run headers' other engine settings ("engine.<name>", outside freezeKeys): a knob such
/// as generation_config or enforce_eager changes what the requests do or how fast, so a
/// difference in one is named like any other.
std::vector<std::string> otherEngineKnobs(const data::LlmRun& baseline,
                                          const data::LlmRun& candidate)
{
    std::set<std::string> covered = {"engine.model"};
    for (const auto& key : freezeKeys())
        covered.insert(key.knobs.begin(), key.knobs.end());
    std::set<std::string> names;
    for (const auto* run : {&baseline, &candidate})
        for (const auto& [knob, value] : run->knobs)
            if (knob.starts_with("engine.") && !covered.contains(knob))
                names.insert(knob);
    return {names.begin(), names.end()};
}

/// The engine that served the run: the bench's backend, else the tool that logged it.
std::string engineOf(const data::LlmRun& run)
{
    return run.backend.empty() ? run.tool : run.backend;
}

} // namespace

std::optional<LlmPair> llmPair(const PlaybookInputs& inputs)
{
    const auto& b = inputs.baseline.llmRuns;
    const auto& c = inputs.candidate.llmRuns;
    if (!b || !c || b->runs.empty() || c->runs.empty())
        return std::nullopt;
    return LlmPair{&b->runs.front(), &c->runs.front(), inputs.baseline.llmRunsName,
                   inputs.candidate.llmRunsName};
}

std::vector<FreezeItem> llmFreezeItems(const LlmPair& pair, const data::RunTags& baselineTags,
                                       const data::RunTags& candidateTags)
{
    const std::string where = pair.baselineName + " vs " + pair.candidateName + " (run headers)";
    std::vector<FreezeItem> items;
    auto add = [&](const std::string& key, const std::string& b, const std::string& c) {
        const bool notRecorded = b.empty() && c.empty();
        items.push_back({key, b, c, where, !notRecorded && b != c, notRecorded, false, {}});
    };
    add("model", pair.baseline->model, pair.candidate->model);
    add("engine", engineOf(*pair.baseline), engineOf(*pair.candidate));
    const bool bothSglang = llmsim::runEngineOf(*pair.baseline).engine.policy == "sglang" &&
                            llmsim::runEngineOf(*pair.candidate).engine.policy == "sglang";
    for (const auto& key : freezeKeys()) {
        const std::string b = valueOf(*pair.baseline, baselineTags, key);
        const std::string c = valueOf(*pair.candidate, candidateTags, key);
        if ((key.onlyWhenRecorded || (key.notOnSglang && bothSglang)) && b.empty() && c.empty())
            continue;
        add(key.key, b, c);
    }
    for (const auto& knob : otherEngineKnobs(*pair.baseline, *pair.candidate))
        add(knob.substr(std::string_view("engine.").size()), llmKnob(*pair.baseline, {knob}),
            llmKnob(*pair.candidate, {knob}));
    return items;
}

} // namespace bs::playbook
