#include "io/llmengineseries.h"

#include "io/csvrecordreader.h"

#include <cmath>
#include <limits>

namespace bs::io {

namespace {

struct Columns
{
    int time, prompt, output, running, waiting, kvCache;
};

Expected<Columns> findColumns(const CsvRecordReader& csv)
{
    const auto& names = llmEngineSeriesColumns();
    int found[6];
    for (std::size_t i = 0; i < names.size(); ++i) {
        found[i] = csv.index(names[i]);
        if (found[i] < 0)
            return makeError(ErrorCode::Format, csv.path(), 1, 0,
                             "no \"" + names[i] +
                                 "\" column; an engine series has the columns t, "
                                 "prompt_throughput, gen_throughput, running, waiting, "
                                 "kv_cache_pct");
    }
    return Columns{found[0], found[1], found[2], found[3], found[4], found[5]};
}

/// A request count: a whole non-negative number that fits.
Expected<std::int32_t> countCell(const CsvRecordReader& csv, int column)
{
    auto value = integerCell(csv[column], csv.place(column));
    if (!value)
        return value.error();
    if (*value > std::numeric_limits<std::int32_t>::max())
        return csv.errorAt(column, ErrorCode::Value,
                           "\"" + std::string(csv[column]) + "\" is not a request count");
    return std::int32_t(*value);
}

Expected<data::LlmEngineSample> readRow(const CsvRecordReader& csv, const Columns& c)
{
    data::LlmEngineSample s;
    for (const auto& [column, field] :
         {std::pair{c.time, &s.timeS}, std::pair{c.prompt, &s.promptTokensPerS},
          std::pair{c.output, &s.outputTokensPerS}, std::pair{c.kvCache, &s.kvCacheUsePct}}) {
        auto value = csv.number(column);
        if (!value)
            return value.error();
        *field = *value;
    }
    for (const auto& [column, field] :
         {std::pair{c.running, &s.running}, std::pair{c.waiting, &s.waiting}}) {
        auto value = countCell(csv, column);
        if (!value)
            return value.error();
        *field = *value;
    }
    return s;
}

} // namespace

const std::vector<std::string>& llmEngineSeriesColumns()
{
    static const std::vector<std::string> names = {"t",       "prompt_throughput", "gen_throughput",
                                                   "running", "waiting",           "kv_cache_pct"};
    return names;
}

Expected<std::vector<data::LlmEngineSample>> parseLlmEngineSeries(ByteSource& source,
                                                                  ReaderContext& context)
{
    CsvRecordReader csv(source, context);
    if (auto status = csv.readHeader(); !status)
        return status.error();
    auto columns = findColumns(csv);
    if (!columns)
        return columns.error();
    std::vector<data::LlmEngineSample> samples;
    for (;;) {
        auto more = csv.next();
        if (!more)
            return more.error();
        if (!*more)
            break;
        auto sample = readRow(csv, *columns);
        if (!sample)
            return sample.error();
        // A time going back would make every time-weighted mean silently wrong.
        if (!samples.empty() && sample->timeS <= samples.back().timeS)
            return csv.errorAt(columns->time, ErrorCode::Value,
                               "t goes back or repeats (" + std::string(csv[columns->time]) +
                                   " s after " + formatNumber(samples.back().timeS) +
                                   " s); the samples must be in time order");
        samples.push_back(*sample);
    }
    csv.warnIfCutShort();
    if (samples.empty())
        return makeError(ErrorCode::Format, context.path, 0, 0,
                         "the engine series has a header but no samples");
    return samples;
}

Expected<data::DatasetContent> readLlmEngineSeries(ByteSource& source, ReaderContext& context)
{
    if (auto status = refuseReaderOptions(context, "engine series"); !status)
        return status.error();
    auto samples = parseLlmEngineSeries(source, context);
    if (!samples)
        return samples.error();
    data::LlmRunSet set;
    data::LlmRun run;
    run.tool = "vllm_engine_stats";
    run.line = 1;
    run.engineSeries = std::move(*samples);
    set.runs.push_back(std::move(run));
    return asDatasetContent(Expected<data::LlmRunSet>(std::move(set)));
}

} // namespace bs::io
