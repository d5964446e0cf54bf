// Fuzzes the Triton perf_analyzer CSV reader (core/io/perfanalyzerreader.cpp) through
// readDatasetFromBytes with the reader forced to "perf_analyzer".
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "perf_analyzer");
    return 0;
}
