#pragma once

#include "data/sweeptable.h"
#include "util/expected.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace bs::accel {

/// Which measurement of a sweep row stands for the service time t(b) of one batch.
enum class ServiceTimeSource
{
    Auto,        ///< Mean latency at concurrency ≤ 1, else b/throughput, else p50 latency.
    MeanLatency, ///< The row's mean latency.
    P50Latency,  ///< The row's median latency.
    Throughput,  ///< b / throughput: one batch in service at a time, back to back.
};

const char* serviceTimeSourceName(ServiceTimeSource source);

/// One measured service time (and power, when the sweep has it) at a batch size.
struct ServiceSample
{
    std::size_t row = 0; ///< 1-based row in the sweep table.
    int batch = 1;
    double serviceS = 0.0;
    std::optional<double> powerW;
};

/// The rows of one run of a sweep, turned into service-time samples.
struct SampleSelection
{
    std::vector<ServiceSample> samples;
    int run = 1;        ///< 1-based.
    int runCount = 1;   ///< Runs found in the table.
    std::string series; ///< The run's series label from the reader ("run 2"), if any.
    std::size_t firstRow = 1;
    std::size_t lastRow = 1;
    ServiceTimeSource source = ServiceTimeSource::MeanLatency;
    bool hasPower = false; ///< Every sample has a power.
    int distinctBatches = 0;
};

/// Splits the sweep into runs and turns the chosen run into samples.
///
/// Runs: a change of SweepPoint::series starts a new run (readers label concatenated runs);
/// without series labels, a fall back to the table's first batch size does. Within a run the
/// batch column must not decrease. `run` is 1-based; 0 picks the run with the most distinct batch
/// sizes (the first of equals). The chosen run needs at least `minDistinctBatches` batch sizes;
/// its service times (and powers, if any) must be finite and positive. Errors name `path`.
Expected<SampleSelection> selectSamples(const data::SweepTable& table, ServiceTimeSource source,
                                        int run, int minDistinctBatches, const std::string& path);

} // namespace bs::accel
