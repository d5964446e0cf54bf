// Fuzzes the scenario JSON reader (core/sim/scenarioread.cpp) the way loadScenario reads a file:
// bytes (plain or gzip) -> parseJson (depth and token limits) -> scenarioFromJson. A scenario
// that reads must write back to JSON that reads to the same scenario.
#include "fuzzsupport.h"
#include "io/bytesource.h"
#include "io/jsonfields.h"
#include "sim/scenariojson.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace bs;
    auto source = io::memoryByteSource(std::string(reinterpret_cast<const char*>(data), size),
                                       fuzz::kInputName);
    auto text = io::readAll(*source, std::uint64_t(16) << 20);
    if (!text) {
        fuzz::checkError(text.error());
        return 0;
    }
    auto json = io::parseJson(*text, fuzz::kInputName);
    if (!json) {
        fuzz::checkError(json.error());
        return 0;
    }
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
