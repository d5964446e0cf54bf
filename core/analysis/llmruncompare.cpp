// Two LLM benchmarks compared point by point (llmruncompare.h).
#include "analysis/llmruncompare.h"

#include <cmath>

namespace bs::analysis {

namespace {

using nlohmann::json;

constexpr double kComparedPercentiles[] = {0.50, 0.90, 0.99};

/// What a run was driven at: its request rate, else its concurrency (an unlimited rate with a
/// concurrency cap is a closed loop).
std::optional<std::pair<std::string, double>> loadOf(const data::LlmRun& run)
{
    if (run.requestRatePerS)
        return std::pair<std::string, double>("request rate", *run.requestRatePerS);
    if (run.maxConcurrency)
        return std::pair<std::string, double>("concurrency", *run.maxConcurrency);
    return std::nullopt;
}

bool anyRunHasALoad(const data::LlmRunSet& set)
{
    for (const auto& run : set.runs) {
        if (loadOf(run))
            return true;
    }
    return false;
}

LlmStatisticDelta statistic(const char* metric, const Distribution& a, const Distribution& b,
                            double probability)
{
    LlmStatisticDelta d;
    d.metric = metric;
    d.probability = probability;
    d.a = *a.at(probability);
    d.b = *b.at(probability);
    d.delta = d.b.value - d.a.value;
    d.relative = d.delta / d.a.value;
    // Unbounded ends (too few samples) are NaN: the comparison below is then false.
    d.distinguishable = d.b.ciLow > d.a.ciHigh || d.a.ciLow > d.b.ciHigh;
    return d;
}

LlmRateDelta rate(const char* metric, std::optional<double> a, std::optional<double> b)
{
    LlmRateDelta d;
    d.metric = metric;
    d.a = a.value_or(kNaN);
    d.b = b.value_or(kNaN);
    d.delta = d.b - d.a;
    d.relative = d.delta / d.a;
    return d;
}

LlmRunComparison comparePair(const LlmRunAnalysis& a, const LlmRunAnalysis& b)
{
    LlmRunComparison c;
    const std::pair<const char*, const Distribution LlmRunAnalysis::*> metrics[] = {
        {"ttft", &LlmRunAnalysis::ttft},
        {"tpot", &LlmRunAnalysis::tpot},
        {"itl", &LlmRunAnalysis::itl},
        {"e2e", &LlmRunAnalysis::e2e}};
    for (const auto& [name, field] : metrics) {
        if ((a.*field).count == 0 || (b.*field).count == 0)
            continue;
        for (double p : kComparedPercentiles)
            c.latency.push_back(statistic(name, a.*field, b.*field, p));
    }
    c.rates.push_back(rate("output_tokens_per_s", a.outputTokensPerS, b.outputTokensPerS));
    if (a.goodput && b.goodput)
        c.rates.push_back(rate("goodput_per_s", a.goodput->perS, b.goodput->perS));
    return c;
}

json number(double v)
{
    return std::isfinite(v) ? json(v) : json(nullptr);
}

json interval(const PercentileEstimate& e)
{
    return json::array({number(e.ciLow * 1e3), number(e.ciHigh * 1e3)});
}

} // namespace

LlmSweepComparison compareLlmRuns(const data::LlmRunSet& a, const data::LlmRunSet& b,
                                  const LlmSla& sla)
{
    const auto analysedA = analyzeLlmRuns(a, sla);
    const auto analysedB = analyzeLlmRuns(b, sla);
    LlmSweepComparison out;
    const bool byLoad = anyRunHasALoad(a) && anyRunHasALoad(b);
    out.pairedBy = byLoad ? "request rate or concurrency" : "position";
    std::vector<bool> pairedB(b.runs.size(), false);
    for (std::size_t i = 0; i < a.runs.size(); ++i) {
        std::optional<std::size_t> partner;
        const auto load = loadOf(a.runs[i]);
        if (!byLoad && a.runs.size() == b.runs.size())
            partner = i;
        for (std::size_t j = 0; byLoad && load && j < b.runs.size() && !partner; ++j) {
            if (!pairedB[j] && loadOf(b.runs[j]) == load)
                partner = j;
        }
        if (!partner) {
            out.onlyInA.push_back(i);
            continue;
        }
        pairedB[*partner] = true;
        LlmRunComparison c = comparePair(analysedA[i], analysedB[*partner]);
        c.aIndex = i;
        c.bIndex = *partner;
        if (byLoad) {
            c.loadKind = load->first;
            c.load = load->second;
        }
        out.points.push_back(std::move(c));
    }
    for (std::size_t j = 0; j < b.runs.size(); ++j) {
        if (!pairedB[j])
            out.onlyInB.push_back(j);
    }
    return out;
}

json toJson(const LlmSweepComparison& comparison)
{
    json points = json::array();
    for (const auto& c : comparison.points) {
        json latency = json::array();
        for (const auto& d : c.latency)
            latency.push_back({{"metric", d.metric},
                               {"percentile", d.probability * 100.0},
                               {"a_ms", number(d.a.value * 1e3)},
                               {"a_ci95_ms", interval(d.a)},
                               {"b_ms", number(d.b.value * 1e3)},
                               {"b_ci95_ms", interval(d.b)},
                               {"delta_ms", number(d.delta * 1e3)},
                               {"relative", number(d.relative)},
                               {"distinguishable", d.distinguishable}});
        json rates = json::array();
        for (const auto& r : c.rates)
            rates.push_back({{"metric", r.metric},
                             {"a", number(r.a)},
                             {"b", number(r.b)},
                             {"delta", number(r.delta)},
                             {"relative", number(r.relative)}});
        points.push_back({{"a_run", c.aIndex + 1},
                          {"b_run", c.bIndex + 1},
                          {"load", c.load ? json(*c.load) : json(nullptr)},
                          {"load_kind", c.loadKind},
                          {"latency", latency},
                          {"rates", rates}});
    }
    const auto oneBased = [](const std::vector<std::size_t>& runs) {
        json out = json::array();
        for (std::size_t i : runs)
            out.push_back(i + 1);
        return out;
    };
    return {{"kind", "llm_comparison"},
            {"paired_by", comparison.pairedBy},
            {"points", points},
            {"only_in_a", oneBased(comparison.onlyInA)},
            {"only_in_b", oneBased(comparison.onlyInB)}};
}

} // namespace bs::analysis
