// Fuzzes the TensorRT-LLM trtllm-bench report reader (core/io/trtllmbenchreader.cpp) through
// readDatasetFromBytes with the reader forced to "trtllm_bench".
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "trtllm_bench");
    return 0;
}
