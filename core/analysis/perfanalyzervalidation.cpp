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
    const bool closedLoop = row.concurrency && *row.concurrency >= 1.0;
    const bool openLoop = !closedLoop && row.requestRatePerS && *row.requestRatePerS > 0.0;
    if (!closedLoop && !openLoop)
        return makeError(ErrorCode::Value, where(index) +
                                               ": neither a concurrency nor a request rate; a "
                                               "prediction needs the load perf_analyzer offered");
    const std::pair<const char*, const std::optional<double>*> columns[] = {
        {"Server Compute Input", &row.computeInputS},
        {"Server Compute Infer", &row.computeInferS},
        {"Server Compute Output", &row.computeOutputS},
        {"Inferences/Second", &row.throughputPerS},
        {"p99 latency", &row.latencyP99S}};
    for (const auto& [name, value] : columns) {
        if (!value->has_value())
            return makeError(ErrorCode::Value, where(index) + ": the column \"" + name +
                                                   "\" is missing; a prediction needs the "
                                                   "server's compute breakdown and the measured "
                                                   "throughput and latency (Model Analyzer's "
                                                   "CSV reports have no breakdown: validate its "
                                                   "checkpoint, checkpoints/*.ckpt)");
    }
    const auto central = row.latencyP50S ? row.latencyP50S : row.latencyMeanS;
    if (!central)
        return makeError(ErrorCode::Value, where(index) + ": neither a p50 nor a mean latency "
                                                          "to compare with");
    if (*row.throughputPerS <= 0.0 || *central <= 0.0)
        return makeError(ErrorCode::Value, where(index) + ": the measured throughput or "
                                                          "typical latency is 0; nothing to "
                                                          "compare with");
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
    return {predictedItemsPerS / measuredItemsPerS - 1.0,
            predictedCentralS / measuredCentralS - 1.0, predictedP99S / measuredP99S - 1.0};
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
    std::vector<double> throughput, central, p99;
    for (const auto& row : validation.rows) {
        const auto r = row.residuals();
        throughput.push_back(r.throughput);
        central.push_back(r.central);
        p99.push_back(r.p99);
    }
    return {spreadOf(std::move(throughput)), spreadOf(std::move(central)),
            spreadOf(std::move(p99))};
}

namespace {

const char* const kClientsAssumption =
    "clients: the row's concurrency, each sending its next request when the previous answer "
    "returns (perf_analyzer's concurrency mode), no think time";
const char* const kClosedLoopOverheadAssumption =
    "per request outside the server: client send + network/server send-recv + client receive "
    "of the row, exponential with that mean unless a no-load row sets its spread (below) (the "
    "CSV states only the mean; the jitter lets requests answered together return one by one)";
const char* const kOpenLoopAssumption =
    "request-rate rows: requests arrive at the row's rate, spaced as perf_analyzer's "
    "--request-distribution (constant unless the file says poisson); the row's client send + "
    "network/server send-recv + client receive is added to every predicted latency as a fixed "
    "delay (open loop: it does not change when requests arrive)";
const char* const kStagesAssumption =
    "per batch: server compute input, infer and output of the row as copy-in, compute and "
    "copy-out, fixed whatever its size (the row's averages); the server queue column is "
    "predicted, not used (but at no load, below, where it is no queue)";
const char* const kInstancesAssumption =
    "each model instance is simulated as its own server: the compute times were measured under "
    "the row's load, so they already hold the instances' contention for the GPU";

std::string batchingText(const TritonModelSettings& s)
{
    if (s.maxBatchItems <= 0)
        return "no dynamic batching: every request is a batch of its own";
    std::string preferred;
    for (int items : s.preferredBatchItems)
        preferred += (preferred.empty() ? "" : ", ") + std::to_string(items);
    return "dynamic batching: max_batch_size " + std::to_string(s.maxBatchItems) + " items, " +
           (preferred.empty() ? std::string("no preferred sizes")
                              : "preferred sizes [" + preferred + "] items") +
           ", max queue delay " + significant(s.maxQueueDelayS * 1e6, 4) +
           " us; a batch holds whole requests";
}

bool isClosedLoop(const data::SweepPoint& row)
{
    return row.concurrency && *row.concurrency >= 1.0;
}

/// The series of `sweep` in the order they first appear.
std::vector<std::string> seriesInOrder(const data::SweepTable& sweep)
{
    std::vector<std::string> out;
    for (const auto& row : sweep.points) {
        if (std::find(out.begin(), out.end(), row.series) == out.end())
            out.push_back(row.series);
    }
    return out;
}

} // namespace

