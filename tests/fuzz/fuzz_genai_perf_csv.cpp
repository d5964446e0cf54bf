// Fuzzes the GenAI-Perf/AIPerf profile export CSV reader (core/io/genaiperfcsv.cpp, then the
// shared mapping of genaiperfreader.cpp) through readDatasetFromBytes with the reader forced to
// "genai_perf_csv".
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "genai_perf_csv");
    return 0;
}
