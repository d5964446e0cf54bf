// The recommended LLM configuration's load headroom (llmregion.h, LlmLoadHeadroom; REGION.md
// "LLM servers").
#include "analysis/llmregion.h"
#include "analysis/llmregionparts.h"
#include "llmsim/llmsimulator.h"
#include "util/numbertext.h"

#include <algorithm>
#include <cmath>

namespace bs::analysis {

namespace {

/// At most this many bisections: from a 16x bracket to 2% takes 8.
constexpr int kMaxBisections = 12;

/// The recommended cell at `multiple` times its offered load, simulated and judged.
Expected<LlmRegionCell> probe(const LlmRegionResult& r, std::size_t cell, double multiple,
                              std::size_t threads, const CancelToken& cancel)
{
    llmsim::LlmScenario scenario = llmCellScenario(r.spec, cell);
    scenario.arrivals.rateMultiplier *= multiple;
    llmsim::LlmSimOptions options;
    options.baseDirectory = r.baseDirectory;
    options.threads = threads;
    const auto run = llmsim::simulateLlm(scenario, options, cancel);
    return judgedLlmCell(r.spec, cell, scenario, run);
}

/// `cell`, at `multiple` times the recommended load, does not count as met: what fails there.
void markFailing(LlmLoadHeadroom& h, const LlmRegionCell& cell, double multiple)
{
    h.failingMultiplier = multiple;
    h.binding = cell.binding;
    // Met on its estimates but not confidently: the limit whose interval straddles it is the
    // reason, not the smallest margin.
    h.failingUndecided = cell.status == LlmCellStatus::Feasible;
    if (h.failingUndecided) {
        const auto undecided = std::find_if(cell.checks.begin(), cell.checks.end(),
                                            [](const LlmCheck& c) { return !c.decided; });
        if (undecided != cell.checks.end())
            h.binding = undecided->kind;
    }
}

/// The grid's bracket for the recommended cell: its configuration's highest met load below the
/// first failure (as a multiple of the cell's load, at least 1) and that failure, if any.
void bracketFromGrid(const LlmRegionResult& r, const LlmRegionCell& recommended, LlmLoadHeadroom& h)
{
    const double load = recommended.knobs.load;
    if (!std::isfinite(load) || load <= 0.0)
        return;
    for (const auto& cap : r.capacity) {
        if (cap.configuration != recommended.configuration)
            continue;
        if (cap.capacityCell && r.cells[*cap.capacityCell].knobs.load > load)
            h.multiplier = r.cells[*cap.capacityCell].knobs.load / load;
        if (cap.firstFailingCell && r.cells[*cap.firstFailingCell].knobs.load > load) {
            const LlmRegionCell& failing = r.cells[*cap.firstFailingCell];
            markFailing(h, failing, failing.knobs.load / load);
        }
    }
}

} // namespace

Status findLlmLoadHeadroom(LlmRegionResult& result, std::size_t threads, CancelToken cancel)
{
    if (!result.recommendation)
        return {};
    const LlmRegionCell& recommended = result.cells[result.recommendation->cell];
    LlmLoadHeadroom h;
    bracketFromGrid(result, recommended, h);
    const auto step = [&](double multiple) -> Status {
        auto cell = probe(result, recommended.index, multiple, threads, cancel);
        if (!cell)
            return cell.error();
        ++h.simulations;
        if (meetsConfidently(*cell))
            h.multiplier = multiple;
        else
            markFailing(h, *cell, multiple);
        return {};
    };
    while (std::isnan(h.failingMultiplier) && h.multiplier < kMaxLlmHeadroomMultiplier) {
        if (auto status = step(std::min(2.0 * h.multiplier, kMaxLlmHeadroomMultiplier)); !status)
            return status;
    }
    for (int i = 0; i < kMaxBisections && std::isfinite(h.failingMultiplier) &&
                    h.failingMultiplier / h.multiplier > kLlmHeadroomResolution;
         ++i) {
        if (auto status = step(std::sqrt(h.multiplier * h.failingMultiplier)); !status)
            return status;
    }
    h.converged = std::isfinite(h.failingMultiplier) &&
                  h.failingMultiplier / h.multiplier <= kLlmHeadroomResolution;
    if (std::isnan(h.failingMultiplier))
        h.note = "every limit is met at " + significant(h.multiplier, 3) +
                 " times the load: the headroom is at least that";
    else if (h.multiplier == 1.0)
        h.note = "no headroom: a load " + significant((h.failingMultiplier - 1.0) * 100.0, 2) +
                 (h.failingUndecided ? "% higher is not confidently met" : "% higher fails");
    result.recommendation->loadHeadroom = std::move(h);
    return {};
}

double llmOfferedRatePerS(const LlmRegionSpec& spec, std::size_t index, double multiple)
{
    const auto arrivals = llmCellScenario(spec, index).arrivals;
    if (arrivals.kind != llmsim::LlmArrivalSpec::Kind::Poisson)
        return sim::kNaN;
    return arrivals.ratePerS * arrivals.rateMultiplier * multiple;
}

} // namespace bs::analysis
