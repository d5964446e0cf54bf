#include "io/csvrecordreader.h"
#include "io/datetime.h"
#include "io/jsonfields.h"
#include "io/powerlogreader.h"

#include <filesystem>
#include <map>

namespace bs::io {

namespace {

/// The query field of a header ("power.draw [W]" -> "power.draw").
std::string_view queryName(std::string_view header)
{
    const auto bracket = header.find(" [");
    return bracket == std::string_view::npos ? header : header.substr(0, bracket);
}

int findQuery(const CsvRecordReader& csv, std::initializer_list<std::string_view> names)
{
    for (auto name : names) {
        for (std::size_t i = 0; i < csv.headers().size(); ++i) {
            if (queryName(csv.headers()[i]) == name)
                return int(i);
        }
    }
    return -1;
}

bool notAvailable(std::string_view cell)
{
    cell = trimmed(cell);
    return cell.empty() || cell.front() == '[' || cell == "N/A";
}

/// "24.38 W" -> "24.38" (nvidia-smi writes units inside values unless ",nounits").
std::string_view withoutUnit(std::string_view cell)
{
    cell = trimmed(cell);
    const auto space = cell.find(' ');
    return space == std::string_view::npos ? cell : cell.substr(0, space);
}

struct OptionalColumn
{
    int index;
    std::vector<double>* values;
    const char* name;
    bool dropped = false;
};

class SmiParser
{
public:
    SmiParser(ByteSource& source, ReaderContext& context)
        : m_context(context)
        , m_csv(source, context)
    {}
    Expected<data::PowerSeries> parse();

private:
    Status start();
    Status row();
    Status optionalColumns();

    ReaderContext& m_context;
    CsvRecordReader m_csv;
    data::PowerSeries m_series;
    int m_time = -1, m_power = -1, m_index = -1;
    std::vector<OptionalColumn> m_optional;
    std::map<std::string, int> m_channels;
    double m_offsetS = 0.0;
};

Status SmiParser::start()
{
    JsonFields fields(m_context.options, "reader_options", m_context.path);
    m_offsetS = fields.numberOr("utc_offset_s", 0.0, NumberRule::range(-86400.0, 86400.0));
    if (auto status = fields.finish(); !status)
        return status;
    if (auto status = m_csv.readHeader(); !status)
        return status;
    m_time = findQuery(m_csv, {"timestamp"});
    m_power = findQuery(m_csv, {"power.draw.average", "power.draw", "power.draw.instant"});
    m_index = findQuery(m_csv, {"index"});
    if (m_time < 0 || m_power < 0) {
        return makeError(ErrorCode::Format, m_context.path, 1, 0,
                         std::string("not an nvidia-smi power log: the header has no \"") +
                             (m_time < 0 ? "timestamp" : "power.draw") + "\" field");
    }
    m_optional = {
        {findQuery(m_csv, {"clocks.current.sm", "clocks.sm"}), &m_series.smClockMHz, "clocks.sm"},
        {findQuery(m_csv, {"clocks.current.memory", "clocks.mem"}), &m_series.memClockMHz,
         "clocks.mem"},
        {findQuery(m_csv, {"temperature.gpu"}), &m_series.temperatureC, "temperature.gpu"},
        {findQuery(m_csv, {"utilization.gpu"}), &m_series.utilizationPct, "utilization.gpu"}};
    if (auto status =
            m_csv.requireUnique({m_time, m_power, m_index, m_optional[0].index, m_optional[1].index,
                                 m_optional[2].index, m_optional[3].index},
                                &queryName);
        !status)
        return status;
    const std::string powerQuery(queryName(m_csv.headers()[std::size_t(m_power)]));
    m_series.readingWindowS = powerQuery == "power.draw.instant" ? 0.0 : 1.0;
    m_series.tags.extra["power_query"] = powerQuery;
    return {};
}

Status SmiParser::optionalColumns()
{
    for (auto& column : m_optional) {
        if (column.index < 0 || column.dropped)
            continue;
        const std::string_view cell = m_csv[column.index];
        if (notAvailable(cell)) {
            m_context.warnings.add(std::string("na-") + column.name, m_csv.line(),
                                   std::string(column.name) + " is \"" +
                                       std::string(trimmed(cell)) + "\"; that column is left out");
            column.dropped = true;
            column.values->clear();
            continue;
        }
        auto value = numberCell(withoutUnit(cell), m_csv.place(column.index),
                                column.values == &m_series.temperatureC ? CellRule::Any
                                                                        : CellRule::NonNegative);
        if (!value)
            return value.error();
        if (column.values == &m_series.utilizationPct && *value > 100.0) {
            return m_csv.errorAt(column.index, ErrorCode::Value,
                                 "column \"" + m_csv.headers()[std::size_t(column.index)] +
                                     "\" holds " + formatNumber(*value) +
                                     "; a utilisation above 100% is not valid");
        }
        column.values->push_back(*value);
    }
    return {};
}

Status SmiParser::row()
{
    if (notAvailable(m_csv[m_power])) {
        m_context.warnings.add("na-power", m_csv.line(),
                               "power.draw is \"" + std::string(trimmed(m_csv[m_power])) +
                                   "\"; the sample is left out");
        return {};
    }
    const auto time = parseDateTime(m_csv[m_time]);
    if (!time) {
        return m_csv.errorAt(m_time, ErrorCode::Format,
                             "column \"" + m_csv.headers()[std::size_t(m_time)] + "\" holds \"" +
                                 std::string(trimmed(m_csv[m_time])) +
                                 "\", which is not a date and time (YYYY/MM/DD HH:MM:SS.mmm)");
    }
    auto power = numberCell(withoutUnit(m_csv[m_power]), m_csv.place(m_power));
    if (!power)
        return power.error();
    if (auto status = optionalColumns(); !status)
        return status;
    m_series.timeS.push_back(time->toSeconds() - m_offsetS);
    m_series.powerW.push_back(*power);
    if (m_index >= 0) {
        const std::string device(trimmed(m_csv[m_index]));
        const auto [it, added] = m_channels.try_emplace(device, int(m_channels.size()));
        if (added)
            m_series.channelNames.push_back("GPU " + device);
        m_series.channel.push_back(it->second);
    }
    return {};
}

Expected<data::PowerSeries> SmiParser::parse()
{
    if (auto status = start(); !status)
        return status.error();
    for (;;) {
        auto more = m_csv.next();
        if (!more)
            return more.error();
        if (!*more)
            break;
        if (auto status = row(); !status)
            return status.error();
    }
    if (m_series.timeS.empty())
        return makeError(ErrorCode::Format, m_context.path, 0, 0,
                         "the file has a header but no power samples");
    m_csv.warnIfCutShort();
    return std::move(m_series);
}

} // namespace

Expected<data::DatasetContent> readNvidiaSmi(ByteSource& source, ReaderContext& context)
{
    SmiParser parser(source, context);
    auto series = parser.parse();
    if (!series)
        return series.error();
    series->name = std::filesystem::path(context.path).filename().string();
    return data::DatasetContent(std::make_shared<const data::PowerSeries>(std::move(*series)));
}

} // namespace bs::io
