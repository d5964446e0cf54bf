#include "io/llmbenchrequests.h"

#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <type_traits>

namespace bs::io {

namespace {

class RequestArrays
{
public:
    RequestArrays(const nlohmann::json& object, const LineReader& lines)
        : m_object(object)
        , m_lines(lines)
    {}

    /// The array under `key`, empty when the run has none; a non-array is an error.
    Expected<std::reference_wrapper<const nlohmann::json>> array(const char* key)
    {
        static const nlohmann::json none = nlohmann::json::array();
        const auto it = m_object.find(key);
        if (it == m_object.end() || it->is_null())
            return std::cref(none);
        if (!it->is_array())
            return error(std::string("\"") + key + "\" holds " + it->type_name() +
                         ", not a per-request array");
        if (m_size && it->size() != *m_size) {
            return error(std::string("\"") + key + "\" has " + std::to_string(it->size()) +
                         " entries but \"" + m_sizeKey + "\" has " + std::to_string(*m_size) +
                         "; the per-request arrays must be of one length");
        }
        m_size = it->size();
        m_sizeKey = key;
        return std::cref(*it);
    }

    Expected<double> seconds(const nlohmann::json& value, const char* key, std::size_t index)
    {
        const double v = value.is_number() ? value.get<double>() : -1.0;
        if (!value.is_number() || !std::isfinite(v) || v < 0.0) {
            return error(std::string("\"") + key + "\" entry " + std::to_string(index) + " holds " +
                             value.dump() + ", not a non-negative number of seconds",
                         ErrorCode::Value);
        }
        return v;
    }

    Expected<std::int32_t> tokens(const nlohmann::json& value, const char* key, std::size_t index)
    {
        const bool whole = value.is_number_integer() && value.get<std::int64_t>() >= 0 &&
                           value.get<std::int64_t>() <= std::numeric_limits<std::int32_t>::max();
        if (!whole) {
            return error(std::string("\"") + key + "\" entry " + std::to_string(index) + " holds " +
                             value.dump() + ", not a token count",
                         ErrorCode::Value);
        }
        return std::int32_t(value.get<std::int64_t>());
    }

    Error error(std::string message, ErrorCode code = ErrorCode::Format) const
    {
        return m_lines.errorAt(0, code, std::move(message));
    }

private:
    const nlohmann::json& m_object;
    const LineReader& m_lines;
    std::optional<std::size_t> m_size;
    std::string m_sizeKey;
};

using Requests = std::vector<data::LlmRequest>;

/// The array under `key`, with `requests` sized to it when the run has one.
Expected<std::reference_wrapper<const nlohmann::json>>
sizedArray(RequestArrays& arrays, const char* key, Requests& requests)
{
    auto values = arrays.array(key);
    if (values && !values->get().empty())
        requests.resize(values->get().size());
    return values;
}

/// Fills `field` of each request from the array under `key`: token counts for an int32
/// field, seconds for a double one.
template <typename T>
Status readEach(RequestArrays& arrays, const char* key, std::optional<T> data::LlmRequest::*field,
                Requests& requests)
{
    auto values = sizedArray(arrays, key, requests);
    if (!values)
        return values.error();
    const nlohmann::json& list = values->get();
    for (std::size_t i = 0; i < list.size(); ++i) {
        Expected<T> v = [&]() -> Expected<T> {
            if constexpr (std::is_same_v<T, double>)
                return arrays.seconds(list[i], key, i);
            else
                return arrays.tokens(list[i], key, i);
        }();
        if (!v)
            return v.error();
        requests[i].*field = *v;
    }
    return {};
}

Status readItls(RequestArrays& arrays, Requests& requests)
{
    auto values = sizedArray(arrays, "itls", requests);
    if (!values)
        return values.error();
    const nlohmann::json& list = values->get();
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto& gaps = list[i];
        if (!gaps.is_array())
            return arrays.error("\"itls\" entry " + std::to_string(i) + " holds " +
                                gaps.type_name() + ", not a list of gaps");
        for (const auto& gap : gaps) {
            auto s = arrays.seconds(gap, "itls", i);
            if (!s)
                return s.error();
            requests[i].itlS.push_back(*s);
        }
    }
    return {};
}

Status readErrors(RequestArrays& arrays, Requests& requests)
{
    auto values = sizedArray(arrays, "errors", requests);
    if (!values)
        return values.error();
    const nlohmann::json& list = values->get();
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto& text = list[i];
        requests[i].error = text.is_string() ? text.get<std::string>() : text.dump();
        requests[i].ok = text.is_null() || (text.is_string() && text.get<std::string>().empty());
    }
    return {};
}

/// vLLM saves no per-request latency, but its ITL list holds every gap after the first token,
/// so e2e = ttft + sum(itls) and tpot = sum(itls) / (output tokens - 1), as vLLM computes them.
void deriveLatencies(Requests& requests, bool haveItls)
{
    double firstStartS = std::numeric_limits<double>::infinity();
    for (const auto& r : requests)
        firstStartS = std::min(firstStartS, r.arrivalS.value_or(firstStartS));
    for (auto& r : requests) {
        if (r.arrivalS)
            *r.arrivalS -= firstStartS;
        if (!r.ok || !r.ttftS || !haveItls)
            continue;
        const double decodeS = std::accumulate(r.itlS.begin(), r.itlS.end(), 0.0);
        r.e2eS = *r.ttftS + decodeS;
        if (r.outputTokens && *r.outputTokens > 1)
            r.tpotS = decodeS / double(*r.outputTokens - 1);
    }
}

} // namespace

Expected<std::vector<data::LlmRequest>>
readLlmRequests(const nlohmann::json& object, const LineReader& lines, std::set<std::string>& used)
{
    RequestArrays arrays(object, lines);
    Requests requests;
    const Status steps[] = {
        readEach(arrays, "input_lens", &data::LlmRequest::promptTokens, requests),
        readEach(arrays, "output_lens", &data::LlmRequest::outputTokens, requests),
        readEach(arrays, "ttfts", &data::LlmRequest::ttftS, requests),
        readEach(arrays, "start_times", &data::LlmRequest::arrivalS, requests),
        readItls(arrays, requests),
        readErrors(arrays, requests)};
    for (const auto& status : steps) {
        if (!status)
            return status.error();
    }
    used.insert({"input_lens", "output_lens", "ttfts", "start_times", "itls", "errors"});
    deriveLatencies(requests, object.contains("itls"));
    return requests;
}

} // namespace bs::io
