// Fuzzes the Chrome trace / Kineto JSON reader and its pull parser (core/io/kinetoreader.cpp)
// through readDatasetFromBytes with the reader forced to "kineto_trace".
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "kineto_trace");
    return 0;
}
