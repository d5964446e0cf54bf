#include "accel/sweepsamples.h"

#include "accel/specjson.h"

#include <cmath>
#include <set>

namespace bs::accel {

namespace {

struct Range
{
    std::size_t first; ///< 0-based, inclusive.
    std::size_t last;  ///< 0-based, inclusive.
};

Error sweepError(const std::string& path, std::string message)
{
    return makeError(ErrorCode::Value, path, 0, 0, std::move(message));
}

std::string rowText(std::size_t index, int batch)
{
    return "sweep row " + std::to_string(index + 1) + " (batch " + std::to_string(batch) + ")";
}

Expected<std::vector<Range>> splitRuns(const data::SweepTable& table, const std::string& path)
{
    if (table.points.empty())
        return sweepError(path, "sweep: no rows; a fit needs measured batch sizes");
    std::vector<Range> runs{{0, 0}};
    const int firstBatch = table.points.front().batchSize;
    for (std::size_t i = 0; i < table.points.size(); ++i) {
        const auto& point = table.points[i];
        if (point.batchSize < 1) {
            return sweepError(path, "sweep row " + std::to_string(i + 1) + ": batch size " +
                                        std::to_string(point.batchSize) + "; must be at least 1");
        }
        if (i > 0) {
            const auto& previous = table.points[i - 1];
            const bool newSeries = point.series != previous.series;
            const bool restart = point.series.empty() && point.batchSize < previous.batchSize &&
                                 point.batchSize == firstBatch;
            if (newSeries || restart) {
                runs.push_back({i, i});
            } else if (point.batchSize < previous.batchSize) {
                return sweepError(
                    path, "sweep row " + std::to_string(i + 1) + ": batch size " +
                              std::to_string(point.batchSize) + " follows " +
                              std::to_string(previous.batchSize) +
                              "; the batch column must increase within a run (a new run starts "
                              "with a new series or a fall back to the first batch size, " +
                              std::to_string(firstBatch) + ")");
            }
        }
        runs.back().last = i;
    }
    return runs;
}

int distinctBatches(const data::SweepTable& table, const Range& range)
{
    std::set<int> sizes;
    for (std::size_t i = range.first; i <= range.last; ++i)
        sizes.insert(table.points[i].batchSize);
    return int(sizes.size());
}

ServiceTimeSource autoSource(const data::SweepTable& table, const Range& range)
{
    std::size_t mean = 0;
    std::size_t throughput = 0;
    std::size_t p50 = 0;
    bool closedLoopOne = true;
    for (std::size_t i = range.first; i <= range.last; ++i) {
        const auto& p = table.points[i];
        mean += p.latencyMeanS ? 1 : 0;
        throughput += p.throughputPerS ? 1 : 0;
        p50 += p.latencyP50S ? 1 : 0;
        closedLoopOne = closedLoopOne && (!p.concurrency || *p.concurrency <= 1.0);
    }
    const std::size_t n = range.last - range.first + 1;
    if (mean == n && closedLoopOne)
        return ServiceTimeSource::MeanLatency;
    if (throughput == n)
        return ServiceTimeSource::Throughput;
    if (mean == n)
        return ServiceTimeSource::MeanLatency;
    if (p50 == n)
        return ServiceTimeSource::P50Latency;
    // None covers every row: take the most complete, so the error names a row that lacks it.
    if (mean >= throughput && mean >= p50)
        return ServiceTimeSource::MeanLatency;
    return throughput >= p50 ? ServiceTimeSource::Throughput : ServiceTimeSource::P50Latency;
}

std::optional<double> serviceOf(const data::SweepPoint& p, ServiceTimeSource source)
{
    switch (source) {
    case ServiceTimeSource::MeanLatency:
        return p.latencyMeanS;
    case ServiceTimeSource::P50Latency:
        return p.latencyP50S;
    case ServiceTimeSource::Throughput:
        if (!p.throughputPerS)
            return std::nullopt;
        return double(p.batchSize) / *p.throughputPerS;
    case ServiceTimeSource::Auto:
        break;
    }
    return std::nullopt;
}

const char* measureName(ServiceTimeSource source)
{
    switch (source) {
    case ServiceTimeSource::MeanLatency:
        return "mean latency";
    case ServiceTimeSource::P50Latency:
        return "p50 latency";
    case ServiceTimeSource::Throughput:
        return "throughput";
    case ServiceTimeSource::Auto:
        break;
    }
    return "service time";
}

bool finitePositive(double v)
{
    return std::isfinite(v) && v > 0.0;
}

Expected<ServiceSample> sampleOf(const data::SweepPoint& p, std::size_t index,
                                 ServiceTimeSource source, const std::string& path)
{
    ServiceSample s;
    s.row = index + 1;
    s.batch = p.batchSize;
    const auto service = serviceOf(p, source);
    if (!service)
        return sweepError(path, rowText(index, p.batchSize) + ": no " + measureName(source));
    const double raw = source == ServiceTimeSource::Throughput ? *p.throughputPerS : *service;
    if (!finitePositive(raw) || !finitePositive(*service)) {
        return sweepError(path, rowText(index, p.batchSize) + ": " + measureName(source) +
                                    " must be a finite positive number (got " + formatNumber(raw) +
                                    ")");
    }
    s.serviceS = *service;
    if (p.powerW)
        s.powerW = *p.powerW;
    else if (p.energyPerInferenceJ)
        s.powerW = *p.energyPerInferenceJ * p.batchSize / s.serviceS;
    if (s.powerW && !finitePositive(*s.powerW)) {
        return sweepError(path, rowText(index, p.batchSize) +
                                    ": power must be a finite positive number (got " +
                                    formatNumber(*s.powerW) + ")");
    }
    return s;
}

} // namespace

const char* serviceTimeSourceName(ServiceTimeSource source)
{
    switch (source) {
    case ServiceTimeSource::Auto:
        return "auto";
    case ServiceTimeSource::MeanLatency:
        return "mean_latency";
    case ServiceTimeSource::P50Latency:
        return "p50_latency";
    case ServiceTimeSource::Throughput:
        return "throughput";
    }
    return "auto";
}

Expected<SampleSelection> selectSamples(const data::SweepTable& table, ServiceTimeSource source,
                                        int run, int minDistinctBatches, const std::string& path)
{
    auto runs = splitRuns(table, path);
    if (!runs)
        return runs.error();
    SampleSelection out;
    out.runCount = int(runs->size());
    if (run < 0 || run > out.runCount) {
        return makeError(ErrorCode::Usage, path, 0, 0,
                         "sweep: run " + std::to_string(run) + " requested but the table has " +
                             std::to_string(out.runCount) + " run(s)");
    }
    out.run = run;
    if (run == 0) {
        out.run = 1;
        for (int r = 1; r <= out.runCount; ++r) {
            if (distinctBatches(table, (*runs)[r - 1]) >
                distinctBatches(table, (*runs)[out.run - 1]))
                out.run = r;
        }
    }
    const Range range = (*runs)[out.run - 1];
    out.series = table.points[range.first].series;
    out.firstRow = range.first + 1;
    out.lastRow = range.last + 1;
    out.distinctBatches = distinctBatches(table, range);
    if (out.distinctBatches < minDistinctBatches) {
        const std::size_t n = range.last - range.first + 1;
        const std::string which = out.runCount > 1 ? "sweep run " + std::to_string(out.run) +
                                                         " of " + std::to_string(out.runCount)
                                                   : std::string("sweep");
        return sweepError(path, which + ": " + std::to_string(n) + " point" + (n == 1 ? "" : "s") +
                                    " at " + std::to_string(out.distinctBatches) + " batch size" +
                                    (out.distinctBatches == 1 ? "" : "s") +
                                    "; a fit needs at least " + std::to_string(minDistinctBatches) +
                                    " different batch sizes");
    }
    out.source = source == ServiceTimeSource::Auto ? autoSource(table, range) : source;
    out.hasPower = true;
    for (std::size_t i = range.first; i <= range.last; ++i) {
        auto sample = sampleOf(table.points[i], i, out.source, path);
        if (!sample)
            return sample.error();
        out.hasPower = out.hasPower && sample->powerW.has_value();
        out.samples.push_back(*sample);
    }
    return out;
}

} // namespace bs::accel
