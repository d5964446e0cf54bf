// Fuzzes the LLM scenario JSON reader (core/llmsim/llmscenariojson.cpp) the way the CLI reads
// a file: bytes -> parseJson -> llmScenarioFromJson, then a JSON round trip. A small scenario
// that reads (inline requests or a short Poisson run, linear step, no files) is simulated: the
// run must end, and every request must come back with finite, ordered times.
#include "fuzzsupport.h"
#include "llmsim/llmscenariojson.h"
#include "llmsim/llmsimulator.h"

#include <cmath>

namespace {

/// Small enough to simulate in a few milliseconds.
bool smallEnough(const bs::llmsim::LlmScenario& s)
{
    using bs::llmsim::LlmArrivalSpec;
    if (s.step.kind != bs::llmsim::StepSpec::Kind::Linear || s.engine.numGpuBlocks > 100000)
        return false;
    if (s.arrivals.kind == LlmArrivalSpec::Kind::Poisson)
        return s.arrivals.count * s.replications <= 64 && s.arrivals.outputTokens.max <= 4096 &&
               s.arrivals.outputTokens.tokens <= 4096;
    if (!s.arrivals.file.empty() || s.arrivals.requests.size() > 64)
        return false;
    std::int64_t outputTokens = 0;
    for (const auto& r : s.arrivals.requests)
        outputTokens += r.outputTokens;
    return outputTokens <= 20000;
}

void checkRun(const bs::llmsim::LlmResult& result)
{
    for (const auto& r : result.requests) {
        bs::fuzz::require(std::isfinite(r.ttftS) && r.ttftS >= 0.0 && r.e2eS >= r.ttftS &&
                              r.queueS >= 0.0 && r.queueS <= r.ttftS && r.tpotS >= 0.0,
                          "a simulated request has times out of order");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace bs;
    const auto json = fuzz::jsonInput(data, size);
    if (!json)
        return 0;
    auto scenario = llmsim::llmScenarioFromJson(*json, fuzz::kInputName);
    if (!scenario) {
        fuzz::checkError(scenario.error());
        return 0;
    }
    const nlohmann::json written = llmsim::llmScenarioToJson(*scenario);
    auto again = llmsim::llmScenarioFromJson(nlohmann::json::parse(written.dump()), "round-trip");
    fuzz::require(again.hasValue(), "an LLM scenario that read does not read back",
                  again ? std::string() : again.error().toString());
    fuzz::require(*again == *scenario, "LLM scenario changed in a JSON round trip", written.dump());
    if (!smallEnough(*scenario))
        return 0;
    auto result = llmsim::simulateLlm(*scenario);
    if (!result) {
        // Simulation errors name no file (the CLI adds the scenario's); the rest is checked.
        fuzz::checkError(result.error(), result.error().path);
        return 0;
    }
    checkRun(*result);
    return 0;
}
