#pragma once
// Internal pieces of analyzeRequests (requestanalysis.cpp), one concept per source file.

#include "analysis/requestanalysis.h"

#include <cstdint>
#include <span>
#include <vector>

namespace bs::analysis::detail {

/// Requests grouped by batch id: a dense batch number per request and per-batch figures.
struct BatchGroups
{
    std::vector<std::uint32_t> batchOf; ///< Per request; empty without batch ids.
    std::vector<std::uint32_t> size;
    std::vector<double> firstArrivalS;
    std::vector<double> lastArrivalS;
    std::vector<double> dispatchS; ///< Earliest dispatch of the members; NaN without dispatch.
};

/// Per-request derived columns (NaN-free: only filled when the trace has the columns).
struct Derived
{
    std::vector<double> latencyS; ///< completion - arrival, or empty.
    std::vector<double> waitS;    ///< dispatch - arrival, or empty.
    std::vector<double> sortedLatencyS;
};

BatchGroups groupBatches(const data::RequestTrace& trace);
BatchStatistics batchStatistics(const data::RequestTrace& trace, const BatchGroups& groups,
                                std::size_t cdfPoints);

RequestTimeSeries timeSeries(const data::RequestTrace& trace, const Derived& derived, double firstS,
                             double windowS, std::size_t windows);

TailDecomposition decomposeTail(const data::RequestTrace& trace, const Derived& derived,
                                const BatchGroups& groups, const RequestAnalysisOptions& options);

std::vector<StreamStatistics> streamStatistics(const data::RequestTrace& trace,
                                               const Derived& derived, double spanS);
Fairness fairnessOf(const std::vector<StreamStatistics>& streams, double overallP99S);

CoordinatedOmission coordinatedOmission(const data::RequestTrace& trace, const Derived& derived,
                                        const RequestAnalysisOptions& options);

/// A "nice" window (1, 2 or 5 times a power of ten) giving about `target` windows over spanS.
double niceWindow(double spanS, double target);

} // namespace bs::analysis::detail
