#include "simulationsummary.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace bs::cli {

namespace {

std::string format(const char* pattern, double value)
{
    if (!std::isfinite(value))
        return "-";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, pattern, value);
    return buffer;
}

std::string padded(std::string text, std::size_t width)
{
    if (text.size() < width)
        text.insert(0, width - text.size(), ' ');
    return text;
}

/// "12.345 [12.301, 12.389]" (the interval only with several replications).
std::string withInterval(const sim::Estimate& e, double scale, const char* pattern)
{
    std::string text = format(pattern, e.value * scale);
    if (std::isfinite(e.ciLow))
        text += " [" + format(pattern, e.ciLow * scale) + ", " + format(pattern, e.ciHigh * scale) +
                "]";
    return text;
}

std::string distributionTable(const char* title, const sim::DistributionSummary& d)
{
    const sim::Estimate* columns[] = {&d.mean, &d.p50, &d.p90, &d.p95, &d.p99, &d.p999};
    std::string out = std::string(title) + "\n";
    out += "              mean       p50       p90       p95       p99     p99.9       max\n";
    out += "  value   ";
    for (const auto* e : columns)
        out += padded(format("%.4g", e->value * 1000.0), 10);
    out += padded(format("%.4g", d.max * 1000.0), 10) + "\n";
    out += "  +-95%   ";
    for (const auto* e : columns)
        out += padded(std::isfinite(e->ciLow) ? format("%.2g", e->halfWidth() * 1000.0) : "-", 10);
    return out + "\n";
}

std::string batchLine(const sim::Result& r)
{
    std::uint64_t total = 0;
    for (auto c : r.batchSizeCounts)
        total += c;
    std::string out = "Batch size         mean " + withInterval(r.meanBatchSize, 1.0, "%.2f");
    // The most frequent sizes, up to four, in decreasing order of frequency.
    std::vector<bool> used(r.batchSizeCounts.size(), false);
    std::string top;
    for (int k = 0; k < 4 && total > 0; ++k) {
        std::size_t best = 0;
        for (std::size_t b = 1; b < r.batchSizeCounts.size(); ++b) {
            if (!used[b] && r.batchSizeCounts[b] > r.batchSizeCounts[best])
                best = b;
        }
        if (best == 0 || r.batchSizeCounts[best] == 0)
            break;
        used[best] = true;
        top += (top.empty() ? "" : ", ") + std::to_string(best) + " (" +
               format("%.0f", 100.0 * double(r.batchSizeCounts[best]) / double(total)) + "%)";
    }
    return out + (top.empty() ? "" : "; most frequent " + top) + "\n";
}

std::string streamsBlock(const sim::Result& r)
{
    if (r.streams.empty())
        return {};
    std::string out = "Streams            name           weight    req/s   mean ms    p99 ms\n";
    for (const auto& s : r.streams) {
        std::string name = s.name;
        name.resize(std::max<std::size_t>(name.size(), 14), ' ');
        out += "                   " + name + padded(format("%.3g", s.weight), 7) +
               padded(format("%.1f", s.throughputPerS.value), 9) +
               padded(format("%.4g", s.latencyMeanS.value * 1000.0), 10) +
               padded(format("%.4g", s.latencyP99S.value * 1000.0), 10) + "\n";
    }
    out += "Fairness (Jain)    p99 latency " + withInterval(r.jainP99, 1.0, "%.4f") +
           "; throughput per weight " + withInterval(r.jainThroughputPerWeight, 1.0, "%.4f") + "\n";
    return out;
}

std::string header(const sim::Result& r)
{
    const auto& s = r.scenario;
    std::string out = "Scenario           " + (s.name.empty() ? std::string("(unnamed)") : s.name) +
                      ": seed " + std::to_string(s.seed) + ", " + std::to_string(s.replications) +
                      " replication(s) x " + std::to_string(s.requests) + " requests after " +
                      std::to_string(s.warmupRequests) + " warm-up\n";
    const auto& c = r.coverage;
    if (c.timeScale.seconds > 0.0)
        out += "Run length         " + format("%.3g", c.cyclesPerReplication) + " " +
               c.timeScale.unit + " per replication (" + format("%.4g", c.timeScale.seconds) +
               " s each, " + c.timeScale.origin + "; needs " +
               format("%.3g", c.timeScale.requiredCycles) + ")" +
               (c.sufficient ? "" : " NOT CONFIDENT: too short for the traffic") + "\n";
    const auto& st = r.stability;
    out += "Load               offered " + format("%.6g", st.offeredRatePerS) +
           " req/s, capacity " + format("%.6g", st.capacityRatePerS) + " req/s, rho " +
           format("%.3f", st.rho) + "\n";
    out += std::string("Stability          ") + (st.stable ? "stable" : "UNSTABLE") + "\n";
    if (!st.stable)
        out += "                   " + st.reason + "\n";
    return out;
}

} // namespace

std::string formatSimulationSummary(const sim::Result& r)
{
    std::string out = header(r);
    if (r.stability.stable) {
        out += "Throughput         " + withInterval(r.throughputPerS, 1.0, "%.6g") + " req/s\n\n";
        out += distributionTable("Latency (ms)", r.latency) + "\n";
        out += distributionTable("Queue wait (ms)", r.queueWait) + "\n";
        out += batchLine(r);
        std::string utilisation;
        for (std::size_t i = 0; i < r.serverUtilisation.size(); ++i)
            utilisation += (i ? ", " : "") + format("%.1f%%", 100.0 * r.serverUtilisation[i].value);
        out += "Utilisation        " + utilisation + "\n";
        if (r.energyPerRequestJ)
            out += "Energy             " + withInterval(*r.energyPerRequestJ, 1.0, "%.4g") +
                   " J/request, mean power " + withInterval(*r.meanPowerW, 1.0, "%.4g") + " W\n";
        out += streamsBlock(r);
    }
    for (const auto& w : r.warnings)
        out += "Warning: " + w + "\n";
    if (r.stability.stable)
        out += "\nPercentiles: latency " + r.latencyMethod + "; queue wait " + r.queueWaitMethod +
               ". Intervals: 95% Student t over replications.\n";
    return out;
}

} // namespace bs::cli
