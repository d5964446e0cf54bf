// Fuzzes the MLPerf LoadGen detail log reader (:::MLLOG and pre-v1.0 text forms) through
// readDatasetFromBytes with the reader forced to "mlperf_detail".
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "mlperf_detail");
    return 0;
}
