#pragma once

#include "llmsim/enginestate.h"

namespace bs::llmsim {

/// Sarathi-Serve's SarathiScheduler (stall-free batching): in arrival order, every decode first
/// (preempting the newest running request when the cache is full), then the ongoing partial
/// prefills, then new requests FCFS, all filling one token budget; a new request starts only
/// when the blocks for its whole prompt are free.
class SarathiPolicy final : public SchedulerPolicy
{
public:
    void schedule(EngineState& state, StepPlan& plan) const override;
    std::int64_t unsplittableTokens(const EngineConfig&, const RequestSpec&) const override
    {
        return 0; // prompts and recomputes are always chunked
    }

private:
    /// Schedules the decodes; returns the partial prefills in arrival order.
    static std::vector<std::int32_t> decodePass(EngineState& state, StepPlan& plan,
                                                std::int64_t& used);
    static void waitingPass(EngineState& state, StepPlan& plan, std::int64_t& used);
};

} // namespace bs::llmsim
