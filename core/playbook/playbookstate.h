#pragma once

#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bs::playbook {

/// A baseline/candidate difference the user accepted, with the reason (step 1). Without an
/// acceptance every difference is a blocker.
struct AcceptedDifference
{
    std::string key; ///< As in the run tags ("compiler", "power_limit_w") or "scenario_seed".
    std::string reason;

    friend bool operator==(const AcceptedDifference&, const AcceptedDifference&) = default;
};

/// A quality measurement the user provides for a precision or sparsity change (the playbook
/// cannot compute accuracy itself). Values are in the metric's own unit.
struct QualityEvidence
{
    std::string metric; ///< e.g. "top-1 accuracy (%)".
    double baseline = 0.0;
    double candidate = 0.0;
    std::optional<double> fixed; ///< The same metric with the proposed fix, when measured.
    double tolerance = 0.0;      ///< Allowed |candidate − baseline|, same unit.
    /// The fallback path (original precision / dense kernels) was run and checked, so a
    /// precision or sparsity win does not rest on the fast path alone.
    bool fallbackTested = false;
    std::string source; ///< Where the numbers come from (evaluation run, signoff record).

    friend bool operator==(const QualityEvidence&, const QualityEvidence&) = default;
};

/// One bounded change (step 4). Knobs: "max_queue_delay_ms", "max_batch" (policy knobs),
/// "servers", "placement" (mapping), "power_cap_w", "precision", "fusion_factor" (config
/// values of the accelerator model). `value` is a number, or a string for placement/precision.
struct FixChoice
{
    std::string knob;
    nlohmann::json value;
    std::string reason; ///< Why this change (written by the playbook or the user).

    friend bool operator==(const FixChoice&, const FixChoice&) = default;
};

/// How much the playbook simulates and what it calls a difference.
struct PlaybookOptions
{
    int scenarioIndex = 0; ///< The project scenario that is the target traffic.
    /// Measured requests per replication in the playbook's simulations (the scenario's count
    /// is lowered to this, and the reproducer says so).
    std::uint64_t maxSimulatedRequests = 100000;
    int minReplications = 3; ///< At least this many, for confidence intervals.
    /// A change smaller than this fraction is not called a divergence even when significant.
    double practicalDelta = 0.02;
    double throughputTolerance = 0.02; ///< Step 5: fixed ≥ (1 − tol) × reference.
    double p99Tolerance = 0.10;        ///< Step 5 without an SLA: fixed ≤ (1 + tol) × ref.
    double energyTolerance = 0.05;     ///< Step 5: fixed ≤ (1 + tol) × reference.

    friend bool operator==(const PlaybookOptions&, const PlaybookOptions&) = default;
};

/// What the user decided in the playbook, stored in the project file's "playbook" section.
/// Results are not stored: they are recomputed from the datasets and this state.
struct PlaybookState
{
    std::vector<AcceptedDifference> accepted;
    std::optional<QualityEvidence> quality;
    std::optional<FixChoice> fix; ///< The user's change; empty: the playbook chooses one.
    /// The user's note of production-shape validation done outside the tool (a trace replay or
    /// canary run, named), which satisfies the synthetic-evidence guard.
    std::string productionEvidence;
    PlaybookOptions options;

    /// The acceptance for `key`, or nullptr.
    const AcceptedDifference* acceptance(const std::string& key) const;
    /// Accepts (or re-words the reason of) a difference.
    void accept(const std::string& key, std::string reason);
    /// Withdraws an acceptance; true when there was one.
    bool revoke(const std::string& key);

    friend bool operator==(const PlaybookState&, const PlaybookState&) = default;
};

/// The version of the "playbook" section this code writes and the newest it reads.
inline constexpr int kPlaybookStateVersion = 1;

nlohmann::json toJson(const PlaybookState& state);
/// Reads the "playbook" section; an empty object gives the default state. Unknown keys and
/// out-of-range values are errors naming the key ("playbook.options.min_replications: ...").
Expected<PlaybookState> playbookStateFromJson(const nlohmann::json& json,
                                              const std::string& path = {});

} // namespace bs::playbook
