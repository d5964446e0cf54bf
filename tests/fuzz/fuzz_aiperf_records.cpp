// Fuzzes the AIPerf per-request profile_export.jsonl reader (core/io/aiperfrecordreader.cpp)
// through readDatasetFromBytes with the reader forced to "aiperf_records".
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "aiperf_records");
    return 0;
}
