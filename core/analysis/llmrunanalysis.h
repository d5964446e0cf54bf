#pragma once

#include "analysis/distribution.h"
#include "analysis/llmrunfigures.h"
#include "data/llmrun.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace bs::analysis {

/// One LLM benchmark run analysed from its per-request records: exact TTFT, TPOT, ITL and E2E
/// percentiles with their order-statistic intervals (seconds), over the successful requests.
/// A run without per-request records has empty distributions and only the tool's figures.
struct LlmRunAnalysis
{
    std::string tool;
    std::int64_t line = 0;
    /// The test's name where a file holds several runs on one line (vLLM's CI result table).
    std::string testName;
    /// Who wrote a run that nobody measured (its run record's `simulated_by`), or empty.
    std::string simulatedBy;
    std::uint64_t requests = 0; ///< Per-request records.
    std::uint64_t failed = 0;   ///< Of those, the ones the tool marked failed.
    std::optional<double> requestRatePerS;
    std::optional<std::int64_t> completed;  ///< As the tool reported it.
    std::optional<double> outputTokensPerS; ///< As the tool reported it.
    Distribution ttft, tpot, e2e;
    Distribution itl; ///< Pooled over every gap of every successful request (as vLLM pools).
    std::optional<double> promptTokensPerS; ///< As the tool reported it (or from the records).
    /// The tool's own p99 per metric ("ttft", "tpot", ...), seconds: all a run without records
    /// has, and a check on the one computed from them.
    std::map<std::string, double> reportedP99S;
    LlmInFlight inFlight;
    std::optional<LlmGoodput> goodput; ///< Under the SLA given, from the records.
    std::optional<LlmEnergy> energy;   ///< From the run's GPU telemetry.
    /// From the power log given beside the run (llmLoggedEnergy); empty without one, or with
    /// loggedEnergyReason saying why the log gives no figure for this run.
    std::optional<LlmLoggedEnergy> loggedEnergy;
    std::string loggedEnergyReason;
    std::string powerLog; ///< The power log's name as the caller gave it; empty without one.
};

/// A power log to charge the runs' energy from, and the name its figures are stated under.
struct LlmPowerLog
{
    const data::PowerSeries* series = nullptr;
    std::string name;
};

/// Every run of the set; goodput is judged against `sla` when it has a limit, and energy is
/// charged from `power` when it has a series.
std::vector<LlmRunAnalysis> analyzeLlmRuns(const data::LlmRunSet& set, const LlmSla& sla = {},
                                           const LlmPowerLog& power = {});

/// {"kind": "llm_runs", "runs": [...]}, distributions in ms.
nlohmann::json toJson(const std::vector<LlmRunAnalysis>& runs, const LlmSla& sla = {});

} // namespace bs::analysis
