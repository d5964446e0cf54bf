#pragma once

#include "data/runtags.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bs::data {

/// What the load axis of a sweep measures, besides batch size.
enum class LoadAxis
{
    None,        ///< Offline runs: only batch size varies.
    Concurrency, ///< Closed loop: N requests in flight (perf_analyzer --concurrency-range).
    RequestRate, ///< Open loop: requests per second offered (--request-rate-range, MLPerf Server).
};

/// One measured operating point of a batch/concurrency sweep. Units: seconds, watts, joules,
/// bytes. A field a source does not report stays empty; nothing is invented.
struct SweepPoint
{
    int batchSize = 1;
    std::optional<double> concurrency;
    std::optional<double> requestRatePerS;
    std::optional<double> throughputPerS; ///< Inferences (items) per second.
    std::optional<double> latencyMeanS;
    std::optional<double> latencyP50S;
    std::optional<double> latencyP90S;
    std::optional<double> latencyP95S;
    std::optional<double> latencyP99S;
    std::optional<double> latencyP999S;
    std::optional<double> powerW;
    std::optional<double> energyPerInferenceJ;
    std::optional<double> utilization; ///< Accelerator busy fraction, 0..1.
    std::optional<double> memoryBytes;
    // perf_analyzer's breakdown of a request's mean latency (Triton's server statistics).
    std::optional<double> serverQueueS;
    std::optional<double> computeInputS;  ///< Per batch: input copy to the device.
    std::optional<double> computeInferS;  ///< Per batch: the model's execution.
    std::optional<double> computeOutputS; ///< Per batch: output copy and response.
    /// Client send + network and server send/receive + client receive: time outside the server.
    std::optional<double> clientOverheadS;
    std::optional<std::uint64_t> sampleCount; ///< Requests behind the percentiles, when known.
    /// Which run or configuration the point belongs to when a file holds several (perf_analyzer
    /// runs concatenated in one file: "run 2"; Model Analyzer: the model config name). Empty
    /// when the file holds one.
    std::string series;

    friend bool operator==(const SweepPoint&, const SweepPoint&) = default;
};

/// A batch/concurrency sweep as measured: the rows in file order, with run tags.
struct SweepTable
{
    std::string name;
    LoadAxis loadAxis = LoadAxis::None;
    std::vector<SweepPoint> points;
    RunTags tags;
    /// Facts about the whole measurement that are not per point, keyed in snake_case (MLPerf
    /// scenario, result validity, target QPS and latency, the power window and joined files).
    std::map<std::string, std::string> metadata;

    friend bool operator==(const SweepTable&, const SweepTable&) = default;
};

const char* loadAxisName(LoadAxis axis);

} // namespace bs::data
