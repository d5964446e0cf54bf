#include "analysis/llmrunanalysis.h"

#include "analysis/analysisjson.h"

#include <algorithm>

namespace bs::analysis {

namespace {

Distribution describe(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return describeSorted(values);
}

LlmRunAnalysis analyzeRun(const data::LlmRun& run)
{
    LlmRunAnalysis a;
    a.tool = run.tool;
    a.line = run.line;
    a.requests = run.requests.size();
    a.requestRatePerS = run.requestRatePerS;
    a.completed = run.completed;
    a.outputTokensPerS = run.outputTokensPerS;
    std::vector<double> ttft, tpot, e2e, itl;
    for (const auto& r : run.requests) {
        if (!r.ok) {
            ++a.failed;
            continue;
        }
        if (r.ttftS)
            ttft.push_back(*r.ttftS);
        if (r.tpotS)
            tpot.push_back(*r.tpotS);
        if (r.e2eS)
            e2e.push_back(*r.e2eS);
        itl.insert(itl.end(), r.itlS.begin(), r.itlS.end());
    }
    a.ttft = describe(std::move(ttft));
    a.tpot = describe(std::move(tpot));
    a.e2e = describe(std::move(e2e));
    a.itl = describe(std::move(itl));
    return a;
}

} // namespace

std::vector<LlmRunAnalysis> analyzeLlmRuns(const data::LlmRunSet& set)
{
    std::vector<LlmRunAnalysis> out;
    for (const auto& run : set.runs)
        out.push_back(analyzeRun(run));
    return out;
}

nlohmann::json toJson(const std::vector<LlmRunAnalysis>& runs)
{
    constexpr double kMsPerS = 1e3;
    nlohmann::json list = nlohmann::json::array();
    for (const auto& a : runs) {
        nlohmann::json r = {
            {"tool", a.tool}, {"line", a.line}, {"requests", a.requests}, {"failed", a.failed}};
        if (a.requestRatePerS)
            r["request_rate_per_s"] = *a.requestRatePerS;
        if (a.completed)
            r["completed"] = *a.completed;
        if (a.outputTokensPerS)
            r["output_tokens_per_s"] = *a.outputTokensPerS;
        for (const auto& [name, d] : {std::pair{"ttft", &a.ttft}, std::pair{"tpot", &a.tpot},
                                      std::pair{"itl", &a.itl}, std::pair{"e2e", &a.e2e}}) {
            if (d->count > 0)
                r[name] = toJson(*d, "ms", kMsPerS);
        }
        list.push_back(std::move(r));
    }
    return {{"kind", "llm_runs"}, {"runs", list}};
}

} // namespace bs::analysis