std::vector<std::string> perfAnalyzerAssumptions(const TritonModelSettings& s)
{
    return {kClientsAssumption, kClosedLoopOverheadAssumption, kStagesAssumption,
            std::to_string(s.instances) +
                " model instance(s), each simulated as its own server: the compute times were "
                "measured under the row's load, so they already hold the instances' contention "
                "for the GPU",
            batchingText(s)};
}

namespace {

/// "row 3 (concurrency 1, batch 1)" or "row 3 (16 requests/s, batch 1)".
std::string rowText(const data::SweepPoint& row, std::size_t index)
{
    return "row " + std::to_string(index + 1) + " (" +
           (isClosedLoop(row) ? "concurrency 1"
                              : significant(*row.requestRatePerS, 4) + " requests/s") +
           ", batch " + std::to_string(row.batchSize) + ")";
}

void appendCalibrationAssumptions(const data::SweepTable& sweep, std::vector<std::string>& out)
{
    const auto calibrations = noLoadCalibrations(sweep);
    if (calibrations.empty())
        return;
    out.push_back("no load: where a series has a row with one request in flight (or a request "
                  "rate keeping the server under 5% busy), its server queue is Triton's own "
                  "scheduling time, added to every row of the series as a fixed delay, and its "
                  "p99 above its mean sets the exponential part of the time outside the server "
                  "((p99 - mean) / (ln 100 - 1)), the rest of that time fixed; that row is "
                  "partly in-sample (marked *)");
    for (const auto& [series, c] : calibrations) {
        const data::SweepPoint& row = sweep.points[c.row];
        const double outsideS = row.clientOverheadS.value_or(0.0);
        std::string jitter = c.jitterMeanS
                                 ? "exponential part " + significant(*c.jitterMeanS * 1e3, 3) +
                                       " ms of " + significant(outsideS * 1e3, 3) + " ms outside"
                                 : "no mean latency: the time outside stays exponential";
        out.push_back((series.empty() ? std::string("the sweep") : series) + ": no-load " +
                      rowText(row, c.row) + ", scheduling " + significant(c.schedulerS * 1e3, 3) +
                      " ms, " + jitter);
    }
}

} // namespace

std::vector<std::string> perfAnalyzerAssumptions(const data::SweepTable& sweep,
                                                 const TritonModelSettings& given)
{
    const auto series = seriesInOrder(sweep);
    const bool anyStated = std::any_of(series.begin(), series.end(), [&](const auto& name) {
        return data::tritonSettingsOf(sweep, name).has_value();
    });
    const bool anyClosed = std::any_of(sweep.points.begin(), sweep.points.end(), isClosedLoop);
    const bool anyOpen = !std::all_of(sweep.points.begin(), sweep.points.end(), isClosedLoop);
    std::vector<std::string> out;
    if (!anyStated && !anyOpen) {
        out = perfAnalyzerAssumptions(given);
        appendCalibrationAssumptions(sweep, out);
        return out;
    }
    if (anyClosed) {
        out.push_back(kClientsAssumption);
        out.push_back(kClosedLoopOverheadAssumption);
    }
    if (anyOpen)
        out.push_back(kOpenLoopAssumption);
    out.push_back(kStagesAssumption);
    out.push_back(kInstancesAssumption);
    for (const auto& name : series) {
        const auto stated = data::tritonSettingsOf(sweep, name);
        const TritonModelSettings& s = stated ? *stated : given;
        out.push_back((name.empty() ? std::string("the sweep") : "configuration " + name) +
                      (stated ? " (its model configuration in the file): "
                              : " (not stated in the file; as given): ") +
                      std::to_string(s.instances) + " model instance(s); " + batchingText(s));
    }
    appendCalibrationAssumptions(sweep, out);
    return out;
}

