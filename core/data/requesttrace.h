#pragma once

#include "data/runtags.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bs::data {

/// Per-request records as a struct of arrays (10 million requests stay compact and cache
/// friendly). Times are seconds relative to `originEpochS` (0 when the source has no absolute
/// clock). Every optional column is either empty or exactly as long as `arrivalS`.
struct RequestTrace
{
    std::string name;
    double originEpochS = 0.0; ///< Unix time of t = 0, UTC; 0 when unknown.

    std::vector<double> arrivalS;        ///< When the request reached the server queue.
    std::vector<double> intendedS;       ///< When the load generator meant to send it (optional).
    std::vector<double> dispatchS;       ///< When its batch started service (optional).
    std::vector<double> completionS;     ///< When the response was complete (optional).
    std::vector<std::int64_t> batchId;   ///< Batch the request ran in (optional).
    std::vector<std::int32_t> batchSize; ///< Size of that batch (optional).
    std::vector<std::uint32_t> streamIndex; ///< Index into streamNames (optional).
    std::vector<std::string> streamNames;   ///< Tenants/streams, in first-seen order.
    std::vector<std::int32_t> inputTokens;  ///< Prompt/context tokens (optional).
    std::vector<std::int32_t> outputTokens; ///< Generated tokens (optional).
    RunTags tags;

    std::size_t size() const { return arrivalS.size(); }
    bool hasCompletion() const { return !completionS.empty(); }
    bool hasDispatch() const { return !dispatchS.empty(); }
};

} // namespace bs::data
