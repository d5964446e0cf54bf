#pragma once

#include "llmsim/llmscenario.h"
#include "util/expected.h"

#include <cstdint>
#include <vector>

namespace bs::llmsim {

/// Poisson arrivals and lognormal prompt and output lengths fitted to a request trace, so a
/// trace of one hour drives runs of any length, with replications and intervals: rate =
/// (n - 1) / (last arrival - first), each length's mean and coefficient of variation those of
/// the trace (a rounded lognormal, capped at the trace's longest; fixed when all are equal).
/// `count` requests per replication (0: as many as the trace). Errors: fewer than 2 requests,
/// or all at one instant.
Expected<LlmArrivalSpec> poissonFittedTo(const std::vector<RequestSpec>& trace, std::int64_t count);

} // namespace bs::llmsim
