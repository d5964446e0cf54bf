#include "io/servingrequestlog.h"

#include "io/bytesource.h"
#include "io/jsonline.h"
#include "io/linereader.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bs::io {

namespace {

struct LoggedTimes
{
    double queuedS = 0.0;
    double firstTokenS = 0.0;
    double lastTokenS = 0.0;
};

Expected<double> timeField(const nlohmann::json& object, const char* key, const LineReader& lines)
{
    const auto it = object.find(key);
    if (it == object.end())
        return lines.errorAt(0, ErrorCode::Format, std::string("the key '") + key + "' is missing");
    if (!it->is_number())
        return lines.errorAt(0, ErrorCode::Value,
                             std::string(key) + ": expected a number of seconds");
    const double value = it->get<double>();
    if (!std::isfinite(value) || value < 0.0)
        return lines.errorAt(0, ErrorCode::Value,
                             std::string(key) +
                                 ": must be a finite non-negative number of seconds");
    return value;
}

Expected<std::int32_t> tokenField(const nlohmann::json& object, const char* key,
                                  const LineReader& lines)
{
    const auto it = object.find(key);
    if (it == object.end())
        return lines.errorAt(0, ErrorCode::Format, std::string("the key '") + key + "' is missing");
    if (!it->is_number_integer() || it->get<std::int64_t>() < 1 ||
        it->get<std::int64_t>() > std::numeric_limits<std::int32_t>::max())
        return lines.errorAt(0, ErrorCode::Value,
                             std::string(key) + ": expected a whole number of tokens, at least 1");
    return std::int32_t(it->get<std::int64_t>());
}

Expected<data::LlmRequest> readLine(const nlohmann::json& object, const LineReader& lines,
                                    LoggedTimes& times)
{
    if (!object.is_object())
        return lines.errorAt(0, ErrorCode::Format, "expected one JSON object per line");
    data::LlmRequest request;
    auto prompt = tokenField(object, "input_toks", lines);
    if (!prompt)
        return prompt.error();
    auto output = tokenField(object, "output_toks", lines);
    if (!output)
        return output.error();
    request.promptTokens = *prompt;
    request.outputTokens = *output;
    double* targets[] = {&times.queuedS, &times.firstTokenS, &times.lastTokenS};
    const char* keys[] = {"queued_ts", "first_token_ts", "last_token_ts"};
    for (std::size_t i = 0; i < 3; ++i) {
        auto value = timeField(object, keys[i], lines);
        if (!value)
            return value.error();
        *targets[i] = *value;
    }
    if (times.firstTokenS < times.queuedS || times.lastTokenS < times.firstTokenS)
        return lines.errorAt(0, ErrorCode::Value,
                             "timestamps out of order: expected queued_ts <= first_token_ts <= "
                             "last_token_ts");
    return request;
}

} // namespace

Expected<std::vector<data::LlmRequest>>
readServingRequestLog(const std::string& path, Progress& progress, CancelToken cancel)
{
    auto source = openByteSource(path);
    if (!source)
        return source.error();
    LineReader lines(**source, progress, cancel);
    std::vector<data::LlmRequest> requests;
    std::vector<double> queuedS;
    std::string_view line;
    while (true) {
        auto more = lines.next(line);
        if (!more)
            return more.error();
        if (!*more)
            break;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos)
            continue;
        auto json = parseJsonLine(line, lines);
        if (!json)
            return json.error();
        LoggedTimes times;
        auto request = readLine(*json, lines, times);
        if (!request)
            return request.error();
        request->ttftS = times.firstTokenS - times.queuedS;
        request->e2eS = times.lastTokenS - times.queuedS;
        if (*request->outputTokens > 1)
            request->tpotS = (times.lastTokenS - times.firstTokenS) / (*request->outputTokens - 1);
        requests.push_back(std::move(*request));
        queuedS.push_back(times.queuedS);
    }
    if (requests.empty())
        return makeError(ErrorCode::Format, path, 0, 0, "no requests: the file has no JSON lines");
    const double originS = *std::min_element(queuedS.begin(), queuedS.end());
    for (std::size_t i = 0; i < requests.size(); ++i)
        requests[i].arrivalS = queuedS[i] - originS;
    return requests;
}

} // namespace bs::io
