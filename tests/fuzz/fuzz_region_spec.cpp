// Fuzzes the two region readers (core/analysis): the region spec file of `batchscope-cli
// region` (regionSpecFromJson) and a project's region section next to a fixed valid scenario
// (regionSpecFromSections, what `report` and the GUI's Region view read). A spec that reads
// must write back to JSON that reads to an equal spec (compared as JSON).
#include "analysis/projectregion.h"
#include "analysis/regionspec.h"
#include "fuzzsupport.h"
#include "io/jsonfields.h"

namespace {

const char* kScenario = R"({"seed": 5, "requests": 1000, "replications": 2,
    "arrivals": {"kind": "poisson", "rate_per_s": 500},
    "policy": {"kind": "dynamic", "max_batch": 4, "max_queue_delay_ms": 1},
    "service": {"kind": "linear", "base_ms": 1, "per_item_ms": 0.5}})";

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace bs;
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto json = io::parseJson(text, fuzz::kInputName);
    if (!json) {
        fuzz::checkError(json.error());
        return 0;
    }
    if (auto spec = analysis::regionSpecFromJson(*json, fuzz::kInputName); !spec) {
        fuzz::checkError(spec.error());
    } else {
        const auto written = analysis::toJson(*spec);
        auto again = analysis::regionSpecFromJson(nlohmann::json::parse(written.dump()), "again");
        fuzz::require(again.hasValue(), "a region spec that read does not read back",
                      again ? std::string() : again.error().toString());
        fuzz::require(analysis::toJson(*again) == written, "region spec changed in a round trip",
                      written.dump());
    }
    // The same bytes as a project's region section: an error (naming region.<key>) or a spec,
    // never an exception.
    auto sections = analysis::regionSpecFromSections(nlohmann::json::parse(kScenario),
                                                     nlohmann::json::object(), *json);
    if (!sections) {
        fuzz::require(!sections.error().message.empty(), "region error without a message");
        fuzz::require(io::isValidUtf8(sections.error().message), "region error is not UTF-8",
                      sections.error().toString());
    }
    return 0;
}
