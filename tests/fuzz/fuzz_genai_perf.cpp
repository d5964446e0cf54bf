// Fuzzes the GenAI-Perf/AIPerf export reader (core/io/genaiperfreader.cpp,
// genaiperftelemetry.cpp) through readDatasetFromBytes with the reader forced to "genai_perf".
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "genai_perf");
    return 0;
}