namespace {

/// ln 100 − 1: (p99 − mean) of an exponential, in units of its mean.
const double kExponentialP99AboveMean = std::log(100.0) - 1.0;
/// A request-rate row whose requests keep the server busier than this is not at no load.
constexpr double kNoLoadBusyFraction = 0.05;

/// Whether no request of the row can wait for another: one in flight, or a trickle.
bool atNoLoad(const data::SweepPoint& row)
{
    if (!row.serverQueueS || !row.computeInputS || !row.computeInferS || !row.computeOutputS)
        return false;
    if (row.concurrency)
        return *row.concurrency == 1.0;
    const double serverS = *row.computeInputS + *row.computeInferS + *row.computeOutputS;
    return row.requestRatePerS && *row.requestRatePerS * serverS < kNoLoadBusyFraction;
}

double loadOf(const data::SweepPoint& row)
{
    return row.concurrency.value_or(row.requestRatePerS.value_or(0.0));
}

} // namespace

std::map<std::string, NoLoadCalibration> noLoadCalibrations(const data::SweepTable& sweep)
{
    std::map<std::string, NoLoadCalibration> out;
    for (std::size_t i = 0; i < sweep.points.size(); ++i) {
        const data::SweepPoint& row = sweep.points[i];
        if (!atNoLoad(row))
            continue;
        const auto found = out.find(row.series);
        if (found != out.end()) {
            const data::SweepPoint& best = sweep.points[found->second.row];
            if (std::pair(loadOf(best), best.batchSize) <= std::pair(loadOf(row), row.batchSize))
                continue;
        }
        NoLoadCalibration calibration{i, *row.serverQueueS, std::nullopt};
        if (row.latencyMeanS && row.latencyP99S) {
            const double outsideS = row.clientOverheadS.value_or(0.0);
            const double jitterS =
                std::max(0.0, *row.latencyP99S - *row.latencyMeanS) / kExponentialP99AboveMean;
            calibration.jitterMeanS = std::min(jitterS, outsideS);
        }
        out[row.series] = calibration;
    }
    return out;
}

Expected<sim::Scenario> perfAnalyzerRowScenario(const data::SweepPoint& row, std::size_t index,
                                                const TritonModelSettings& settings,
                                                std::uint64_t requests,
                                                data::RequestDistribution distribution,
                                                const NoLoadCalibration* calibration)
{
    if (auto status = requireServerColumns(row, index); !status)
        return status.error();
    sim::Scenario scenario;
    scenario.seed = 17 + index;
    scenario.requests = requests;
    scenario.replications = kReplications;
    sim::StreamSpec stream;
    if (isClosedLoop(row)) {
        const int clients = int(std::lround(*row.concurrency));
        scenario.name = where(index) + ": batch " + std::to_string(row.batchSize) +
                        ", concurrency " + std::to_string(clients);
        scenario.warmupRequests =
            std::max(requests / 10, kWarmupCyclesPerClient * std::uint64_t(clients));
        stream.arrivals.kind = sim::ArrivalSpec::Kind::ClosedLoop;
        stream.arrivals.concurrency = clients;
        const double outsideS = row.clientOverheadS.value_or(0.0);
        const double jitterS =
            calibration && calibration->jitterMeanS ? *calibration->jitterMeanS : outsideS;
        stream.arrivals.clientOverheadS = std::min(jitterS, outsideS);
        stream.arrivals.clientOverheadExponential = true;
        stream.arrivals.clientOverheadFixedS = outsideS - stream.arrivals.clientOverheadS +
                                               (calibration ? calibration->schedulerS : 0.0);
    } else {
        scenario.name = where(index) + ": batch " + std::to_string(row.batchSize) + ", " +
                        significant(*row.requestRatePerS, 4) + " requests/s";
        scenario.warmupRequests = requests / 10;
        stream.arrivals.kind = distribution == data::RequestDistribution::Poisson
                                   ? sim::ArrivalSpec::Kind::Poisson
                                   : sim::ArrivalSpec::Kind::Deterministic;
        stream.arrivals.ratePerS = *row.requestRatePerS;
    }
    scenario.streams.push_back(stream);
    scenario.policy = policyFor(settings, row.batchSize);
    scenario.servers.count = settings.instances;
    scenario.servers.preComputeBaseS = *row.computeInputS;
    scenario.servers.postComputeBaseS = *row.computeOutputS;
    scenario.service.kind = sim::ServiceSpec::Kind::Linear;
    scenario.service.baseS = *row.computeInferS;
    return scenario;
}

