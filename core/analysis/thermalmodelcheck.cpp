#include "analysis/thermalmodelcheck.h"

#include "analysis/powerchannel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace bs::analysis {

namespace {

/// The temperature after `durationS` at constant power, exactly (the RC solution).
double relax(const accel::ThermalSpec& m, double fromC, double powerW, double durationS)
{
    const double targetC = m.ambientC + powerW * m.resistanceCPerW;
    const double tauS = m.resistanceCPerW * m.capacitanceJPerC;
    return targetC + (fromC - targetC) * std::exp(-durationS / tauS);
}

std::string modelText(const accel::ThermalSpec& m)
{
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, "T_amb %.1f °C, R %.3g °C/W, τ %.0f s", m.ambientC,
                  m.resistanceCPerW, m.resistanceCPerW * m.capacitanceJPerC);
    return buffer;
}

std::string verdictOf(const ThermalModelCheck& c)
{
    char buffer[512];
    if (c.agrees) {
        std::snprintf(buffer, sizeof buffer,
                      "the logged temperature follows the model's thermal RC (%s) within %.1f °C "
                      "on average (worst %.1f °C)",
                      modelText(c.model).c_str(), c.meanAbsErrorC, c.maxAbsErrorC);
        return buffer;
    }
    std::snprintf(buffer, sizeof buffer,
                  "the log runs %.1f °C %s than the model's thermal RC (%s) predicts from its own "
                  "power readings (mean difference %.1f °C; at %.0f W the model settles at "
                  "%.1f °C, the log reaches %.1f °C): set the model's ambient and thermal "
                  "resistance from this log before trusting its throttling predictions",
                  std::fabs(c.biasC), c.biasC > 0.0 ? "hotter" : "cooler",
                  modelText(c.model).c_str(), c.meanAbsErrorC, c.peakPowerW, c.modelSteadyAtPeakC,
                  c.loggedMaxC);
    return buffer;
}

} // namespace

Expected<ThermalModelCheck> checkThermalModel(const data::PowerSeries& series,
                                              const accel::ThermalSpec& model, int channel)
{
    ThermalModelCheck c;
    c.model = model;
    c.toleranceC = kThermalAgreementC;
    if (!(model.resistanceCPerW > 0.0) || !(model.capacitanceJPerC > 0.0) ||
        !std::isfinite(model.ambientC))
        return makeError(ErrorCode::Value, "the model's thermal values must be finite, with a "
                                           "positive resistance and capacitance");
    const auto s = powerChannelSamples(series, channel);
    if (s.temperature.empty()) {
        c.reason = "the power log has no temperature readings";
        return c;
    }
    double errorSum = 0.0, biasSum = 0.0;
    double predicted = kNaN, previousS = kNaN;
    for (std::size_t i = 0; i < s.t.size(); ++i) {
        if (!std::isfinite(s.t[i]) || !std::isfinite(s.power[i]))
            return makeError(ErrorCode::Value,
                             "power reading " + std::to_string(i + 1) + " is not finite");
        if (std::isfinite(predicted))
            predicted = relax(model, predicted, s.power[i], s.t[i] - previousS);
        previousS = s.t[i];
        if (!std::isfinite(s.temperature[i]))
            continue;
        if (!std::isfinite(predicted))
            predicted = s.temperature[i];
        const double difference = s.temperature[i] - predicted;
        c.timeS.push_back(s.t[i]);
        c.loggedC.push_back(s.temperature[i]);
        c.predictedC.push_back(predicted);
        errorSum += std::fabs(difference);
        biasSum += difference;
        c.maxAbsErrorC = std::isfinite(c.maxAbsErrorC)
                             ? std::max(c.maxAbsErrorC, std::fabs(difference))
                             : std::fabs(difference);
    }
    if (c.timeS.size() < 2) {
        c.reason = "the power log needs at least 2 temperature readings";
        return c;
    }
    const double n = double(c.timeS.size());
    c.meanAbsErrorC = errorSum / n;
    c.biasC = biasSum / n;
    c.peakPowerW = *std::max_element(s.power.begin(), s.power.end());
    c.modelSteadyAtPeakC = model.ambientC + c.peakPowerW * model.resistanceCPerW;
    c.loggedMaxC = *std::max_element(c.loggedC.begin(), c.loggedC.end());
    c.agrees = c.meanAbsErrorC <= c.toleranceC && std::fabs(c.biasC) <= c.toleranceC;
    c.verdict = verdictOf(c);
    const double spanS = c.timeS.back() - c.timeS.front();
    const double tauS = model.resistanceCPerW * model.capacitanceJPerC;
    if (spanS < tauS) {
        // Within one time constant the model barely leaves its starting point: the check says
        // little about the steady state, which is what throttling predictions depend on.
        char caveat[200];
        std::snprintf(caveat, sizeof caveat,
                      " (the log spans only %.0f s, less than the model's %.0f s time constant: "
                      "this checks the start of a transient, not the steady state)",
                      spanS, tauS);
        c.verdict += caveat;
    }
    char method[320];
    std::snprintf(method, sizeof method,
                  "C·dT/dt = P − (T − T_amb)/R solved exactly between readings, each reading's "
                  "power held over the interval ending at it, from the first logged temperature; "
                  "agrees when the mean absolute and the mean difference are both within %.1f °C",
                  kThermalAgreementC);
    c.method = method;
    c.available = true;
    return c;
}

} // namespace bs::analysis
