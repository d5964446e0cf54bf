// Fuzzes the MLPerf PTDaemon spl.txt power log reader (core/io/splreader.cpp) through
// readDatasetFromBytes with the reader forced to "mlperf_spl".
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "mlperf_spl");
    return 0;
}
