// Fuzzes the request-trace CSV readers (core/io/requesttracereader.cpp, mappedcsvreader.cpp):
// the generic one with the mapping suggested from the header (so suggestColumnMapping runs on
// hostile headers too), the Azure LLM and BurstGPT traces with their fixed mappings, and the
// Mooncake and Bailian JSON Lines traces (core/io/jsonlrequestreader.cpp).
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "request_trace_csv");
    bs::fuzz::readAndCheck(data, size, "azure_llm_trace");
    bs::fuzz::readAndCheck(data, size, "burstgpt_trace");
    bs::fuzz::readAndCheck(data, size, "mooncake_trace");
    bs::fuzz::readAndCheck(data, size, "bailian_trace");
    return 0;
}
