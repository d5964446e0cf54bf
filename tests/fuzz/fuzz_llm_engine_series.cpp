// Fuzzes the serving engine state-series reader (core/io/llmengineseries.cpp) through
// readDatasetFromBytes with the reader forced to "llm_engine_series".
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "llm_engine_series");
    return 0;
}
