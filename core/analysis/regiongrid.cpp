#include "analysis/regiongrid.h"

#include "accel/model.h"
#include "sim/arrivalprocess.h"
#include "sim/replayloader.h"
#include "sim/result.h"

#include <algorithm>

namespace bs::analysis {

namespace {

using Kind = sim::ArrivalSpec::Kind;

bool simpleRate(const sim::ArrivalSpec& a)
{
    return a.kind == Kind::Poisson || a.kind == Kind::Deterministic || a.kind == Kind::Gamma;
}

std::string streamWhere(const sim::Scenario& scenario, std::size_t s)
{
    return scenario.namedStreams ? "scenario.streams[" + std::to_string(s) + "].arrivals"
                                 : "scenario.arrivals";
}

/// Every precision and power-cap value must give a valid accelerator model on its own.
Status checkModelAxes(const RegionSpec& spec)
{
    for (std::size_t a = 0; a < spec.axes.size(); ++a) {
        const auto& axis = spec.axes[a];
        if (axis.kind != RegionAxisKind::Precision && axis.kind != RegionAxisKind::PowerCapW)
            continue;
        for (std::size_t i = 0; i < axis.size(); ++i) {
            nlohmann::json model = spec.scenario.service.acceleratorModel;
            if (axis.kind == RegionAxisKind::Precision)
                model["precision"] = axis.names[i];
            else
                model["power_cap_w"] = axis.values[i];
            const std::string where =
                "region.axes[" + std::to_string(a) + "].values[" + std::to_string(i) + "]";
            if (auto built = accel::modelFromJson(model, where, {}); !built)
                return makeError(ErrorCode::Value, where + ": " + axis.label(i) +
                                                       " does not suit the accelerator model: " +
                                                       built.error().message);
        }
    }
    return {};
}

void applyMaxBatch(sim::PolicySpec& policy, int batch)
{
    policy.maxBatch = batch;
    // Preferred sizes above the new cap cannot be formed; the AIMD bounds follow the cap.
    std::erase_if(policy.preferredBatchSizes, [batch](int b) { return b > batch; });
    policy.minBatch = std::min(policy.minBatch, batch);
    policy.initialBatch = std::min(policy.initialBatch, batch);
}

void applyAxis(sim::Scenario& scenario, const RegionAxis& axis, std::size_t index)
{
    switch (axis.kind) {
    case RegionAxisKind::MaxBatch:
        applyMaxBatch(scenario.policy, int(axis.values[index]));
        break;
    case RegionAxisKind::MaxQueueDelayMs:
        // The same conversion as the scenario reader, so a cell equals its JSON read back.
        scenario.policy.maxQueueDelayS = axis.values[index] / 1000.0;
        break;
    case RegionAxisKind::Servers:
        scenario.servers.count = int(axis.values[index]);
        break;
    case RegionAxisKind::Precision:
        scenario.service.acceleratorModel["precision"] = axis.names[index];
        break;
    case RegionAxisKind::PowerCapW:
        scenario.service.acceleratorModel["power_cap_w"] = axis.values[index];
        break;
    case RegionAxisKind::RatePerS:
    case RegionAxisKind::RateMultiplier:
        break; // Rates are set by setRate() after the other axes.
    }
}

} // namespace

Expected<RegionGrid> RegionGrid::create(const RegionSpec& spec, const std::string& baseDirectory,
                                        Progress& progress, const CancelToken& cancel)
{
    if (auto status = validate(spec); !status)
        return status.error();
    if (auto status = checkModelAxes(spec); !status)
        return status.error();
    RegionGrid grid;
    grid.m_spec = spec;
    grid.m_inlined = spec.scenario;
    grid.m_inlined.output.records = false;
    grid.m_strides.assign(spec.axes.size(), 1);
    for (std::size_t a = spec.axes.size(); a-- > 0;) {
        grid.m_strides[a] = grid.m_cellCount;
        grid.m_cellCount *= spec.axes[a].size();
        if (spec.axes[a].isRate())
            grid.m_rateAxis = a;
    }
    for (std::size_t s = 0; s < grid.m_inlined.streams.size(); ++s) {
        auto& arrivals = grid.m_inlined.streams[s].arrivals;
        if (arrivals.kind == Kind::ClosedLoop && grid.m_rateAxis)
            return makeError(ErrorCode::Value,
                             "region.axes: a closed loop has no arrival rate to scale (its "
                             "clients send when answered); vary scenario.arrivals.concurrency "
                             "in separate scenarios instead");
        if (arrivals.kind != Kind::Replay) {
            grid.m_recordedRatePerS.push_back(0.0);
            grid.m_baseRatePerS += sim::meanRatePerS(arrivals, nullptr);
            continue;
        }
        // Read as recorded (no rescaling): the rebased times, inlined, reproduce the file.
        sim::ArrivalSpec recorded = arrivals;
        recorded.ratePerS = 0.0;
        auto replay = sim::prepareReplay(recorded, streamWhere(spec.scenario, s), baseDirectory,
                                         progress, cancel);
        if (!replay)
            return replay.error();
        arrivals.timesS = (*replay)->timesS;
        arrivals.file.clear();
        grid.m_recordedRatePerS.push_back((*replay)->meanRatePerS());
        auto scaled = sim::replayFromTimes(arrivals.timesS, arrivals, "replay", {});
        if (!scaled)
            return scaled.error();
        grid.m_baseRatePerS += sim::meanRatePerS(arrivals, scaled->get());
    }
    return grid;
}

std::vector<std::size_t> RegionGrid::axisIndex(std::size_t cell) const
{
    std::vector<std::size_t> out(m_spec.axes.size(), 0);
    for (std::size_t a = 0; a < out.size(); ++a)
        out[a] = (cell / m_strides[a]) % m_spec.axes[a].size();
    return out;
}

std::size_t RegionGrid::cellAt(const std::vector<std::size_t>& axisIndex) const
{
    std::size_t cell = 0;
    for (std::size_t a = 0; a < axisIndex.size() && a < m_strides.size(); ++a)
        cell += axisIndex[a] * m_strides[a];
    return cell;
}

std::size_t RegionGrid::policyOf(std::size_t cell) const
{
    if (!m_rateAxis)
        return cell;
    // Drop the rate digit from the mixed-radix cell number.
    const std::size_t stride = m_strides[*m_rateAxis];
    const std::size_t n = rateCount();
    return (cell / (stride * n)) * stride + cell % stride;
}

std::vector<std::size_t> RegionGrid::cellsOfPolicy(std::size_t policy) const
{
    if (!m_rateAxis)
        return {policy};
    const std::size_t stride = m_strides[*m_rateAxis];
    const std::size_t first = (policy / stride) * stride * rateCount() + policy % stride;
    std::vector<std::size_t> out;
    for (std::size_t r = 0; r < rateCount(); ++r)
        out.push_back(first + r * stride);
    return out;
}

double RegionGrid::cellRatePerS(std::size_t cell) const
{
    if (!m_rateAxis)
        return m_baseRatePerS;
    const auto& axis = m_spec.axes[*m_rateAxis];
    const double v = axis.values[(cell / m_strides[*m_rateAxis]) % axis.size()];
    return axis.kind == RegionAxisKind::RatePerS ? v : v * m_baseRatePerS;
}

void RegionGrid::setRate(sim::Scenario& scenario, double ratePerS) const
{
    auto& streams = scenario.streams;
    if (streams.size() == 1 && simpleRate(streams[0].arrivals) &&
        streams[0].arrivals.profile.kind == sim::RateProfile::Kind::None) {
        streams[0].arrivals.ratePerS = ratePerS; // exact: the rate is the offered load
        return;
    }
    const double m = ratePerS / m_baseRatePerS;
    for (std::size_t s = 0; s < streams.size(); ++s) {
        auto& a = streams[s].arrivals;
        if (a.kind == Kind::Mmpp2) {
            a.ratesPerS[0] *= m;
            a.ratesPerS[1] *= m;
        } else if (a.kind == Kind::Replay) {
            a.ratePerS = (a.ratePerS > 0.0 ? a.ratePerS : m_recordedRatePerS[s]) * m;
        } else {
            a.ratePerS *= m;
        }
    }
}

sim::Scenario RegionGrid::build(const sim::Scenario& base, std::size_t cell,
                                std::optional<double> ratePerS) const
{
    sim::Scenario out = base;
    const auto index = axisIndex(cell);
    for (std::size_t a = 0; a < index.size(); ++a)
        applyAxis(out, m_spec.axes[a], index[a]);
    if (ratePerS)
        setRate(out, *ratePerS);
    else if (m_rateAxis)
        setRate(out, cellRatePerS(cell));
    return out;
}

sim::Scenario RegionGrid::cellScenario(std::size_t cell) const
{
    return build(m_spec.scenario, cell, std::nullopt);
}

sim::Scenario RegionGrid::simulationScenario(std::size_t cell, std::optional<double> ratePerS) const
{
    return build(m_inlined, cell, ratePerS);
}

bool RegionGrid::supportsBurstiness() const
{
    return m_inlined.streams.size() == 1 && simpleRate(m_inlined.streams[0].arrivals);
}

double RegionGrid::baseArrivalCv() const
{
    if (!supportsBurstiness())
        return sim::kNaN;
    const auto& a = m_inlined.streams[0].arrivals;
    return a.kind == Kind::Poisson ? 1.0 : a.kind == Kind::Deterministic ? 0.0 : a.cv;
}

sim::Scenario RegionGrid::withArrivalCv(sim::Scenario scenario, double cv)
{
    auto& a = scenario.streams.front().arrivals;
    a.kind = Kind::Gamma;
    a.cv = cv;
    return scenario;
}

} // namespace bs::analysis
