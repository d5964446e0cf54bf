// Fuzzes the generic CSV readers with fixed column mappings (core/io/genericcsvreaders.cpp,
// mappedcsvreader.cpp): a sweep and a power log, the mappings naming the columns of the seeds
// tests/data/generic_csv/sweep_ms.csv and tests/data/power/power_generic.csv.
#include "fuzzsupport.h"

namespace {

const nlohmann::json& sweepMapping()
{
    static const nlohmann::json mapping = nlohmann::json::parse(R"json({
        "delimiter": ",",
        "columns": {
            "batch_size": {"column": "bs"},
            "concurrency": {"column": "concurrency"},
            "throughput": {"column": "throughput (infer/s)", "unit": "per_s"},
            "latency_p50": {"column": "p50_ms", "unit": "ms"},
            "latency_p99": {"column": "p99_ms", "unit": "ms"},
            "power": {"column": "gpu power [W]", "unit": "W"},
            "utilization": {"column": "util %", "unit": "pct"}
        }})json");
    return mapping;
}

const nlohmann::json& powerMapping()
{
    static const nlohmann::json mapping = nlohmann::json::parse(R"json({
        "columns": {
            "time": {"column": "time", "unit": "datetime"},
            "channel": {"column": "gpu"},
            "power": {"column": "power [W]", "unit": "W"},
            "temperature": {"column": "temp_c", "unit": "C"}
        }})json");
    return mapping;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "sweep_csv", sweepMapping());
    bs::fuzz::readAndCheck(data, size, "power_csv", powerMapping());
    return 0;
}
