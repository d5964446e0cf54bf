// Fuzzes the request-trace CSV readers (core/io/requesttracereader.cpp, mappedcsvreader.cpp):
// the generic one with the mapping suggested from the header (so suggestColumnMapping runs on
// hostile headers too) and the Azure LLM trace with its fixed mapping.
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "request_trace_csv");
    bs::fuzz::readAndCheck(data, size, "azure_llm_trace");
    return 0;
}
