// Fuzzes the Model Analyzer metrics CSV reader (core/io/modelanalyzerreader.cpp) through
// readDatasetFromBytes with the reader forced to "model_analyzer".
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "model_analyzer");
    return 0;
}
