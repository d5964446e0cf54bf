// Fuzzes the scenario JSON reader (core/sim/scenarioread.cpp) the way loadScenario reads a file:
// bytes (plain or gzip) -> parseJson (depth and token limits) -> scenarioFromJson. A scenario
// that reads must write back to JSON that reads to the same scenario.
#include "fuzzsupport.h"
#include "sim/scenariojson.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace bs;
    const auto json = fuzz::jsonInput(data, size);
    if (!json)
        return 0;
    auto scenario = sim::scenarioFromJson(*json, fuzz::kInputName);
    if (!scenario) {
        fuzz::checkError(scenario.error());
        return 0;
    }
    const nlohmann::json written = sim::scenarioToJson(*scenario);
    auto again = sim::scenarioFromJson(nlohmann::json::parse(written.dump()), "round-trip");
    fuzz::require(again.hasValue(), "a scenario that read does not read back",
                  again ? std::string() : again.error().toString());
    fuzz::require(*again == *scenario, "scenario changed in a JSON round trip", written.dump());
    return 0;
}
