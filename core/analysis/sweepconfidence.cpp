#include "analysis/sweepconfidence.h"

#include "analysis/orderstatistics.h"

#include <optional>
#include <utility>

namespace bs::analysis {

SweepConfidence sweepConfidence(const data::SweepTable& table)
{
    SweepConfidence out;
    out.name = table.name;
    out.points = table.points.size();
    out.rule = "a percentile p from n samples is claimed only when n >= ln(0.01)/ln(p) (MLPerf "
               "LoadGen's early-stopping floor at 99% confidence: p50 7, p90 44, p95 90, p99 "
               "459, p99.9 4603); its 95% interval is the exact order-statistic interval";
    for (std::size_t i = 0; i < table.points.size(); ++i) {
        const auto& p = table.points[i];
        SweepPointConfidence row;
        row.row = i;
        row.batchSize = p.batchSize;
        row.series = p.series;
        row.sampleCountKnown = p.sampleCount.has_value();
        row.sampleCount = p.sampleCount.value_or(0);
        if (!row.sampleCountKnown) {
            out.rows.push_back(std::move(row));
            continue;
        }
        ++out.pointsWithCounts;
        const std::pair<double, std::optional<double>> reported[] = {{0.50, p.latencyP50S},
                                                                     {0.90, p.latencyP90S},
                                                                     {0.95, p.latencyP95S},
                                                                     {0.99, p.latencyP99S},
                                                                     {0.999, p.latencyP999S}};
        for (const auto& [probability, value] : reported) {
            if (!value)
                continue;
            SweepPercentileCheck c;
            c.probability = probability;
            c.valueS = *value;
            c.minimumSamples = minimumSamplesForPercentile(probability);
            c.sufficient = row.sampleCount >= c.minimumSamples;
            const auto interval = orderStatisticInterval(row.sampleCount, probability);
            c.lowerRank = interval.lowerRank;
            c.upperRank = interval.upperRank;
            out.insufficientClaims += c.sufficient ? 0 : 1;
            row.checks.push_back(c);
        }
        out.rows.push_back(std::move(row));
    }
    return out;
}

} // namespace bs::analysis
