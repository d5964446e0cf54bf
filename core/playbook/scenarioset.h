#pragma once

#include "playbook/playbookinputs.h"
#include "playbook/playbookstate.h"
#include "sim/scenario.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace bs::playbook {

/// A run-tag difference that is also a scenario knob (so the baseline can be simulated as
/// "the candidate scenario with the baseline's value").
struct KnobDifference
{
    std::string tagKey; ///< As in the tags ("power_limit_w").
    std::string knob;   ///< FixChoice knob name ("power_cap_w").
    std::string baseline;
    std::string candidate;
};

/// The scenarios the playbook simulates: the candidate (the target traffic as the project
/// describes it) and, where it can be built, the baseline.
///
/// Routes, in order:
///  1. "knobs": the project scenario is the candidate; the baseline is the same scenario with
///     the baseline's values of every run-tag difference that maps to a knob
///     (power_limit_w → power_cap_w, max_queue_delay_ms, max_batch, precision, ...).
///  2. "sweeps": no mappable difference but both sides have a sweep: the project scenario's
///     traffic and policy with each side's measured service-time table.
///  3. "candidate only": a scenario but no way to build the baseline.
/// Without a project scenario, one is derived from the candidate's sweep (Poisson arrivals at
/// the request trace's mean rate or 60% of the sweep's peak throughput).
/// Every scenario is capped to options.maxSimulatedRequests measured requests and given at least
/// options.minReplications replications; notes say what was changed.
struct ScenarioSet
{
    std::optional<sim::Scenario> candidate;
    std::optional<sim::Scenario> baseline;
    std::string route;
    std::vector<KnobDifference> knobs;
    std::vector<std::string> notes;
    std::string error; ///< Why there is no candidate scenario.
    /// The candidate scenario was derived from a sweep (the project has none): its traffic is
    /// an assumption, not the target traffic.
    bool derived = false;

    /// True when the baseline differs from the candidate only in batching-policy knobs, so a
    /// simulated queue-wait change is caused by the policy rather than by a service change.
    bool policyOnlyDifference() const;
};

ScenarioSet deriveScenarios(const PlaybookInputs& inputs, const PlaybookState& state);

/// The scenario with one knob changed, validated by the scenario reader (errors name the
/// knob). Model knobs (power_cap_w, precision, fusion_factor) need an accelerator service.
Expected<sim::Scenario> applyKnob(const sim::Scenario& scenario, const FixChoice& change);

/// The current value of a knob in a scenario (number or string), or null when not applicable.
nlohmann::json knobValue(const sim::Scenario& scenario, const std::string& knob);

/// "policy knob", "mapping", "config value" or "capacity action" (servers: hardware): how
/// invasive a knob is, smallest first.
const char* knobCategory(const std::string& knob);
/// 0 for policy knobs, 1 for mapping (placement), 2 for config values, 3 for capacity actions.
int knobCategoryRank(const std::string& knob);
/// The rank of capacity actions: changes that add hardware rather than set the one under review.
inline constexpr int kCapacityRank = 3;

/// The knob a run tag key stands for ("power_limit_w" → "power_cap_w"), or "".
std::string knobForTag(const std::string& tagKey);

} // namespace bs::playbook
