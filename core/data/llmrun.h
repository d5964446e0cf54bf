#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bs::data {

/// One request of an LLM serving benchmark, as the client measured it. Seconds and tokens; a
/// field the tool did not record stays empty.
struct LlmRequest
{
    std::optional<double> arrivalS; ///< From the first request's start.
    std::optional<std::int32_t> promptTokens;
    std::optional<std::int32_t> outputTokens;
    std::optional<double> ttftS; ///< Request sent -> first token.
    std::optional<double> tpotS; ///< (e2e - ttft) / (output tokens - 1): first token excluded.
    std::vector<double> itlS;    ///< Gaps between the streamed chunks after the first.
    std::optional<double> e2eS;  ///< Request sent -> last token.
    /// Queued -> scheduled, when the server logged it (engine-side logs only).
    std::optional<double> queueS;
    bool ok = true;
    std::string error; ///< The tool's error text for a failed request.
};

/// An aggregate as the tool reported it, in seconds, with the tool's definition of the metric
/// (tools differ: ITL pooled over all gaps or per request, TPOT with or without the first
/// token).
struct LlmMetric
{
    std::optional<double> meanS, medianS, stdS, minS, maxS;
    std::map<std::string, double> percentileS; ///< "99" -> seconds, as the tool names it.
    std::string definition;

    /// Sets one statistic by its short name: "mean", "median", "std", or "p<N>" (a percentile,
    /// kept under "<N>").
    void set(const std::string& stat, double seconds);
};

/// One GPU's counters over a benchmark run, as the tool's telemetry summarised them.
struct LlmGpuTelemetry
{
    std::string gpu;  ///< The tool's name or index for the GPU ("3", "gpu_0").
    std::string name; ///< Product name, when given.
    std::optional<double> meanPowerW, maxPowerW;
    /// Rise of the cumulative energy counter (its max - min) over the telemetry window, which
    /// can be longer than the measured requests (GenAI-Perf's is).
    std::optional<double> energyCounterRiseJ;
    std::optional<double> meanUtilizationPct, meanSmClockMhz, maxTemperatureC;
};

/// One sample of the serving engine's state, as the engine logged it periodically.
struct LlmEngineSample
{
    double timeS = 0.0; ///< From the start of the run.
    double promptTokensPerS = 0.0, outputTokensPerS = 0.0;
    std::int32_t running = 0, waiting = 0; ///< Requests in the batch / in the queue.
    double kvCacheUsePct = 0.0;
};

/// One benchmark run: one request rate or concurrency against one server configuration.
struct LlmRun
{
    std::string tool; ///< "vllm", "sglang", "vllm_request_log", "genai-perf", "aiperf", ...
    std::string backend;
    std::string model;
    std::int64_t line = 0; ///< Where the run starts in the file (1-based).
    /// Every other field of the run's header as written (dataset, burstiness, lengths, ...).
    std::map<std::string, std::string> knobs;
    std::optional<double> requestRatePerS; ///< Empty when unlimited ("inf") or not given.
    std::optional<double> maxConcurrency;  ///< Empty when unlimited.
    std::optional<double> durationS;
    /// Unix time (seconds) of the run's time 0 (its first request's arrival), when the file
    /// records an absolute clock: the key to joining a power log. `originSource` says how.
    std::optional<double> originEpochS;
    std::string originSource;
    std::optional<std::int64_t> completed;
    std::optional<std::int64_t> promptTokensTotal, outputTokensTotal;
    std::optional<double> requestsPerS, outputTokensPerS, totalTokensPerS, goodputPerS;
    std::optional<double> promptTokensPerS;
    /// "ttft", "tpot", "itl", "e2e".
    std::map<std::string, LlmMetric> metrics;
    std::vector<LlmRequest> requests;          ///< Empty when the file has no per-request arrays.
    std::vector<LlmGpuTelemetry> gpus;         ///< Every GPU the telemetry covered.
    std::vector<LlmEngineSample> engineSeries; ///< Engine state over time, in time order.
};

/// The runs of one file (a --append-result or JSON Lines file holds several).
struct LlmRunSet
{
    std::vector<LlmRun> runs;
};

/// The first of `keys` the run's header records (knobs as the readers name them, e.g.
/// "engine.max_num_seqs" from a run record, "max_concurrency" from a bench result), or "".
std::string llmKnob(const LlmRun& run, const std::vector<std::string>& keys);

/// The knob as a finite number, or nothing (absent, or not a number).
std::optional<double> llmKnobNumber(const LlmRun& run, const std::vector<std::string>& keys);

} // namespace bs::data
