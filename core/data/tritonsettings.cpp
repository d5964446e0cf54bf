#include "data/tritonsettings.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace bs::data {

namespace {

std::string key(const std::string& series, const char* field)
{
    return "triton." + series + "." + field;
}

const std::string* find(const SweepTable& table, const std::string& series, const char* field)
{
    const auto it = table.metadata.find(key(series, field));
    return it == table.metadata.end() ? nullptr : &it->second;
}

/// A whole number written by recordTritonSettings; empty when the text is not one (a project
/// edited by hand), so the caller falls back to the user's settings instead of a wrong one.
std::optional<int> wholeNumber(const std::string& text)
{
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < 0)
        return std::nullopt;
    return value;
}

std::string joined(const std::vector<int>& values)
{
    std::string out;
    for (int v : values)
        out += (out.empty() ? "" : ",") + std::to_string(v);
    return out;
}

std::optional<std::vector<int>> split(const std::string& text)
{
    std::vector<int> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const auto value = wholeNumber(text.substr(start, comma - start));
        if (!value)
            return std::nullopt;
        out.push_back(*value);
        start = comma + 1;
    }
    return out;
}

} // namespace

void recordTritonSettings(SweepTable& table, const std::string& series,
                          const TritonModelSettings& settings)
{
    table.metadata[key(series, "instances")] = std::to_string(settings.instances);
    table.metadata[key(series, "dynamic_batching_max_batch_items")] =
        std::to_string(settings.maxBatchItems);
    table.metadata[key(series, "preferred_batch_items")] = joined(settings.preferredBatchItems);
    table.metadata[key(series, "max_queue_delay_us")] =
        std::to_string(std::llround(settings.maxQueueDelayS * 1e6));
}

std::optional<TritonModelSettings> tritonSettingsOf(const SweepTable& table,
                                                    const std::string& series)
{
    const auto* instances = find(table, series, "instances");
    const auto* maxBatch = find(table, series, "dynamic_batching_max_batch_items");
    const auto* preferred = find(table, series, "preferred_batch_items");
    const auto* delayUs = find(table, series, "max_queue_delay_us");
    if (!instances || !maxBatch || !preferred || !delayUs)
        return std::nullopt;
    const auto instanceCount = wholeNumber(*instances);
    const auto maxBatchItems = wholeNumber(*maxBatch);
    const auto preferredItems = split(*preferred);
    const auto delay = wholeNumber(*delayUs);
    if (!instanceCount || *instanceCount < 1 || !maxBatchItems || !preferredItems || !delay)
        return std::nullopt;
    return TritonModelSettings{*instanceCount, *maxBatchItems, *preferredItems, *delay / 1e6};
}

void recordRequestDistribution(SweepTable& table, const std::string& series,
                               RequestDistribution distribution)
{
    table.metadata[key(series, "request_distribution")] =
        distribution == RequestDistribution::Poisson ? "poisson" : "constant";
}

RequestDistribution requestDistributionOf(const SweepTable& table, const std::string& series)
{
    const auto* text = find(table, series, "request_distribution");
    return text && *text == "poisson" ? RequestDistribution::Poisson
                                      : RequestDistribution::Constant;
}

} // namespace bs::data
