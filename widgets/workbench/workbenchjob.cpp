#include "workbench/workbenchjob.h"

#include "sim/scenariojson.h"
#include "sim/simulator.h"
#include "util/threadpool.h"

#include <algorithm>
#include <chrono>

namespace bs::widgets {

namespace {

PolicyCurvePoint curvePoint(int maxBatch, const Expected<sim::Result>& result)
{
    PolicyCurvePoint point;
    point.maxBatch = maxBatch;
    if (!result) {
        point.reason = result.error().toString();
        return point;
    }
    point.stable = result->stability.stable;
    point.reason = result->stability.reason;
    if (!point.stable)
        return point;
    point.throughputPerS = result->throughputPerS.value;
    point.latencyP50S = result->latency.p50.value;
    point.latencyP99S = result->latency.p99.value;
    point.latencyP99LowS = result->latency.p99.ciLow;
    point.latencyP99HighS = result->latency.p99.ciHigh;
    if (result->energyPerRequestJ)
        point.energyPerRequestJ = result->energyPerRequestJ->value;
    if (result->meanPowerW)
        point.meanPowerW = result->meanPowerW->value;
    point.meanBatch = result->meanBatchSize.value;
    return point;
}

/// The scenario with its batch cap set (dynamic and adaptive: max_batch; static: batch).
nlohmann::json withMaxBatch(nlohmann::json scenario, int maxBatch)
{
    auto& policy = scenario["policy"];
    const std::string kind = policy.value("kind", std::string("dynamic"));
    if (kind == "static") {
        policy["batch"] = maxBatch;
    } else {
        policy["max_batch"] = maxBatch;
        if (policy.contains("preferred_batch_sizes")) {
            auto& preferred = policy["preferred_batch_sizes"];
            nlohmann::json kept = nlohmann::json::array();
            for (const auto& size : preferred) {
                if (size.is_number() && size.get<double>() <= maxBatch)
                    kept.push_back(size);
            }
            if (kept.empty())
                policy.erase("preferred_batch_sizes");
            else
                preferred = kept;
        }
        if (kind == "adaptive") {
            if (policy.value("min_batch", 1) > maxBatch)
                policy["min_batch"] = maxBatch;
            if (policy.value("initial_batch", 1) > maxBatch)
                policy["initial_batch"] = maxBatch;
        }
    }
    return scenario;
}

std::string describeModel(const accel::Model& model)
{
    const auto& p = model.params();
    std::string label = "Model: " + p.accelerator.name + ", " + p.workload.name;
    if (p.powerCapW)
        label += ", " + std::to_string(int(*p.powerCapW)) + " W cap";
    return label;
}

} // namespace

std::vector<int> powersOfTwoUpTo(int maxBatch)
{
    std::vector<int> out;
    for (int b = 1; b <= maxBatch && b > 0; b *= 2)
        out.push_back(b);
    if (maxBatch >= 1 && out.back() != maxBatch)
        out.push_back(maxBatch);
    return out;
}

WorkbenchOutputs computeWorkbench(const WorkbenchInputs& inputs, ThreadPool& pool,
                                  Progress& progress, const CancelToken& cancel)
{
    const auto started = std::chrono::steady_clock::now();
    WorkbenchOutputs out;
    const int maxBatch = inputs.curveBatches.empty() ? 1 : inputs.curveBatches.back();
    if (inputs.model.is_object() && !inputs.model.empty()) {
        auto model = accel::modelFromJson(inputs.model, "model", {});
        if (model) {
            out.modelLabel = describeModel(*model);
            const auto predictionAt = [&](int b) {
                const auto rate = inputs.offeredRateByBatch.find(b);
                return rate == inputs.offeredRateByBatch.end()
                           ? model->predict(b)
                           : model->predictAtLoad(b, rate->second);
            };
            out.predictionsAtSweepLoad = !inputs.offeredRateByBatch.empty();
            // The model spans the sweep it is drawn over as well as the policy's batches, so
            // every measured point has a model point to compare with.
            const int modelMaxBatch =
                inputs.offeredRateByBatch.empty()
                    ? maxBatch
                    : std::max(maxBatch, inputs.offeredRateByBatch.rbegin()->first);
            for (int b = 1; b <= modelMaxBatch; b *= 2)
                out.predictions.push_back(predictionAt(b));
            if (out.predictions.back().batch != modelMaxBatch)
                out.predictions.push_back(predictionAt(modelMaxBatch));
        } else {
            out.modelError = model.error();
        }
    }

    auto scenario = sim::scenarioFromJson(inputs.scenario);
    if (!scenario) {
        out.simulationError = scenario.error();
        return out;
    }
    // One task per curve point plus the scenario as set; each runs its replications on one
    // thread so the pool is used across points.
    const std::size_t points = inputs.curveBatches.size();
    std::vector<std::optional<Expected<sim::Result>>> results(points + 1);
    progress.setPhase("simulating", points + 1);
    std::atomic<std::uint64_t> done{0};
    pool.parallelFor(
        points + 1,
        [&](std::size_t i) {
            sim::SimOptions options;
            options.threads = 1;
            if (i == points) {
                results[i] = sim::simulate(*scenario, options, Progress::null(), cancel);
            } else {
                auto variant =
                    sim::scenarioFromJson(withMaxBatch(inputs.scenario, inputs.curveBatches[i]));
                results[i] = variant ? sim::simulate(*variant, options, Progress::null(), cancel)
                                     : Expected<sim::Result>(variant.error());
            }
            done.fetch_add(1);
        },
        cancel);
    progress.advanceTo(done.load());
    if (cancel.isCancelled())
        return out;
    for (std::size_t i = 0; i < points; ++i)
        out.curve.push_back(curvePoint(inputs.curveBatches[i], *results[i]));
    if (*results[points])
        out.current = std::move(*results[points]).value();
    else
        out.simulationError = results[points]->error();
    out.elapsedS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return out;
}

} // namespace bs::widgets
