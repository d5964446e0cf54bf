// Poisson arrivals with token lengths fitted to a request trace (README.md, "Scenario JSON":
// arrivals "fitted").
#include "llmsim/tracefit.h"

#include <algorithm>
#include <cmath>

namespace bs::llmsim {

namespace {

/// Mean and coefficient of variation of the lengths, as a rounded lognormal capped at the
/// longest seen (fixed when every length is the same).
TokenLengthSpec lengthsOf(const std::vector<double>& tokens)
{
    double sum = 0.0;
    double largest = 0.0;
    for (double t : tokens) {
        sum += t;
        largest = std::max(largest, t);
    }
    const double mean = sum / double(tokens.size());
    double squares = 0.0;
    for (double t : tokens)
        squares += (t - mean) * (t - mean);
    const double cv = std::sqrt(squares / double(tokens.size())) / mean;
    TokenLengthSpec spec;
    if (cv < 1e-3) {
        spec.kind = TokenLengthSpec::Kind::Fixed;
        spec.tokens = std::int32_t(std::lround(mean));
        return spec;
    }
    spec.kind = TokenLengthSpec::Kind::Lognormal;
    spec.mean = mean;
    spec.cv = cv;
    spec.max = std::int32_t(largest);
    return spec;
}

} // namespace

Expected<LlmArrivalSpec> poissonFittedTo(const std::vector<RequestSpec>& trace, std::int64_t count)
{
    if (trace.size() < 2)
        return makeError(ErrorCode::Value,
                         "scenario.arrivals: fitting arrivals needs at least 2 requests in the "
                         "trace (got " +
                             std::to_string(trace.size()) + ")");
    double first = trace.front().arrivalS;
    double last = first;
    std::vector<double> prompts, outputs;
    for (const RequestSpec& r : trace) {
        first = std::min(first, r.arrivalS);
        last = std::max(last, r.arrivalS);
        prompts.push_back(double(r.promptTokens));
        outputs.push_back(double(r.outputTokens));
    }
    if (!(last > first))
        return makeError(ErrorCode::Value, "scenario.arrivals: every request of the trace "
                                           "arrives at one instant; no rate can be fitted");
    LlmArrivalSpec spec;
    spec.kind = LlmArrivalSpec::Kind::Poisson;
    spec.ratePerS = double(trace.size() - 1) / (last - first);
    spec.count = count > 0 ? count : std::int64_t(trace.size());
    spec.promptTokens = lengthsOf(prompts);
    spec.outputTokens = lengthsOf(outputs);
    return spec;
}

} // namespace bs::llmsim
