// Fuzzes format detection and whichever reader it picks (readDatasetFromBytes with no format):
// the path a file dropped on the window takes.
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    bs::fuzz::readAndCheck(data, size, "");
    return 0;
}