namespace {

/// What an open-loop row's latencies gain outside the simulated server, at each statistic:
/// its arrivals do not depend on that time, so it is added to the server's latency. The
/// fixed part and the scheduling time shift every statistic; the calibrated jitter adds its
/// exponential quantile (exact where the server's part does not vary, as at low load).
struct OutsideShift
{
    double meanS = 0.0, p50S = 0.0, p99S = 0.0;
};

OutsideShift openLoopShift(const data::SweepPoint& row, const NoLoadCalibration* calibration)
{
    const double outsideS = row.clientOverheadS.value_or(0.0);
    if (!calibration)
        return {outsideS, outsideS, outsideS};
    const double jitterS = calibration->jitterMeanS.value_or(0.0);
    const double fixedS = outsideS - jitterS + calibration->schedulerS;
    return {fixedS + jitterS, fixedS + jitterS * std::log(2.0), fixedS + jitterS * std::log(100.0)};
}

Expected<PerfAnalyzerRowCheck> checkRow(const data::SweepTable& sweep, std::size_t index,
                                        const TritonModelSettings& given,
                                        const NoLoadCalibration* calibration,
                                        std::uint64_t requests, const CancelToken& cancel)
{
    const data::SweepPoint& row = sweep.points[index];
    const auto stated = data::tritonSettingsOf(sweep, row.series);
    auto scenario =
        perfAnalyzerRowScenario(row, index, stated ? *stated : given, requests,
                                data::requestDistributionOf(sweep, row.series), calibration);
    if (!scenario)
        return scenario.error();
    auto result = sim::simulate(*scenario, {}, Progress::null(), cancel);
    if (!result)
        return result.error();
    const bool closedLoop = isClosedLoop(row);
    // A closed loop's requests already spent their time outside the server in the simulation.
    const OutsideShift outside = closedLoop ? OutsideShift{} : openLoopShift(row, calibration);
    PerfAnalyzerRowCheck check;
    check.row = index;
    check.series = row.series;
    check.batchItems = row.batchSize;
    if (closedLoop)
        check.concurrency = scenario->streams.front().arrivals.concurrency;
    else
        check.requestRatePerS = *row.requestRatePerS;
    check.measuredItemsPerS = *row.throughputPerS;
    check.predictedItemsPerS = result->throughputPerS.value * double(row.batchSize);
    check.centralIsMean = !row.latencyP50S;
    check.measuredCentralS = row.latencyP50S ? *row.latencyP50S : *row.latencyMeanS;
    check.predictedCentralS = check.centralIsMean ? result->latency.mean.value + outside.meanS
                                                  : result->latency.p50.value + outside.p50S;
    check.measuredP99S = *row.latencyP99S;
    check.predictedP99S = result->latency.p99.value + outside.p99S;
    check.predictedMeanBatchRequests = result->meanBatchSize.value;
    check.calibratesSeries = calibration && calibration->row == index;
    return check;
}

} // namespace

Expected<PerfAnalyzerValidation> validatePerfAnalyzer(const data::SweepTable& sweep,
                                                      const TritonModelSettings& settings,
                                                      std::uint64_t requests,
                                                      const CancelToken& cancel)
{
    PerfAnalyzerValidation out;
    out.assumptions = perfAnalyzerAssumptions(sweep, settings);
    const auto calibrations = noLoadCalibrations(sweep);
    for (std::size_t i = 0; i < sweep.points.size(); ++i) {
        const auto found = calibrations.find(sweep.points[i].series);
        auto check =
            checkRow(sweep, i, settings, found == calibrations.end() ? nullptr : &found->second,
                     requests, cancel);
        if (!check)
            return check.error();
        out.rows.push_back(*check);
    }
    return out;
}

} // namespace bs::analysis
