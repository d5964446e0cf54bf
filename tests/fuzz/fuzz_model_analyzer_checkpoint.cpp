// Fuzzes the Model Analyzer checkpoint reader (core/io/modelanalyzercheckpoint.cpp) through
// readDatasetFromBytes with the reader forced to "model_analyzer_checkpoint".
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "model_analyzer_checkpoint");
    return 0;
}
