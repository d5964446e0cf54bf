// simulateLlm: arrivals and step model prepared once, then one engine run per replication.
#include "llmsim/llmsimulator.h"

#include "io/readdataset.h"
#include "io/servingrequestlog.h"
#include "llmsim/kvcapacity.h"
#include "llmsim/tracefit.h"
#include "sim/arrivalprocess.h"
#include "sim/rng.h"
#include "util/threadpool.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <thread>

namespace bs::llmsim {

namespace {

/// Token-length streams, after the arrival streams so that lengths and gaps stay independent.
constexpr std::uint64_t kPromptLengthStream = 64;
constexpr std::uint64_t kOutputLengthStream = 65;

std::int32_t drawTokens(const TokenLengthSpec& spec, sim::Rng& rng)
{
    switch (spec.kind) {
    case TokenLengthSpec::Kind::Fixed:
        return spec.tokens;
    case TokenLengthSpec::Kind::Uniform: {
        const auto span = std::uint64_t(spec.max - spec.min) + 1;
        return spec.min + std::int32_t(std::min<std::uint64_t>(
                              std::uint64_t(rng.uniform() * double(span)), span - 1));
    }
    case TokenLengthSpec::Kind::Lognormal: {
        // Parameters of log X for mean m and coefficient of variation cv.
        const double sigma2 = std::log1p(spec.cv * spec.cv);
        const double mu = std::log(spec.mean) - 0.5 * sigma2;
        const double x = std::exp(mu + std::sqrt(sigma2) * rng.normal());
        return std::int32_t(std::clamp<long long>(std::llround(x), 1, spec.max));
    }
    }
    return 1;
}

std::vector<RequestSpec> poissonRequests(const LlmArrivalSpec& spec, std::uint64_t seed)
{
    sim::ArrivalSpec arrivals;
    arrivals.kind = sim::ArrivalSpec::Kind::Poisson;
    arrivals.ratePerS = spec.ratePerS * spec.rateMultiplier / double(spec.replicas);
    auto process = sim::makeArrivalProcess(arrivals, nullptr, seed, sim::kFirstArrivalStream);
    std::vector<double> timesS(std::size_t(spec.count));
    process->generate(timesS.data(), timesS.size());
    sim::Rng promptRng(seed, kPromptLengthStream);
    sim::Rng outputRng(seed, kOutputLengthStream);
    std::vector<RequestSpec> requests(timesS.size());
    for (std::size_t i = 0; i < requests.size(); ++i) {
        requests[i].arrivalS = timesS[i];
        requests[i].promptTokens = drawTokens(spec.promptTokens, promptRng);
        requests[i].outputTokens = drawTokens(spec.outputTokens, outputRng);
    }
    return requests;
}

/// The requests of a serving log (*.jsonl) or of any request trace with token counts.
Expected<std::vector<RequestSpec>> requestsFromFile(const std::string& path)
{
    std::vector<RequestSpec> requests;
    if (path.ends_with(".jsonl")) {
        auto logged = io::readServingRequestLog(path);
        if (!logged)
            return logged.error();
        for (const data::LlmRequest& r : *logged)
            requests.push_back({*r.arrivalS, *r.promptTokens, *r.outputTokens});
        return requests;
    }
    auto dataset = io::readDataset(path);
    if (!dataset) {
        Error error = dataset.error();
        error.message = "scenario.arrivals.file: not a request trace the importers read (" +
                        error.message + ")";
        return error;
    }
    const auto trace = dataset->requestTrace();
    if (!trace || trace->inputTokens.empty() || trace->outputTokens.empty())
        return makeError(ErrorCode::Value, path, 0, 0,
                         "scenario.arrivals.file: not a request trace with prompt and output "
                         "token counts (a requests.jsonl serving log, or a trace such as the "
                         "Azure LLM inference CSV)");
    const double originS =
        trace->size() ? *std::min_element(trace->arrivalS.begin(), trace->arrivalS.end()) : 0.0;
    for (std::size_t i = 0; i < trace->size(); ++i) {
        // Every request reads its prompt and writes at least one token in this model.
        if (trace->inputTokens[i] < 1 || trace->outputTokens[i] < 1)
            return makeError(ErrorCode::Value, path, 0, 0,
                             "scenario.arrivals.file: request " + std::to_string(i) +
                                 " has no prompt or no output tokens (each needs at least 1)");
        requests.push_back(
            {trace->arrivalS[i] - originS, trace->inputTokens[i], trace->outputTokens[i]});
    }
    return requests;
}

/// `copies` back-to-back copies; each starts one mean gap after the previous copy's last
/// request (period = span * n / (n - 1)), so the mean rate is kept.
std::vector<RequestSpec> repeated(const std::vector<RequestSpec>& requests, std::int32_t copies)
{
    if (copies <= 1 || requests.size() < 2)
        return requests;
    const double spanS = requests.back().arrivalS - requests.front().arrivalS;
    const double periodS = spanS * double(requests.size()) / double(requests.size() - 1);
    std::vector<RequestSpec> out;
    out.reserve(requests.size() * std::size_t(copies));
    for (std::int32_t c = 0; c < copies; ++c)
        for (RequestSpec r : requests) {
            r.arrivalS += periodS * c;
            out.push_back(r);
        }
    return out;
}

/// The requests one replica of a round-robin router serves, at the scaled rate.
std::vector<RequestSpec> oneReplicasShare(std::vector<RequestSpec> requests,
                                          const LlmArrivalSpec& spec)
{
    if (spec.replicas > 1) {
        std::size_t kept = 0;
        for (std::size_t i = 0; i < requests.size(); i += std::size_t(spec.replicas))
            requests[kept++] = requests[i];
        requests.resize(kept);
    }
    if (spec.rateMultiplier != 1.0)
        for (RequestSpec& r : requests)
            r.arrivalS /= spec.rateMultiplier;
    return requests;
}

Expected<std::vector<RequestSpec>> replayRequests(const LlmArrivalSpec& spec,
                                                  const std::string& baseDirectory)
{
    std::vector<RequestSpec> requests = spec.requests;
    if (!spec.file.empty()) {
        std::filesystem::path path(spec.file);
        if (path.is_relative() && !baseDirectory.empty())
            path = std::filesystem::path(baseDirectory) / path;
        auto fromFile = requestsFromFile(path.string());
        if (!fromFile)
            return fromFile.error();
        requests = std::move(*fromFile);
    }
    // The engine serves in arrival order; ties keep the file's order.
    std::stable_sort(
        requests.begin(), requests.end(),
        [](const RequestSpec& a, const RequestSpec& b) { return a.arrivalS < b.arrivalS; });
    return oneReplicasShare(repeated(requests, spec.repeat), spec);
}

/// TTFT and end-to-end latency as the client measures them: the engine's plus the time outside
/// it (the step's client_overhead_ms). Token times stay the engine's, so gaps, TPOT, the run's
/// duration and throughput do not move.
void addClientTime(std::vector<RequestResult>& requests, double clientS)
{
    if (clientS <= 0.0)
        return;
    for (RequestResult& r : requests) {
        r.ttftS += clientS;
        r.e2eS += clientS;
    }
}

} // namespace

Expected<LlmResult> simulateLlm(const LlmScenario& input, const LlmSimOptions& options,
                                CancelToken cancel)
{
    LlmScenario scenario = input;
    std::optional<KvCapacity> kvSized;
    if (scenario.engine.kvMemory) {
        auto capacity =
            kvCapacity(*scenario.engine.kvMemory, scenario.engine.blockSize, options.baseDirectory);
        if (!capacity) {
            Error error = capacity.error();
            if (error.message.rfind("engine.", 0) == 0)
                error.message = "scenario." + error.message;
            return error;
        }
        scenario.engine.numGpuBlocks = capacity->numGpuBlocks;
        kvSized = *capacity;
    }
    // Arrivals fitted to a trace become the Poisson spec they stand for, so the result says
    // exactly what was run.
    std::string fittedFrom;
    if (scenario.arrivals.kind == LlmArrivalSpec::Kind::Fitted) {
        LlmArrivalSpec traceSpec;
        traceSpec.file = scenario.arrivals.file;
        auto trace = replayRequests(traceSpec, options.baseDirectory);
        if (!trace)
            return trace.error();
        auto fitted = poissonFittedTo(*trace, scenario.arrivals.count);
        if (!fitted) {
            Error error = fitted.error();
            error.path = scenario.arrivals.file;
            return error;
        }
        fittedFrom = scenario.arrivals.file;
        fitted->rateMultiplier = scenario.arrivals.rateMultiplier;
        fitted->replicas = scenario.arrivals.replicas;
        scenario.arrivals = *fitted;
    }
    auto stepTime = makeStepTimeModel(scenario.step, options.baseDirectory);
    if (!stepTime)
        return stepTime.error();
    std::vector<RequestSpec> replayed;
    if (scenario.arrivals.kind == LlmArrivalSpec::Kind::Replay) {
        auto requests = replayRequests(scenario.arrivals, options.baseDirectory);
        if (!requests)
            return requests.error();
        replayed = std::move(*requests);
    }
    const auto reps = std::size_t(scenario.replications);
    std::vector<std::optional<Error>> errors(reps);
    std::vector<ReplicationMetrics> metrics(reps);
    EngineRun detail; // replication 0
    const auto runOne = [&](std::size_t r) {
        const std::uint64_t seed = sim::replicationSeed(scenario.seed, std::uint64_t(r));
        const std::vector<RequestSpec> generated =
            scenario.arrivals.kind == LlmArrivalSpec::Kind::Poisson
                ? poissonRequests(scenario.arrivals, seed)
                : std::vector<RequestSpec>();
        const auto& requests = generated.empty() ? replayed : generated;
        auto run = runEngine(scenario.engine, **stepTime, requests, cancel);
        if (!run) {
            errors[r] = run.error();
            return;
        }
        addClientTime(run->requests, scenario.step.clientOverheadMs * 1e-3);
        metrics[r] = summarise(*run, scenario.engine, scenario.sla);
        metrics[r].seed = seed;
        if (r == 0)
            detail = std::move(*run);
    };
    const std::size_t threads =
        options.threads ? options.threads : std::thread::hardware_concurrency();
    if (reps == 1 || threads <= 1) {
        for (std::size_t r = 0; r < reps; ++r)
            runOne(r);
    } else {
        ThreadPool pool(std::min(threads, reps));
        pool.parallelFor(reps, runOne, cancel);
    }
    for (auto& error : errors) {
        if (!error)
            continue;
        if (error->code == ErrorCode::Value || error->code == ErrorCode::Unsupported)
            error->message = "scenario." + error->message;
        return *error;
    }
    if (cancel.isCancelled())
        return makeError(ErrorCode::Cancelled, "simulation cancelled");
    LlmResult result;
    result.scenario = scenario;
    result.kvCapacity = kvSized;
    result.arrivalsFittedFrom = fittedFrom;
    result.replications = std::move(metrics);
    result.requests = std::move(detail.requests);
    result.steps = std::move(detail.steps);
    result.itlGaps = std::move(detail.itlGaps);
    return result;
}

} // namespace bs::llmsim
