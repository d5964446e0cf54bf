#pragma once

#include "analysis/kernelanalysis.h"
#include "analysis/requestanalysis.h"
#include "analysis/thermalevidence.h"
#include "playbook/playbookinputs.h"
#include "playbook/playbookstate.h"
#include "playbook/scenarioset.h"
#include "sim/result.h"
#include "sim/simulator.h"
#include "util/canceltoken.h"
#include "util/expected.h"
#include "util/progress.h"

#include <optional>
#include <string>
#include <vector>

namespace bs::playbook {

/// The analyses of one side's traces, computed once and shared by the steps.
struct SideAnalyses
{
    std::optional<analysis::RequestAnalysis> requests;
    std::optional<analysis::KernelAnalysis> kernels;
    std::optional<analysis::ThermalEvidence> thermal;
    std::vector<std::string> problems; ///< Analyses that failed, with the reason.
};

/// The simulations of the baseline and candidate scenarios (step 2's queue stage when there is
/// no request trace, step 3's queue share, step 4's reference).
struct SimulatedPair
{
    std::optional<sim::Result> baseline;
    std::optional<sim::Result> candidate;
    std::vector<std::string> problems;
};

/// Threads for the simulations; results do not depend on them.
struct PlaybookRunOptions
{
    std::size_t threads = 0; ///< 0 = one per hardware thread.
    ThreadPool* pool = nullptr;
};

/// Everything the five steps read: inputs, user state, analyses and the reference simulations.
struct PlaybookContext
{
    PlaybookInputs inputs;
    PlaybookState state;
    SideAnalyses baseline;
    SideAnalyses candidate;
    ScenarioSet scenarios;
    SimulatedPair simulated;
    double requestWindowS = 0.0; ///< Common window of both request-trace analyses.
    sim::SimOptions simOptions;
    CancelToken cancel;

    /// Simulates a scenario with the context's thread options and cancel token.
    Expected<sim::Result> simulate(const sim::Scenario& scenario) const;
};

/// Gathers the inputs, analyses both sides' traces and simulates the reference scenarios.
/// Only cancellation is an error; every other failure becomes a note the steps report.
Expected<PlaybookContext> prepareContext(const data::Project& project, const PlaybookState& state,
                                         const PlaybookRunOptions& options = {},
                                         Progress& progress = Progress::null(),
                                         const CancelToken& cancel = CancelToken());

} // namespace bs::playbook
