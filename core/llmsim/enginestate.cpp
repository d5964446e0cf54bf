#include "llmsim/enginestate.h"

#include "llmsim/orcapolicy.h"
#include "llmsim/vllmv0policy.h"
#include "llmsim/vllmv1policy.h"

namespace bs::llmsim {

std::int32_t preemptLastRunning(EngineState& state, StepPlan& plan)
{
    const std::int32_t victimId = state.running.back();
    state.running.pop_back();
    Sequence& victim = state.sequences[std::size_t(victimId)];
    state.release(victim);
    victim.computed = 0;
    ++victim.preemptions;
    ++plan.preempted;
    state.waiting.push_front(victimId);
    return victimId;
}

void admitHead(EngineState& state, StepPlan& plan)
{
    state.running.push_back(state.waiting.front());
    state.waiting.pop_front();
    ++plan.admitted;
}

std::unique_ptr<SchedulerPolicy> makePolicy(const std::string& name)
{
    if (name == "vllm_v1")
        return std::make_unique<VllmV1Policy>();
    if (name == "vllm_v0")
        return std::make_unique<VllmV0Policy>();
    if (name == "orca")
        return std::make_unique<OrcaPolicy>();
    return nullptr;
}

} // namespace bs::llmsim
