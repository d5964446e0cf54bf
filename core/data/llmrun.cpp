#include "data/llmrun.h"

#include <cmath>
#include <cstdlib>

namespace bs::data {

void LlmMetric::set(const std::string& stat, double seconds)
{
    if (stat == "mean")
        meanS = seconds;
    else if (stat == "median")
        medianS = seconds;
    else if (stat == "std")
        stdS = seconds;
    else if (stat.size() > 1 && stat[0] == 'p')
        percentileS[stat.substr(1)] = seconds;
}

std::string llmKnob(const LlmRun& run, const std::vector<std::string>& keys)
{
    for (const auto& key : keys) {
        const auto found = run.knobs.find(key);
        if (found != run.knobs.end() && !found->second.empty() && found->second != "null")
            return found->second;
    }
    return {};
}

std::optional<double> llmKnobNumber(const LlmRun& run, const std::vector<std::string>& keys)
{
    const std::string text = llmKnob(run, keys);
    char* end = nullptr;
    const double value = text.empty() ? 0.0 : std::strtod(text.c_str(), &end);
    if (text.empty() || end == text.c_str() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

} // namespace bs::data
