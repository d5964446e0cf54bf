// Fuzzes the vLLM/SGLang benchmark result reader (core/io/llmbenchreader.cpp,
// llmbenchrequests.cpp) through readDatasetFromBytes with the reader forced to "llm_benchmark".
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "llm_benchmark");
    return 0;
}
