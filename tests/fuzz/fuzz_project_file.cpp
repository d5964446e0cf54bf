// Fuzzes the project file reader (core/io/projectfile.cpp, datasetjson.cpp): bytes (plain or
// gzip) -> JSON -> Project with embedded sweeps, traces and power series. A project that opens
// must save and open again to the same JSON.
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace bs;
    auto project = io::loadProjectFromBytes(std::string(reinterpret_cast<const char*>(data), size),
                                            fuzz::kInputName);
    if (!project) {
        fuzz::checkError(project.error());
        return 0;
    }
    const nlohmann::json written = io::projectToJson(*project);
    auto again = io::loadProjectFromBytes(written.dump(1), fuzz::kInputName);
    fuzz::require(again.hasValue(), "a project that opened does not open after saving",
                  again ? std::string() : again.error().toString());
    fuzz::require(io::projectToJson(*again) == written,
                  "project changed in a save/open round trip");
    return 0;
}
