#include "analysis/perfanalyzervalidation.h"

#include "sim/simulator.h"
#include "util/numbertext.h"

#include <algorithm>
#include <cmath>

namespace bs::analysis {

namespace {

/// Replications per row: enough for a 95% interval, few enough for a 30-row sweep in seconds.
constexpr int kReplications = 5;
/// Warm-up per client: a closed loop forgets its synchronous start within a few cycles.
constexpr std::uint64_t kWarmupCyclesPerClient = 20;

std::string where(std::size_t index)
{
    return "sweep row " + std::to_string(index + 1);
}

/// The row's server columns, or an error naming the first one missing.
Status requireServerColumns(const data::SweepPoint& row, std::size_t index)
{
    if (!row.concurrency || *row.concurrency < 1.0)
        return makeError(ErrorCode::Value,
                         where(index) + ": no concurrency: perf_analyzer ran it with a request "
                                        "rate (open loop), which this check does not predict");
    const std::pair<const char*, const std::optional<double>*> columns[] = {
        {"Server Compute Input", &row.computeInputS},
        {"Server Compute Infer", &row.computeInferS},
        {"Server Compute Output", &row.computeOutputS},
        {"Inferences/Second", &row.throughputPerS},
        {"p50 latency", &row.latencyP50S},
        {"p99 latency", &row.latencyP99S}};
    for (const auto& [name, value] : columns) {
        if (!value->has_value())
            return makeError(ErrorCode::Value, where(index) + ": the column \"" + name +
                                                   "\" is missing; a prediction needs the "
                                                   "server's compute breakdown and the measured "
                                                   "throughput and latency");
    }
    if (*row.throughputPerS <= 0.0 || *row.latencyP50S <= 0.0)
        return makeError(ErrorCode::Value, where(index) + ": the measured throughput or p50 "
                                                          "latency is 0; nothing to compare with");
    if (*row.computeInferS <= 0.0)
        return makeError(ErrorCode::Value,
                         where(index) + ": \"Server Compute Infer\" is 0; the server did no work");
    return {};
}

/// Dynamic batching in requests of `batchItems` items: Triton batches whole requests up to
/// max_batch_size items, and sends a preferred size (in items) as soon as it can.
sim::PolicySpec policyFor(const TritonModelSettings& settings, int batchItems)
{
    sim::PolicySpec policy;
    policy.kind = sim::PolicySpec::Kind::Dynamic;
    policy.maxBatch = std::max(1, settings.maxBatchItems / batchItems);
    policy.maxQueueDelayS = settings.maxQueueDelayS;
    for (int items : settings.preferredBatchItems) {
        const int requests = items / batchItems;
        if (items % batchItems == 0 && requests >= 1 && requests <= policy.maxBatch &&
            (policy.preferredBatchSizes.empty() || requests > policy.preferredBatchSizes.back()))
            policy.preferredBatchSizes.push_back(requests);
    }
    return policy;
}

} // namespace

PerfAnalyzerResiduals PerfAnalyzerRowCheck::residuals() const
{
    return {predictedItemsPerS / measuredItemsPerS - 1.0, predictedP50S / measuredP50S - 1.0,
            predictedP99S / measuredP99S - 1.0};
}

namespace {

ResidualSpread spreadOf(std::vector<double> errors)
{
    ResidualSpread out;
    if (errors.empty())
        return out;
    for (double& e : errors)
        e = std::abs(e);
    std::sort(errors.begin(), errors.end());
    const std::size_t n = errors.size();
    out.medianAbs = n % 2 ? errors[n / 2] : 0.5 * (errors[n / 2 - 1] + errors[n / 2]);
    out.worstAbs = errors.back();
    return out;
}

} // namespace

PerfAnalyzerResidualSummary summarizeResiduals(const PerfAnalyzerValidation& validation)
{
    std::vector<double> throughput, p50, p99;
    for (const auto& row : validation.rows) {
        const auto r = row.residuals();
        throughput.push_back(r.throughput);
        p50.push_back(r.p50);
        p99.push_back(r.p99);
    }
    return {spreadOf(std::move(throughput)), spreadOf(std::move(p50)), spreadOf(std::move(p99))};
}

std::vector<std::string> perfAnalyzerAssumptions(const TritonModelSettings& s)
{
    std::vector<std::string> out;
    out.push_back("clients: the row's concurrency, each sending its next request when the "
                  "previous answer returns (perf_analyzer's concurrency mode), no think time");
    out.push_back("per request outside the server: client send + network/server send-recv + "
                  "client receive of the row, exponential with that mean (the CSV states only "
                  "the mean; the jitter lets requests answered together return one by one)");
    out.push_back("per batch: server compute input, infer and output of the row as copy-in, "
                  "compute and copy-out, fixed whatever its size (the row's averages); the "
                  "server queue column is predicted, not used");
    out.push_back(std::to_string(s.instances) +
                  " model instance(s), each simulated as its own server: the compute times "
                  "were measured under the row's load, so they already hold the instances' "
                  "contention for the GPU");
    if (s.maxBatchItems > 0) {
        std::string preferred;
        for (int items : s.preferredBatchItems)
            preferred += (preferred.empty() ? "" : ", ") + std::to_string(items);
        out.push_back("dynamic batching: max_batch_size " + std::to_string(s.maxBatchItems) +
                      " items, preferred sizes [" + preferred + "] items, max queue delay " +
                      significant(s.maxQueueDelayS * 1e6, 4) + " us; a batch holds whole requests");
    } else {
        out.push_back("no dynamic batching: every request is a batch of its own");
    }
    return out;
}

Expected<sim::Scenario> perfAnalyzerRowScenario(const data::SweepPoint& row, std::size_t index,
                                                const TritonModelSettings& settings,
                                                std::uint64_t requests)
{
    if (auto status = requireServerColumns(row, index); !status)
        return status.error();
    const int clients = int(std::lround(*row.concurrency));
    sim::Scenario scenario;
    scenario.name = where(index) + ": batch " + std::to_string(row.batchSize) + ", concurrency " +
                    std::to_string(clients);
    scenario.seed = 17 + index;
    scenario.requests = requests;
    scenario.warmupRequests =
        std::max(requests / 10, kWarmupCyclesPerClient * std::uint64_t(clients));
    scenario.replications = kReplications;
    sim::StreamSpec stream;
    stream.arrivals.kind = sim::ArrivalSpec::Kind::ClosedLoop;
    stream.arrivals.concurrency = clients;
    stream.arrivals.clientOverheadS = row.clientOverheadS.value_or(0.0);
    stream.arrivals.clientOverheadExponential = true;
    scenario.streams.push_back(stream);
    scenario.policy = policyFor(settings, row.batchSize);
    scenario.servers.count = settings.instances;
    scenario.servers.preComputeBaseS = *row.computeInputS;
    scenario.servers.postComputeBaseS = *row.computeOutputS;
    scenario.service.kind = sim::ServiceSpec::Kind::Linear;
    scenario.service.baseS = *row.computeInferS;
    return scenario;
}

Expected<PerfAnalyzerValidation> validatePerfAnalyzer(const data::SweepTable& sweep,
                                                      const TritonModelSettings& settings,
                                                      std::uint64_t requests,
                                                      const CancelToken& cancel)
{
    PerfAnalyzerValidation out;
    out.assumptions = perfAnalyzerAssumptions(settings);
    for (std::size_t i = 0; i < sweep.points.size(); ++i) {
        const data::SweepPoint& row = sweep.points[i];
        auto scenario = perfAnalyzerRowScenario(row, i, settings, requests);
        if (!scenario)
            return scenario.error();
        auto result = sim::simulate(*scenario, {}, Progress::null(), cancel);
        if (!result)
            return result.error();
        PerfAnalyzerRowCheck check;
        check.row = i;
        check.series = row.series;
        check.batchItems = row.batchSize;
        check.concurrency = scenario->streams.front().arrivals.concurrency;
        check.measuredItemsPerS = *row.throughputPerS;
        check.predictedItemsPerS = result->throughputPerS.value * double(row.batchSize);
        check.measuredP50S = *row.latencyP50S;
        check.predictedP50S = result->latency.p50.value;
        check.measuredP99S = *row.latencyP99S;
        check.predictedP99S = result->latency.p99.value;
        check.predictedMeanBatchRequests = result->meanBatchSize.value;
        out.rows.push_back(check);
    }
    return out;
}

} // namespace bs::analysis
