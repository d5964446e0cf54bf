// The engine's event loop: schedule a step, advance time by its duration, emit tokens.
#include "llmsim/enginestate.h"
#include "llmsim/llmsimulator.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace bs::llmsim {

namespace {

/// A request the engine could never finish is an error up front, not a run that hangs.
Status checkFits(const EngineConfig& config, const SchedulerPolicy& policy,
                 std::span<const RequestSpec> requests)
{
    const std::int64_t capacityTokens = config.numGpuBlocks * config.blockSize;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        // The last output token is never fed back, so the cache holds prompt + output - 1
        // (some policies' admission asks for more).
        const std::int64_t peakTokens = policy.aloneKvTokens(config, requests[i]);
        if (peakTokens > capacityTokens)
            return makeError(
                ErrorCode::Value,
                "arrivals: request " + std::to_string(i) + " needs " + std::to_string(peakTokens) +
                    " tokens of KV cache, more than the " + std::to_string(capacityTokens) +
                    " the engine has (num_gpu_blocks x block_size)" +
                    (config.policy == "sglang" ? " (sglang admits a request when its "
                                                 "prompt + output tokens are fewer "
                                                 "than the free tokens)"
                                               : ""));
        const std::int64_t wholeTokens = policy.unsplittableTokens(config, requests[i]);
        if (wholeTokens > config.maxNumBatchedTokens)
            return makeError(ErrorCode::Value,
                             "arrivals: request " + std::to_string(i) +
                                 " may need to (re)compute " + std::to_string(wholeTokens) +
                                 " tokens in one step, more than max_num_batched_tokens = " +
                                 std::to_string(config.maxNumBatchedTokens) + " (policy " +
                                 config.policy + " does not split them)");
    }
    return {};
}

class EngineLoop
{
public:
    EngineLoop(const EngineConfig& config, const StepTimeModel& stepTime,
               std::span<const RequestSpec> requests, EngineRun& out)
        : m_stepTime(stepTime)
        , m_requests(requests)
        , m_steps(out.steps)
        , m_itlGaps(out.itlGaps)
        , m_busyEnergyJ(out.busyEnergyJ)
        , m_peakTemperatureC(out.peakTemperatureC)
        , m_device(stepTime.initialState())
    {
        m_state.config = config;
        m_state.pool = BlockPool(config.numGpuBlocks);
        m_state.sequences.reserve(requests.size());
        for (const RequestSpec& spec : requests) {
            Sequence seq;
            seq.spec = spec;
            seq.tokens = spec.promptTokens;
            m_state.sequences.push_back(seq);
        }
    }

    Status run(const SchedulerPolicy& policy, CancelToken cancel)
    {
        StepPlan plan;
        while (m_finished < m_requests.size()) {
            if ((m_steps.size() & 1023) == 0 && cancel.isCancelled())
                return makeError(ErrorCode::Cancelled, "cancelled");
            admitArrivals();
            plan.clear();
            policy.schedule(m_state, plan);
            if (!plan.work.empty()) {
                executeStep(plan);
                continue;
            }
            if (plan.preempted > 0)
                continue; // the next schedule() call admits from waiting at once
            // Nothing runs or waits (checkFits guarantees a lone request fits): jump ahead.
            if (m_nextArrival < m_requests.size()) {
                m_nowS = std::max(m_nowS, m_requests[m_nextArrival].arrivalS);
                continue;
            }
            return makeError(ErrorCode::Internal,
                             "the engine stalled with " + std::to_string(m_state.waiting.size()) +
                                 " waiting and " + std::to_string(m_state.running.size()) +
                                 " running requests and nothing schedulable");
        }
        return {};
    }

    void results(std::vector<RequestResult>& out) const
    {
        out.clear();
        out.reserve(m_state.sequences.size());
        for (const Sequence& seq : m_state.sequences) {
            RequestResult r;
            r.arrivalS = seq.spec.arrivalS;
            r.promptTokens = seq.spec.promptTokens;
            r.outputTokens = seq.spec.outputTokens;
            r.firstScheduledS = seq.firstScheduledS;
            r.firstTokenS = seq.firstTokenS;
            r.finishS = seq.lastTokenS;
            r.ttftS = seq.firstTokenS - seq.spec.arrivalS;
            r.e2eS = seq.lastTokenS - seq.spec.arrivalS;
            r.tpotS = seq.spec.outputTokens > 1
                          ? (seq.lastTokenS - seq.firstTokenS) / (seq.spec.outputTokens - 1)
                          : 0.0;
            r.queueS = seq.firstScheduledS - seq.spec.arrivalS;
            r.maxItlS = seq.maxGapS;
            r.preemptions = seq.preemptions;
            out.push_back(r);
        }
    }

private:
    /// Requests that arrived by now join the tail of waiting; later ones wait for a later step.
    void admitArrivals()
    {
        while (m_nextArrival < m_requests.size() && m_requests[m_nextArrival].arrivalS <= m_nowS)
            m_state.waiting.push_back(std::int32_t(m_nextArrival++));
    }

