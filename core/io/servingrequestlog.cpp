#include "io/servingrequestlog.h"

#include "io/readdataset.h"

namespace bs::io {

// One reader for this format: the llm_request_log dataset reader (llmrequestlog.h), without
// its siblings (the engine series and meta.json), which a replay does not need.
Expected<std::vector<data::LlmRequest>>
readServingRequestLog(const std::string& path, Progress& progress, CancelToken cancel)
{
    (void)progress;
    (void)cancel;
    ReadOptions options;
    options.format = "llm_request_log";
    options.readerOptions = {{"siblings", false}};
    auto dataset = readDataset(path, options);
    if (!dataset)
        return dataset.error();
    const auto runs = dataset->llmRuns();
    if (!runs || runs->runs.empty())
        return makeError(ErrorCode::Format, path, 0, 0, "holds no per-request serving log");
    return runs->runs.front().requests;
}

} // namespace bs::io
