#pragma once

#include "data/llmrun.h"
#include "data/powerseries.h"
#include "util/expected.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bs::analysis {

/// Mean number of requests in the server, two ways that must agree when both are right:
/// Little's law over the per-request records (the sum of their E2E times divided by the window
/// from the first arrival to the last token) and the engine's own running + waiting counts
/// averaged over its samples.
struct LlmInFlight
{
    std::optional<double> fromRequests;
    std::optional<double> windowS; ///< First arrival -> last token of the records.
    std::optional<double> fromEngineSeries;
    std::optional<double> runningFromEngineSeries; ///< The batch alone, queue left out.
    /// (engine series - requests) / requests, when both are there.
    std::optional<double> relativeDifference;
};

LlmInFlight llmInFlight(const data::LlmRun& run);

/// A serving SLA on TTFT and TPOT; an empty limit is not judged.
struct LlmSla
{
    std::optional<double> ttftS, tpotS;
    bool empty() const { return !ttftS && !tpotS; }
};

/// Requests that met the SLA, per second of the run (vLLM's definition of goodput: successful
/// requests whose TTFT and TPOT are both within their limits, over the benchmark duration).
/// A request with one output token has no TPOT and meets any TPOT limit.
struct LlmGoodput
{
    std::uint64_t judged = 0; ///< Successful requests with a TTFT.
    std::uint64_t good = 0;
    double durationS = 0.0; ///< The tool's duration, else the records' window.
    double perS = 0.0;
};

/// Empty without an SLA, per-request records or a duration.
std::optional<LlmGoodput> llmGoodput(const data::LlmRun& run, const LlmSla& sla);

/// Energy from GPU telemetry: the serving GPUs' mean power divided by the output token rate
/// (and by the request rate). The serving GPUs are those with a mean utilisation above zero
/// (a node's idle GPUs are left out); all of them when the telemetry has no utilisation.
/// Mean power rather than the energy counter, because a tool's telemetry window can be longer
/// than its measured requests.
struct LlmEnergy
{
    std::vector<std::string> servingGpus;
    double servingPowerW = 0.0;
    std::optional<double> perOutputTokenJ, perRequestJ;
};

/// Empty without telemetry or without a rate to divide by.
std::optional<LlmEnergy> llmEnergy(const data::LlmRun& run);

/// Energy per output token from a power log beside the run (nvidia-smi of its GPUs): the power
/// of the devices that served it (busy inside its window when the log records utilisation,
/// else every device) integrated over the run's own window (first arrival to last token,
/// placed in Unix time by the run's clock) and divided by the run's output tokens. The band
/// holds the lower/higher neighbouring reading over each interval (analysis::joinPower), so a
/// log that samples a changing draw coarsely says how far its figure can be off.
struct LlmLoggedEnergy
{
    double energyJ = 0.0;
    double lowJ = 0.0, highJ = 0.0; ///< Band of energyJ, summed over the devices.
    double perOutputTokenJ = 0.0;
    double perOutputTokenLowJ = 0.0, perOutputTokenHighJ = 0.0;
    std::optional<double> perRequestJ; ///< Over the run's completed requests.
    double meanPowerW = 0.0;           ///< Summed over the devices.
    double windowS = 0.0;
    std::size_t devices = 0;          ///< Devices charged to the run.
    std::uint64_t fewestReadings = 0; ///< Readings inside the window, on the sparsest device.
};

/// Readings a device's log must hold inside the run's window: fewer, and the figure is an
/// interpolation between readings taken outside the run rather than a measurement of it.
inline constexpr std::uint64_t kMinLoggedEnergyReadings = 2;

/// An error (ErrorCode::Value) saying why, when the run has no absolute clock, no window or no
/// output tokens; when the log does not cover the whole window (a log of another time or a run
/// cut short); when a device has fewer than kMinLoggedEnergyReadings readings inside it; or
/// when the run records its GPU count (hardware.device_count, tensor_parallel_size) and the
/// log's serving devices are not that many (one GPU of a pair, a whole node): no energy is
/// guessed from part of a run or charged from GPUs it did not use.
Expected<LlmLoggedEnergy> llmLoggedEnergy(const data::LlmRun& run, const data::PowerSeries& log);

/// A run's energy per output token as the playbook states it (step 2 and the matrix alike):
/// the run's own GPU telemetry (llmEnergy), else a power log beside it (llmLoggedEnergy);
/// empty without either.
std::optional<double> llmEnergyPerOutputTokenJ(const data::LlmRun& run,
                                               const data::PowerSeries* log);

} // namespace bs::analysis
