#pragma once

#include "llmsim/enginestate.h"

namespace bs::llmsim {

/// Orca-style iteration-level batching: every running request advances each step; new requests
/// join whole (no chunking) when their prompt fits in what the decodes left of the token budget
/// and the KV blocks for prompt + maximum output can be reserved. Nothing is ever preempted.
class OrcaPolicy final : public SchedulerPolicy
{
public:
    void schedule(EngineState& state, StepPlan& plan) const override;
    std::int64_t unsplittableTokens(const EngineConfig& config,
                                    const RequestSpec& request) const override;
};

} // namespace bs::llmsim
