// Fuzzes the LLMPerf summary / individual-responses reader (core/io/llmperfreader.cpp) through
// readDatasetFromBytes with the reader forced to "llmperf".
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "llmperf");
    return 0;
}
