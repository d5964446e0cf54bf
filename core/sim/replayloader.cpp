#include "sim/replayloader.h"

#include "data/dataset.h"
#include "io/readdataset.h"
#include "util/numbertext.h"

#include <cmath>
#include <filesystem>

namespace bs::sim {

namespace {

std::string number(double v)
{
    return significant(v, 6);
}

std::string resolve(const std::string& file, const std::string& baseDirectory)
{
    const std::filesystem::path path(file);
    if (path.is_absolute() || baseDirectory.empty())
        return file;
    return (std::filesystem::path(baseDirectory) / path).lexically_normal().string();
}

Expected<std::vector<double>> readTraceTimes(const ArrivalSpec& spec, const std::string& where,
                                             const std::string& path, Progress& progress,
                                             const CancelToken& cancel)
{
    auto dataset = io::readDataset(path, io::ReadOptions{}, progress, cancel);
    if (!dataset) {
        Error error = dataset.error();
        if (error.path.empty())
            error.path = path;
        error.message = where + ".file: " + error.message;
        return error;
    }
    const auto trace = dataset->requestTrace();
    if (!trace)
        return makeError(ErrorCode::Value, path, 0, 0,
                         where + ".file: the file holds a " + data::datasetKindName(dataset->kind) +
                             " (read as " + dataset->provenance.reader + "), not a request trace");
    if (spec.column == "intended") {
        if (trace->intendedS.empty())
            return makeError(ErrorCode::Value, path, 0, 0,
                             where + ".column: the trace has no intended send times; use "
                                     "\"arrival\"");
        return trace->intendedS;
    }
    return trace->arrivalS;
}

} // namespace

Expected<std::shared_ptr<const ReplayTimes>> replayFromTimes(std::vector<double> timesS,
                                                             const ArrivalSpec& spec,
                                                             const std::string& origin,
                                                             const std::string& path)
{
    const std::size_t n = timesS.size();
    if (n < 2)
        return makeError(ErrorCode::Value, path, 0, 0,
                         origin + ": a replay needs at least 2 timestamps (got " +
                             std::to_string(n) + ")");
    for (std::size_t i = 0; i < n; ++i) {
        if (!std::isfinite(timesS[i]))
            return makeError(ErrorCode::Value, path, 0, 0,
                             origin + ": timestamp of request " + std::to_string(i + 1) +
                                 " is not a finite number");
        if (i > 0 && timesS[i] < timesS[i - 1])
            return makeError(ErrorCode::Value, path, 0, 0,
                             origin + ": timestamps must not decrease: request " +
                                 std::to_string(i + 1) + " arrives at " + number(timesS[i]) +
                                 " s, before request " + std::to_string(i) + " (" +
                                 number(timesS[i - 1]) + " s); sort the trace first");
    }
    const double first = timesS.front();
    const double span = timesS.back() - first;
    if (!(span > 0.0))
        return makeError(ErrorCode::Value, path, 0, 0,
                         origin + ": all " + std::to_string(n) +
                             " timestamps are equal; a replay needs them to span some time");
    auto replay = std::make_shared<ReplayTimes>();
    // One mean gap between the last request of a copy and the first of the next keeps the
    // looped trace at its recorded mean rate n / period.
    replay->periodS = span * double(n) / double(n - 1);
    double scale = 1.0;
    if (spec.ratePerS > 0.0)
        scale = (double(n) / replay->periodS) / spec.ratePerS;
    replay->timesS.reserve(n);
    for (double t : timesS)
        replay->timesS.push_back((t - first) * scale);
    replay->periodS *= scale;
    replay->loop = spec.loop;
    return std::shared_ptr<const ReplayTimes>(std::move(replay));
}

Expected<std::shared_ptr<const ReplayTimes>>
prepareReplay(const ArrivalSpec& spec, const std::string& where, const std::string& baseDirectory,
              Progress& progress, const CancelToken& cancel)
{
    if (spec.file.empty())
        return replayFromTimes(spec.timesS, spec, where + ".times_s", {});
    const std::string path = resolve(spec.file, baseDirectory);
    auto times = readTraceTimes(spec, where, path, progress, cancel);
    if (!times)
        return times.error();
    return replayFromTimes(std::move(*times), spec, where + ".file", path);
}

} // namespace bs::sim
