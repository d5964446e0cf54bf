// Fuzzes vLLM's benchmark CI result table reader (core/io/vllmresulttable.cpp) through
// readDatasetFromBytes with the reader forced to "vllm_result_table".
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "vllm_result_table");
    return 0;
}
