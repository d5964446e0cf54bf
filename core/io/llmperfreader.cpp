#include "io/llmperfreader.h"

#include "io/genaiperftelemetry.h"
#include "io/jsondocument.h"
#include "io/jsonfields.h"
#include "io/numbercell.h"

#include <cmath>
#include <limits>

namespace bs::io {

namespace {

using nlohmann::json;

constexpr std::uint64_t kMaxResultBytes = std::uint64_t(256) << 20;

struct MetricName
{
    const char* key; ///< As LLMPerf spells it after "results_" and before "_s_".
    const char* metric;
    const char* definition;
};

const MetricName kMetrics[] = {
    {"ttft", "ttft", "per request: request sent -> first streamed token"},
    {"inter_token_latency", "tpot",
     "per request: that request's mean gap between tokens (LLMPerf's inter_token_latency_s)"},
    {"end_to_end_latency", "e2e", "per request: request sent -> last token"}};

Error keyError(const std::string& path, const std::string& where, const std::string& why,
               ErrorCode code = ErrorCode::Value)
{
    return makeError(code, path, 0, 0, "\"" + where + "\" " + why);
}

/// One metric's statistics from the summary's flat keys.
Status summaryMetric(const json& doc, const MetricName& name, const std::string& path,
                     data::LlmRun& run)
{
    const std::string prefix = std::string("results_") + name.key + "_s_";
    data::LlmMetric m;
    m.definition = name.definition;
    bool any = false;
    for (const auto& [key, value] : doc.items()) {
        if (key.rfind(prefix, 0) != 0 || value.is_null())
            continue;
        auto v = statNumber(value, key, path);
        if (!v)
            return v.error();
        const std::string stat = key.substr(prefix.size());
        any = true;
        if (stat == "mean")
            m.meanS = *v;
        else if (stat == "stddev")
            m.stdS = *v;
        else if (stat == "min")
            m.minS = *v;
        else if (stat == "max")
            m.maxS = *v;
        else if (stat.rfind("quantiles_p", 0) == 0)
            m.percentileS[stat.substr(11)] = *v;
    }
    if (const auto p50 = m.percentileS.find("50"); p50 != m.percentileS.end())
        m.medianS = p50->second;
    if (any)
        run.metrics[name.metric] = std::move(m);
    return {};
}

/// A number of the summary that must be a non-negative finite one; empty when absent.
Expected<std::optional<double>> summaryNumber(const json& doc, const char* key,
                                              const std::string& path)
{
    const auto it = doc.find(key);
    if (it == doc.end() || it->is_null())
        return std::optional<double>();
    auto v = statNumber(*it, key, path);
    if (!v)
        return v.error();
    return std::optional<double>(*v);
}

Expected<data::LlmRun> readSummary(const json& doc, ReaderContext& context)
{
    data::LlmRun run;
    run.tool = "llmperf";
    run.line = 1;
    for (const auto& name : kMetrics) {
        if (auto status = summaryMetric(doc, name, context.path, run); !status)
            return status.error();
    }
    auto completed = summaryNumber(doc, "results_num_completed_requests", context.path);
    auto perMinute = summaryNumber(doc, "results_num_completed_requests_per_min", context.path);
    auto output = summaryNumber(doc, "results_mean_output_throughput_token_per_s", context.path);
    auto concurrency = summaryNumber(doc, "num_concurrent_requests", context.path);
    auto errors = summaryNumber(doc, "results_number_errors", context.path);
    for (const auto* e : {&completed, &perMinute, &output, &concurrency, &errors}) {
        if (!*e)
            return e->error();
    }
    if (*completed)
        run.completed = std::int64_t(**completed);
    if (*perMinute)
        run.requestsPerS = **perMinute / 60.0;
    run.outputTokensPerS = *output;
    run.maxConcurrency = *concurrency;
    run.model = textOr(doc, "model");
    for (const auto& [key, value] : doc.items()) {
        if (key.rfind("results_", 0) != 0 && !value.is_structured() && !value.is_null())
            run.knobs[key] = value.is_string() ? value.get<std::string>() : value.dump();
    }
    for (const char* key :
         {"results_error_code_frequency", "results_error_rate", "results_num_requests_started"}) {
        if (doc.contains(key) && !doc[key].is_null())
            run.knobs[key + 8] =
                doc[key].is_string() ? doc[key].get<std::string>() : doc[key].dump();
    }
    if (*errors && **errors > 0.0)
        context.warnings.add("failed requests", 0,
                             formatNumber(**errors) + " requests failed (error codes " +
                                 textOr(doc, "results_error_code_frequency", "?") +
                                 "); LLMPerf's statistics leave them out");
    return run;
}

/// A request's token count: a whole non-negative number.
Expected<std::optional<std::int32_t>> tokenCount(const json& record, const char* key,
                                                 const std::string& where, const std::string& path)
{
    const auto it = record.find(key);
    if (it == record.end() || it->is_null())
        return std::optional<std::int32_t>();
    const bool whole = it->is_number_integer() && it->get<std::int64_t>() >= 0 &&
                       it->get<std::int64_t>() <= std::numeric_limits<std::int32_t>::max();
    if (!whole)
        return keyError(path, where + "." + key, "holds " + it->dump() + ", not a token count");
    return std::optional<std::int32_t>(std::int32_t(it->get<std::int64_t>()));
}

Expected<data::LlmRequest> readRequest(const json& record, std::size_t index,
                                       const std::string& path)
{
    const std::string where = "request " + std::to_string(index);
    if (!record.is_object())
        return keyError(path, where, "is not a JSON object", ErrorCode::Format);
    data::LlmRequest r;
    auto prompt = tokenCount(record, "number_input_tokens", where, path);
    auto output = tokenCount(record, "number_output_tokens", where, path);
    if (!prompt || !output)
        return prompt ? output.error() : prompt.error();
    r.promptTokens = *prompt;
    r.outputTokens = *output;
    const auto code = record.find("error_code");
    if (code != record.end() && !code->is_null()) {
        // LLMPerf writes zeros in every latency of a failed request: they are not kept.
        r.ok = false;
        const std::string message = textOr(record, "error_msg");
        r.error = message.empty() ? "error code " + code->dump() : message;
        return r;
    }
    const std::pair<const char*, std::optional<double>*> times[] = {
        {"ttft_s", &r.ttftS},
        {"end_to_end_latency_s", &r.e2eS},
        {"inter_token_latency_s", &r.tpotS}};
    for (const auto& [key, field] : times) {
        const auto it = record.find(key);
        if (it == record.end() || it->is_null())
            continue;
        auto v = statNumber(*it, where + "." + key, path);
        if (!v)
            return v.error();
        *field = *v;
    }
    return r;
}

Expected<data::LlmRun> readIndividual(const json& doc, ReaderContext& context)
{
    data::LlmRun run;
    run.tool = "llmperf";
    run.line = 1;
    std::int64_t failed = 0;
    std::map<std::string, std::int64_t> codes;
    for (std::size_t i = 0; i < doc.size(); ++i) {
        auto request = readRequest(doc[i], i, context.path);
        if (!request)
            return request.error();
        if (!request->ok) {
            ++failed;
            ++codes[doc[i]["error_code"].dump()];
        }
        run.requests.push_back(std::move(*request));
    }
    run.completed = std::int64_t(run.requests.size()) - failed;
    if (failed > 0) {
        std::string list;
        for (const auto& [code, n] : codes)
            list += (list.empty() ? "" : ", ") + code + ": " + std::to_string(n);
        context.warnings.add("failed requests", 0,
                             std::to_string(failed) + " of " + std::to_string(run.requests.size()) +
                                 " requests failed (error codes " + list +
                                 "); their zeros are not latencies and are left out of every "
                                 "statistic");
    }
    return run;
}

bool isIndividual(const json& doc)
{
    return doc.is_array() && !doc.empty() && doc[0].is_object() && doc[0].contains("ttft_s") &&
           doc[0].contains("error_code");
}

bool isSummary(const json& doc)
{
    return doc.is_object() &&
           (doc.contains("results_ttft_s_mean") || doc.contains("results_num_completed_requests"));
}

} // namespace

Expected<data::LlmRunSet> parseLlmPerf(ByteSource& source, ReaderContext& context)
{
    auto doc = readJsonDocument(source, context.path, kMaxResultBytes);
    if (!doc)
        return doc.error();
    Expected<data::LlmRun> run =
        isSummary(*doc) ? readSummary(*doc, context)
        : isIndividual(*doc)
            ? readIndividual(*doc, context)
            : Expected<data::LlmRun>(
                  makeError(ErrorCode::Format, context.path, 0, 0,
                            "not an LLMPerf summary (no \"results_ttft_s_mean\" or "
                            "\"results_num_completed_requests\") or individual-responses "
                            "file (an array of objects with \"ttft_s\" and \"error_code\")"));
    if (!run)
        return run.error();
    data::LlmRunSet set;
    set.runs.push_back(std::move(*run));
    return set;
}

Expected<data::DatasetContent> readLlmPerf(ByteSource& source, ReaderContext& context)
{
    if (auto status = refuseReaderOptions(context, "LLMPerf"); !status)
        return status.error();
    return asDatasetContent(parseLlmPerf(source, context));
}

} // namespace bs::io
