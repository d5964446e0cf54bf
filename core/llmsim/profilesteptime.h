#pragma once

#include "llmsim/gridtable.h"
#include "llmsim/steptimemodel.h"

#include <map>
#include <memory>
#include <string>

namespace bs::llmsim {

/// Step time from measured per-operator timings of one transformer layer (LLMServingSim's
/// profiler layout: dense.csv, attention.csv, per_sequence.csv), scaled by the model's layer
/// count. README.md ("Step time: profile") gives the exact sum.
class ProfileStepTime final : public StepTimeModel
{
public:
    struct Tables
    {
        std::map<std::string, GridTable> dense;       ///< Operator -> time_us over tokens.
        std::map<std::string, GridTable> perSequence; ///< lm_head, sampler -> us over sequences.
        GridTable decodeAttention;  ///< (n_decode, kv_decode) -> us, no prefill chunk.
        GridTable prefillAttention; ///< (prefill_chunk, kv_prefill) -> us, no decodes.
        GridTable mixedAttention;   ///< (prefill_chunk, kv_prefill, n_decode, kv_decode) -> us.
        std::int32_t layers = 0;
        double overheadMs = 0.0;
    };

    explicit ProfileStepTime(Tables tables);
    double stepS(std::span<const ScheduledChunk> chunks) const override;

    /// One layer's attention time (microseconds) for these chunks.
    double attentionUs(std::span<const ScheduledChunk> chunks) const;

private:
    double denseLayerUs(double tokens) const;

    Tables m_tables;
    const GridTable* m_layernorm = nullptr;
};

/// Reads the three CSVs in `directory` and num_hidden_layers from `modelConfig` (a Hugging Face
/// config.json). Errors name the file, the line and the reason.
Expected<std::shared_ptr<const ProfileStepTime>> loadProfileStepTime(const std::string& directory,
                                                                     const std::string& modelConfig,
                                                                     double overheadMs);

} // namespace bs::llmsim
