// Fuzzes the nvidia-smi --query-gpu CSV reader (core/io/nvidiasmireader.cpp) through
// readDatasetFromBytes with the reader forced to "nvidia_smi".
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "nvidia_smi");
    return 0;
}
