// Fuzzes the MLPerf LoadGen summary reader (core/io/mlperflog.cpp, mlperfreader.cpp) through
// readDatasetFromBytes with the reader forced to "mlperf_summary".
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "mlperf_summary");
    return 0;
}
