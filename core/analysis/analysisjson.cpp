#include "analysis/analysisjson.h"

#include <cmath>

namespace bs::analysis {

using nlohmann::json;

json number(double v)
{
    return std::isfinite(v) ? json(v) : json(nullptr);
}

json numbers(const std::vector<double>& values, double scale)
{
    json out = json::array();
    for (double v : values)
        out.push_back(number(v * scale));
    return out;
}

namespace {

json percentileRows(const std::vector<WindowPercentiles>& rows, const std::string& unit,
                    double scale)
{
    json out = json::array();
    for (const auto& w : rows) {
        out.push_back({{"p", w.probability},
                       {"value_" + unit, numbers(w.value, scale)},
                       {"ci_low_" + unit, numbers(w.ciLow, scale)},
                       {"ci_high_" + unit, numbers(w.ciHigh, scale)},
                       {"sufficient", w.sufficient}});
    }
    return out;
}

json timeSeriesJson(const RequestTimeSeries& t)
{
    return {{"window_s", t.windowS},
            {"start_s", t.startS},
            {"arrivals", t.arrivals},
            {"completions", t.completions},
            {"throughput_per_s", numbers(t.throughputPerS)},
            {"latency", percentileRows(t.latency, "ms", 1e3)},
            {"queue_wait", percentileRows(t.queueWait, "ms", 1e3)}};
}

json tailJson(const TailDecomposition& t)
{
    json components = json::array();
    for (const auto& c : t.components) {
        components.push_back({{"name", c.name},
                              {"median_mean_ms", number(c.medianMeanS * 1e3)},
                              {"tail_mean_ms", number(c.tailMeanS * 1e3)},
                              {"excess_ms", number(c.excessS * 1e3)},
                              {"share", number(c.share)},
                              {"ci95_ms", {number(c.ciLowS * 1e3), number(c.ciHighS * 1e3)}}});
    }
    return {{"available", t.available},
            {"reason", t.reason},
            {"p50_ms", number(t.p50S * 1e3)},
            {"p99_ms", number(t.p99S * 1e3)},
            {"tail_requests", t.tailCount},
            {"median_band_requests", t.medianCount},
            {"excess_ms", number(t.excessS * 1e3)},
            {"components", components},
            {"method", t.method}};
}

json batchesJson(const BatchStatistics& b)
{
    return {{"available", b.available},
            {"source", b.source},
            {"reason", b.reason},
            {"batches", b.batches},
            {"mean_size", number(b.meanSize)},
            {"mean_size_seen_by_request", number(b.meanSizeSeenByRequest)},
            {"batches_by_size", b.batchesBySize},
            {"formation", toJson(b.formationS, "ms", 1e3)},
            {"oldest_wait", toJson(b.oldestWaitS, "ms", 1e3)}};
}

json streamsJson(const std::vector<StreamStatistics>& streams, const Fairness& f)
{
    json rows = json::array();
    for (const auto& s : streams) {
        rows.push_back({{"name", s.name},
                        {"requests", s.requests},
                        {"throughput_per_s", number(s.throughputPerS)},
                        {"mean_ms", number(s.meanS * 1e3)},
                        {"p50", toJson(s.p50, "ms", 1e3)},
                        {"p99", toJson(s.p99, "ms", 1e3)}});
    }
    return {{"streams", rows},
            {"fairness",
             {{"available", f.available},
              {"reason", f.reason},
              {"streams", f.streams},
              {"jain_p99", number(f.jainP99)},
              {"jain_throughput", number(f.jainThroughput)},
              {"worst_to_best_p99", number(f.worstToBestP99)},
              {"worst_to_overall_p99", number(f.worstToOverallP99)},
              {"worst_stream", f.worstStream},
              {"best_stream", f.bestStream},
              {"all_sufficient", f.allSufficient}}}};
}

json omissionJson(const CoordinatedOmission& c)
{
    return {{"checked", c.checked},
            {"source", c.source},
            {"reason", c.reason},
            {"claimed_rate_per_s", number(c.claimedRatePerS)},
            {"p", c.probabilities},
            {"measured_ms", numbers(c.measuredS, 1e3)},
            {"from_intended_ms", numbers(c.fromIntendedS, 1e3)},
            {"difference_ms", numbers(c.differenceS, 1e3)},
            {"mean_send_lag_ms", number(c.meanSendLagS * 1e3)},
            {"max_send_lag_ms", number(c.maxSendLagS * 1e3)},
            {"late_fraction", number(c.lateFraction)},
            {"schedule_drift_s", number(c.scheduleDriftS)},
            {"verdict", c.verdict}};
}

} // namespace

json toJson(const PercentileEstimate& p, const std::string& unit, double scale)
{
    return {{"p", p.probability},
            {"value_" + unit, number(p.value * scale)},
            {"ci95_" + unit, {number(p.ciLow * scale), number(p.ciHigh * scale)}},
            {"ci_ranks", {p.lowerRank, p.upperRank}},
            {"ci_coverage", number(p.coverage)},
            {"minimum_samples", p.minimumSamples},
            {"sufficient", p.sufficient}};
}

json toJson(const Distribution& d, const std::string& unit, double scale)
{
    json percentiles = json::array();
    for (const auto& p : d.percentiles)
        percentiles.push_back(toJson(p, unit, scale));
    return {{"count", d.count},
            {"mean_" + unit, number(d.mean * scale)},
            {"min_" + unit, number(d.min * scale)},
            {"max_" + unit, number(d.max * scale)},
            {"percentiles", percentiles},
            {"cdf",
             {{"value_" + unit, numbers(d.cdfValue, scale)}, {"probability", d.cdfProbability}}}};
}

json toJson(const ArrivalCharacterisation& a)
{
    json fits = json::array();
    for (std::size_t i = 0; i < a.fits.size(); ++i) {
        const auto& f = a.fits[i];
        fits.push_back({{"kind", f.kind},
                        {"rate_per_s", number(f.ratePerS)},
                        {"cv", number(f.cv)},
                        {"ks_distance", number(f.ksDistance)},
                        {"ks_critical", number(f.ksCritical)},
                        {"dispersion_z", number(f.dispersionZ)},
                        {"passes", f.passes},
                        {"chosen", int(i) == a.chosen},
                        {"simulator_arrivals", simulatorArrivals(f)},
                        {"idc", numbers(f.idc)},
                        {"gap_cdf", numbers(f.gapCdf)}});
    }
    json out = {
        {"available", a.available},
        {"reason", a.reason},
        {"count", a.count},
        {"span_s", number(a.spanS)},
        {"mean_rate_per_s", number(a.meanRatePerS)},
        {"gap_mean_s", number(a.gapMeanS)},
        {"gap_cv", number(a.gapCv)},
        {"tied_gaps", a.tiedGaps},
        {"idc", {{"window_s", a.idcWindowS}, {"value", numbers(a.idc)}, {"windows", a.idcWindows}}},
        {"user_window_s", number(a.userWindowS)},
        {"user_window_idc", number(a.userWindowIdc)},
        {"gaps", toJson(a.gaps, "ms", 1e3)},
        {"fits", fits},
        {"choice_reason", a.choiceReason},
        {"method", a.method}};
    out["target_traffic_pattern"] =
        a.chosen >= 0 ? simulatorArrivals(a.fits[std::size_t(a.chosen)]) : json(nullptr);
    return out;
}

json toJson(const RequestAnalysis& r)
{
    return {{"kind", "request_trace"},
            {"name", r.name},
            {"requests", r.requests},
            {"completed", r.completed},
            {"origin_epoch_s", r.originEpochS},
            {"first_arrival_s", number(r.firstArrivalS)},
            {"span_s", number(r.spanS)},
            {"latency", toJson(r.latency, "ms", 1e3)},
            {"latency_dependence",
             {{"assessed", r.latencyDependence.assessed},
              {"lag1_autocorrelation", number(r.latencyDependence.lag1)},
              {"correlated", r.latencyDependence.correlated},
              {"interval_method", r.latencyDependence.correlated
                                      ? "batch means over " +
                                            std::to_string(r.latencyDependence.batches) +
                                            " consecutive batches, at least the order-statistic "
                                            "interval"
                                      : std::string("exact order statistics (independent "
                                                    "requests)")},
              {"batches", r.latencyDependence.batches},
              {"batch_p99_lag1", number(r.latencyDependence.batchLag1)},
              {"batches_independent", r.latencyDependence.batchesIndependent}}},
            {"queue_wait", toJson(r.queueWait, "ms", 1e3)},
            {"service", toJson(r.service, "ms", 1e3)},
            {"input_tokens", toJson(r.inputTokens, "tokens", 1.0)},
            {"output_tokens", toJson(r.outputTokens, "tokens", 1.0)},
            {"time_series", timeSeriesJson(r.timeSeries)},
            {"tail", tailJson(r.tail)},
            {"batches", batchesJson(r.batches)},
            {"per_stream", streamsJson(r.streams, r.fairness)},
            {"coordinated_omission", omissionJson(r.coordinatedOmission)},
            {"arrivals", toJson(r.arrivals)},
            {"notes", r.notes}};
}

json toJson(const SweepConfidence& s)
{
    json rows = json::array();
    for (const auto& r : s.rows) {
        json checks = json::array();
        for (const auto& c : r.checks) {
            checks.push_back({{"p", c.probability},
                              {"value_ms", number(c.valueS * 1e3)},
                              {"minimum_samples", c.minimumSamples},
                              {"sufficient", c.sufficient},
                              {"ci_ranks", {c.lowerRank, c.upperRank}}});
        }
        rows.push_back({{"row", r.row},
                        {"batch_size", r.batchSize},
                        {"series", r.series},
                        {"sample_count", r.sampleCountKnown ? json(r.sampleCount) : json(nullptr)},
                        {"checks", checks}});
    }
    return {{"kind", "sweep"},
            {"name", s.name},
            {"points", s.points},
            {"points_with_sample_counts", s.pointsWithCounts},
            {"insufficient_claims", s.insufficientClaims},
            {"rows", rows},
            {"rule", s.rule}};
}

} // namespace bs::analysis
