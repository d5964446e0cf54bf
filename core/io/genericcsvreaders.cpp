// The generic sweep and power CSV readers: a column mapping decides what each column is.
#include "io/mappedcsvreader.h"
#include "io/powerlogreader.h"

#include <filesystem>
#include <map>

namespace bs::io {

namespace {

std::string fileName(const ReaderContext& context)
{
    return std::filesystem::path(context.path).filename().string();
}

Status sweepRow(const MappedCsvReader& csv, data::SweepTable& table)
{
    data::SweepPoint point;
    auto batch = csv.integer(*csv.column("batch_size"), CellRule::Positive);
    if (!batch)
        return batch.error();
    point.batchSize = int(*batch);
    const std::pair<const char*, std::optional<double>*> fields[] = {
        {"concurrency", &point.concurrency},
        {"request_rate", &point.requestRatePerS},
        {"throughput", &point.throughputPerS},
        {"latency_mean", &point.latencyMeanS},
        {"latency_p50", &point.latencyP50S},
        {"latency_p90", &point.latencyP90S},
        {"latency_p95", &point.latencyP95S},
        {"latency_p99", &point.latencyP99S},
        {"latency_p999", &point.latencyP999S},
        {"power", &point.powerW},
        {"energy_per_inference", &point.energyPerInferenceJ},
        {"utilization", &point.utilization},
        {"memory", &point.memoryBytes}};
    for (const auto& [field, target] : fields) {
        if (const BoundColumn* column = csv.column(field)) {
            auto value = csv.number(*column);
            if (!value)
                return value.error();
            if (std::string_view(field) == "utilization" && *value > 1.0) {
                return csv.errorAt(*column, ErrorCode::Value,
                                   "column \"" + column->header +
                                       "\" holds a utilisation above 100%; check its unit");
            }
            *target = *value;
        }
    }
    if (const BoundColumn* column = csv.column("sample_count")) {
        auto count = csv.integer(*column);
        if (!count)
            return count.error();
        point.sampleCount = std::uint64_t(*count);
    }
    if (const BoundColumn* column = csv.column("series"))
        point.series = std::string(csv.text(*column));
    table.points.push_back(std::move(point));
    return {};
}

class PowerRows
{
public:
    explicit PowerRows(const MappedCsvReader& csv)
        : m_csv(csv)
    {}
    Status add(data::PowerSeries& series);

private:
    const MappedCsvReader& m_csv;
    std::map<std::string, int> m_channels;
};

Status PowerRows::add(data::PowerSeries& series)
{
    auto time = m_csv.time(*m_csv.column("time"));
    if (!time)
        return time.error();
    auto power = m_csv.number(*m_csv.column("power"));
    if (!power)
        return power.error();
    series.timeS.push_back(time->toSeconds());
    series.powerW.push_back(*power);
    const std::pair<const char*, std::vector<double>*> optional[] = {
        {"sm_clock", &series.smClockMHz},
        {"mem_clock", &series.memClockMHz},
        {"temperature", &series.temperatureC},
        {"utilization", &series.utilizationPct}};
    for (const auto& [field, values] : optional) {
        const BoundColumn* column = m_csv.column(field);
        if (!column)
            continue;
        const bool temperature = values == &series.temperatureC;
        auto value = m_csv.number(*column, temperature ? CellRule::Any : CellRule::NonNegative);
        if (!value)
            return value.error();
        if (values == &series.utilizationPct && *value > 1.0) {
            return m_csv.errorAt(*column, ErrorCode::Value,
                                 "column \"" + column->header +
                                     "\" holds a utilisation above 100%; check its unit");
        }
        // Utilisation is kept in percent in a PowerSeries; the mapping converted to a fraction.
        values->push_back(values == &series.utilizationPct ? *value * 100.0 : *value);
    }
    if (const BoundColumn* column = m_csv.column("channel")) {
        const std::string name(m_csv.text(*column));
        const auto [it, added] = m_channels.try_emplace(name, int(m_channels.size()));
        if (added)
            series.channelNames.push_back(name);
        series.channel.push_back(it->second);
    }
    return {};
}

/// Tells the unit cross-check which column each latency came from and whose word its unit is.
void recordLatencyColumns(const MappedCsvReader& csv, ReaderContext& context)
{
    for (const auto& field : mappingFields(MappingTarget::Sweep)) {
        const BoundColumn* column = csv.column(field.key);
        if (column && field.dimension == FieldDimension::Time)
            context.latencyColumns.push_back(
                {field.key, column->header, column->unit, !column->unitStated});
    }
}

} // namespace

Expected<data::DatasetContent> readSweepCsv(ByteSource& source, ReaderContext& context)
{
    MappedCsvReader csv(source, context, MappingTarget::Sweep);
    if (auto status = csv.start(); !status)
        return status.error();
    recordLatencyColumns(csv, context);
    data::SweepTable table;
    for (;;) {
        auto more = csv.next();
        if (!more)
            return more.error();
        if (!*more)
            break;
        if (auto status = sweepRow(csv, table); !status)
            return status.error();
    }
    if (table.points.empty())
        return makeError(ErrorCode::Format, context.path, 0, 0,
                         "the file has a header but no rows");
    csv.warnIfCutShort();
    table.loadAxis = csv.column("concurrency")    ? data::LoadAxis::Concurrency
                     : csv.column("request_rate") ? data::LoadAxis::RequestRate
                                                  : data::LoadAxis::None;
    table.name = fileName(context);
    return data::DatasetContent(std::make_shared<const data::SweepTable>(std::move(table)));
}

Expected<data::DatasetContent> readPowerCsv(ByteSource& source, ReaderContext& context)
{
    MappedCsvReader csv(source, context, MappingTarget::PowerSeries);
    if (auto status = csv.start(); !status)
        return status.error();
    data::PowerSeries series;
    PowerRows rows(csv);
    for (;;) {
        auto more = csv.next();
        if (!more)
            return more.error();
        if (!*more)
            break;
        if (auto status = rows.add(series); !status)
            return status.error();
    }
    if (series.timeS.empty())
        return makeError(ErrorCode::Format, context.path, 0, 0,
                         "the file has a header but no samples");
    csv.warnIfCutShort();
    series.name = fileName(context);
    return data::DatasetContent(std::make_shared<const data::PowerSeries>(std::move(series)));
}

} // namespace bs::io
