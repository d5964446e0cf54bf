// Fuzzes the serving engine request-log reader (core/io/llmrequestlog.cpp) through
// readDatasetFromBytes with the reader forced to "llm_request_log" (in memory: no siblings).
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "llm_request_log");
    return 0;
}
