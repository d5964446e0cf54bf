// Fuzzes the Triton model configuration reader (core/analysis/tritonconfig.cpp, config.pbtxt in
// protobuf text format): any input reads or gives an error that names the input.
#include "analysis/tritonconfig.h"
#include "fuzzsupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace bs;
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto settings = analysis::tritonSettingsFromConfig(text, fuzz::kInputName);
    if (!settings)
        fuzz::checkError(settings.error());
    else if (settings->instances < 1 || settings->maxBatchItems < 0 ||
             !(settings->maxQueueDelayS >= 0.0))
        __builtin_trap(); // a configuration read must give usable settings
    return 0;
}
