#include "io/splreader.h"

#include "io/csvsplitter.h"
#include "io/datetime.h"
#include "io/linereader.h"
#include "io/numbercell.h"

#include <algorithm>
#include <filesystem>

namespace bs::io {

namespace {

/// Channels after the total: the number of "ChN" groups on a line.
int channelGroups(const CsvSplitter& split)
{
    int groups = 0;
    for (std::size_t i = 12; i < split.size(); ++i) {
        if (split[i].size() >= 3 && split[i].substr(0, 2) == "Ch")
            ++groups;
    }
    return groups;
}

Status checkLayout(const CsvSplitter& split, const LineReader& lines)
{
    if (split.size() < 4 || split[0] != "Time" || split[2] != "Watts") {
        return lines.errorAt(1, ErrorCode::Format,
                             "not an MLPerf power log line: expected \"Time,<date>,Watts,"
                             "<watts>,...\"");
    }
    return {};
}

/// Median spacing of the readings: what one reading averages over on a PTDaemon meter. Taken
/// over the times in order, so a clock that stepped back cannot make it negative.
double medianInterval(std::vector<double> times)
{
    if (times.size() < 2)
        return 0.0;
    std::sort(times.begin(), times.end());
    std::vector<double> gaps;
    gaps.reserve(times.size() - 1);
    for (std::size_t i = 1; i < times.size(); ++i)
        gaps.push_back(times[i] - times[i - 1]);
    std::nth_element(gaps.begin(), gaps.begin() + std::ptrdiff_t(gaps.size() / 2), gaps.end());
    return gaps[gaps.size() / 2];
}

} // namespace

Expected<data::PowerSeries> parseSpl(ByteSource& source, ReaderContext& context)
{
    data::PowerSeries series;
    LineReader lines(source, context.progress, context.cancel);
    CsvSplitter split;
    std::string_view line;
    int channels = 0;
    std::vector<double> readingTimes; ///< Every reading's time, with a value or not.
    for (;;) {
        auto more = lines.next(line);
        if (!more)
            return more.error();
        if (!*more)
            break;
        if (trimmed(line).empty())
            continue;
        if (auto status = split.split(line); !status)
            return lines.errorAt(status.error().column, ErrorCode::Format, status.error().message);
        if (auto status = checkLayout(split, lines); !status)
            return status.error();
        const auto time = parseDateTime(split[1]);
        if (!time) {
            return lines.errorAt(split.column(1), ErrorCode::Format,
                                 "\"" + std::string(split[1]) +
                                     "\" is not a date and time (MM-DD-YYYY HH:MM:SS.mmm)");
        }
        if (!readingTimes.empty() && time->toSeconds() < readingTimes.back()) {
            context.warnings.add("unsorted", lines.lineNumber(),
                                 "this reading's time is before the one on the line above (did "
                                 "the clock step back?); kept in file order");
        }
        readingTimes.push_back(time->toSeconds());
        // PTDaemon writes -1 where it has no value; a total of -1 means the meter gave no
        // reading for this second (seen in ranging runs): skip it, do not average it in.
        if (parseNumber(split[3]) == -1.0) {
            context.warnings.add("no-reading", lines.lineNumber(),
                                 "the meter reports no total power (Watts -1); the reading is left "
                                 "out");
            continue;
        }
        auto watts =
            numberCell(split[3], {context.path, lines.lineNumber(), split.column(3), "Watts"});
        if (!watts)
            return watts.error();
        if (series.timeS.empty()) {
            channels = channelGroups(split);
            if (split.size() > 11)
                series.tags.extra["mark"] = std::string(split[11]);
        }
        series.timeS.push_back(time->toSeconds());
        series.powerW.push_back(*watts);
    }
    if (lines.lineNumber() == 0)
        return makeError(ErrorCode::Format, context.path, 0, 0, "the file is empty");
    if (series.timeS.empty())
        return makeError(ErrorCode::Format, context.path, 0, 0, "the file holds no readings");
    warnIfCutShort(lines, context.warnings);
    series.readingWindowS = medianInterval(readingTimes);
    series.tags.extra["meter_channels"] = std::to_string(std::max(channels, 1));
    series.channelNames = {channels > 0 ? "total of " + std::to_string(channels) + " channels"
                                        : "meter"};
    return series;
}

Expected<data::DatasetContent> readMlperfSpl(ByteSource& source, ReaderContext& context)
{
    if (auto status = refuseReaderOptions(context, "spl.txt"); !status)
        return status.error();
    auto series = parseSpl(source, context);
    if (!series)
        return series.error();
    series->name = std::filesystem::path(context.path).filename().string();
    return data::DatasetContent(std::make_shared<const data::PowerSeries>(std::move(*series)));
}

} // namespace bs::io