    void executeStep(const StepPlan& plan)
    {
        m_chunks.clear();
        StepRecord record;
        record.startS = m_nowS;
        for (const ScheduledWork& work : plan.work) {
            Sequence& seq = m_state.sequences[std::size_t(work.sequence)];
            const ScheduledChunk chunk{seq.computed, work.newTokens};
            m_chunks.push_back(chunk);
            record.scheduledTokens += work.newTokens;
            if (chunk.isDecode())
                ++record.decodeSeqs;
            else
                record.prefillTokens += work.newTokens;
            if (seq.firstScheduledS < 0.0)
                seq.firstScheduledS = m_nowS;
        }
        const StepCost cost = m_stepTime.stepCost(m_chunks, m_device, m_nowS);
        record.durationS = cost.durationS;
        record.powerW = float(cost.powerW);
        if (std::isfinite(cost.powerW))
            m_busyEnergyJ += cost.powerW * cost.durationS;
        if (m_stepTime.modelsTemperature())
            m_peakTemperatureC = std::isnan(m_peakTemperatureC)
                                     ? m_device.temperatureC
                                     : std::max(m_peakTemperatureC, m_device.temperatureC);
        record.running = std::int32_t(m_state.running.size());
        record.waiting = std::int32_t(m_state.waiting.size());
        record.preempted = plan.preempted;
        record.admitted = plan.admitted;
        record.kvBlocksUsed = m_state.usedBlocks();
        m_steps.push_back(record);
        m_nowS += record.durationS;
        for (const ScheduledWork& work : plan.work)
            advance(work);
        std::erase_if(m_state.running, [this](std::int32_t id) {
            const Sequence& seq = m_state.sequences[std::size_t(id)];
            return seq.generated >= seq.spec.outputTokens;
        });
    }

    /// The step's end for one sequence: its tokens are computed; a sequence whose whole
    /// context is computed samples one token; one with all its output tokens finishes.
    void advance(const ScheduledWork& work)
    {
        Sequence& seq = m_state.sequences[std::size_t(work.sequence)];
        seq.computed += work.newTokens;
        if (seq.computed != seq.tokens)
            return;
        if (seq.lastTokenS >= 0.0) {
            seq.maxGapS = std::max(seq.maxGapS, m_nowS - seq.lastTokenS);
            m_itlGaps.add(m_nowS - seq.lastTokenS);
        } else {
            seq.firstTokenS = m_nowS;
        }
        seq.lastTokenS = m_nowS;
        ++seq.generated;
        ++seq.tokens;
        if (seq.generated >= seq.spec.outputTokens) {
            m_state.release(work.sequence, false);
            ++m_finished;
        }
    }

    const StepTimeModel& m_stepTime;
    std::span<const RequestSpec> m_requests;
    std::vector<StepRecord>& m_steps;
    sim::LogHistogram& m_itlGaps;
    double& m_busyEnergyJ;
    double& m_peakTemperatureC;
    accel::ThermalState m_device; ///< Temperature for the step model's power and throttling.
    EngineState m_state;
    std::vector<ScheduledChunk> m_chunks;
    std::size_t m_nextArrival = 0;
    std::size_t m_finished = 0;
    double m_nowS = 0.0;
};

} // namespace

Expected<EngineRun> runEngine(const EngineConfig& config, const StepTimeModel& stepTime,
                              std::span<const RequestSpec> requests, CancelToken cancel)
{
    const auto policy = makePolicy(config.policy);
    if (!policy)
        return makeError(ErrorCode::Unsupported,
                         "engine.policy: unknown policy '" + config.policy +
                             "' (known: vllm_v1, vllm_v0, orca, sarathi, trtllm, sglang)");
    if (auto status = checkFits(config, *policy, requests); !status)
        return status.error();
    EngineRun out;
    out.idlePowerW = stepTime.idlePowerW();
    EngineLoop loop(config, stepTime, requests, out);
    if (auto status = loop.run(*policy, cancel); !status)
        return status.error();
    loop.results(out.requests);
    return out;
}

} // namespace bs::llmsim
