#include "llmsimulationsummary.h"

#include "analysis/llmregion.h"

#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>

namespace bs::cli {

namespace {

/// The mean over the replications of one metric (the JSON output carries the intervals).
template <typename Metric>
double meanOver(const llmsim::LlmResult& result, Metric metric)
{
    double sum = 0.0;
    for (const auto& m : result.replications)
        sum += metric(m);
    return sum / double(result.replications.size());
}

std::string cell(double value, const char* pattern = "%10.1f")
{
    char buffer[64];
    if (!std::isfinite(value))
        std::snprintf(buffer, sizeof buffer, "%10s", "-");
    else
        std::snprintf(buffer, sizeof buffer, pattern, value);
    return buffer;
}

std::string latencyRow(const llmsim::LlmResult& result, const char* name,
                       llmsim::Summary llmsim::ReplicationMetrics::*field)
{
    std::string row = name;
    row.resize(12, ' ');
    for (double llmsim::Summary::*value :
         {&llmsim::Summary::meanS, &llmsim::Summary::p50S, &llmsim::Summary::p90S,
          &llmsim::Summary::p99S, &llmsim::Summary::maxS})
        row += cell(1e3 *
                    meanOver(result, [field, value](const auto& m) { return (m.*field).*value; }));
    return row + "\n";
}

std::string line(const char* label, double value, const char* pattern)
{
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, pattern, value);
    return std::string(label) + buffer + "\n";
}

/// "Arrivals fitted to F: Poisson R req/s, prompts mean M (cv C, max X), outputs ...".
std::string fittedArrivalsLine(const llmsim::LlmResult& result)
{
    const auto lengths = [](const llmsim::TokenLengthSpec& spec) {
        char text[96];
        if (spec.kind == llmsim::TokenLengthSpec::Kind::Fixed)
            std::snprintf(text, sizeof text, "%d tokens", spec.tokens);
        else
            std::snprintf(text, sizeof text, "lognormal mean %.1f (cv %.2f, max %d)", spec.mean,
                          spec.cv, spec.max);
        return std::string(text);
    };
    const auto& a = result.scenario.arrivals;
    char rate[64];
    std::snprintf(rate, sizeof rate, "Poisson %.4g req/s", a.ratePerS);
    return "Arrivals           fitted to " + result.arrivalsFittedFrom + ": " + rate +
           ", prompts " + lengths(a.promptTokens) + ", outputs " + lengths(a.outputTokens) + "\n";
}
} // namespace

std::string formatLlmSimulationSummary(const llmsim::LlmResult& result)
{
    using M = llmsim::ReplicationMetrics;
    const auto& engine = result.scenario.engine;
    char head[320];
    std::snprintf(head, sizeof head,
                  "LLM engine         %s, max_num_seqs %d, %s %d, chunked prefill %s, block %d, "
                  "%lld KV blocks\n",
                  engine.policy.c_str(), engine.maxNumSeqs, analysis::llmTokenBudgetKnob(engine),
                  analysis::llmTokenBudget(engine), engine.enableChunkedPrefill ? "on" : "off",
                  engine.blockSize, static_cast<long long>(engine.numGpuBlocks));
    std::string out = head;
    if (engine.enablePrefixCaching) {
        char cache[160];
        std::snprintf(cache, sizeof cache,
                      "Prefix cache       on; %.3g%% of each new prompt found in it "
                      "(prefix_cache_hit_rate)\n",
                      100.0 * engine.prefixCacheHitRate);
        out += cache;
    }
    if (const auto& kv = result.kvCapacity) {
        constexpr double gib = 1024.0 * 1024.0 * 1024.0;
        char sized[320];
        std::snprintf(sized, sizeof sized,
                      "KV cache           sized from memory: %.2f GiB usable - %.2f GiB weights "
                      "(%.2f B parameters) - %.2f GiB reserve = %.2f GiB, %lld tokens\n",
                      kv->usableBytesPerGpu / gib, kv->weightBytesPerGpu / gib,
                      double(kv->parameters) / 1e9, kv->reserveBytesPerGpu / gib,
                      kv->kvBytesPerGpu / gib, static_cast<long long>(kv->kvTokens));
        out += sized;
    }
    if (!result.arrivalsFittedFrom.empty())
        out += fittedArrivalsLine(result);
    if (const double clientMs = result.scenario.step.clientOverheadMs; clientMs > 0.0) {
        char client[200];
        std::snprintf(client, sizeof client,
                      "Outside the server %.3g ms per request added to TTFT and E2E, as a client "
                      "measures them (client_overhead_ms)\n",
                      clientMs);
        out += client;
    }
    out += line("Requests           ", double(result.requests.size()), "%.0f per replication");
    out += line("Replications       ", double(result.replications.size()),
                "%.0f (means shown; --json gives 95%% intervals)");
    out += "\nLatency (ms)      mean       p50       p90       p99       max\n";
    out += latencyRow(result, "  TTFT", &M::ttft);
    out += latencyRow(result, "  TPOT", &M::tpot);
    out += latencyRow(result, "  ITL", &M::itl);
    out += latencyRow(result, "  E2E", &M::e2e);
    out += latencyRow(result, "  queue", &M::queue);
    out += "  (ITL percentiles from a sketch, relative error <= 0.4%)\n\n";
    out += line("Throughput         ", meanOver(result, [](const M& m) { return m.requestsPerS; }),
                "%.3f req/s");
    out += line("Output tokens/s    ",
                meanOver(result, [](const M& m) { return m.outputTokensPerS; }), "%.1f");
    out += line("Total tokens/s     ",
                meanOver(result, [](const M& m) { return m.totalTokensPerS; }), "%.1f");
    char sla[120];
    std::snprintf(sla, sizeof sla,
                  "%.3f req/s (%.1f%% of requests meet TTFT <= %g ms, TPOT <= %g ms; 0 = no limit)",
                  meanOver(result, [](const M& m) { return m.goodputPerS; }),
                  100.0 * meanOver(result, [](const M& m) { return m.goodFraction; }),
                  result.scenario.sla.ttftMs, result.scenario.sla.tpotMs);
    out += std::string("Goodput            ") + sla + "\n";
    out += line("Steps              ", meanOver(result, [](const M& m) { return double(m.steps); }),
                "%.0f");
    out +=
        line("Batch tokens       ", meanOver(result, [](const M& m) { return m.meanBatchTokens; }),
             "%.1f per step (mean)");
    out += line("Running            ", meanOver(result, [](const M& m) { return m.meanRunning; }),
                "%.2f mean");
    out += line("Running max        ",
                meanOver(result, [](const M& m) { return double(m.maxRunning); }), "%.0f");
    out += line("Waiting max        ",
                meanOver(result, [](const M& m) { return double(m.maxWaiting); }), "%.0f");
    out += line("KV use peak        ",
                100.0 * meanOver(result, [](const M& m) { return m.peakKvUse; }), "%.1f%%");
    out += line("Preemptions        ",
                meanOver(result, [](const M& m) { return double(m.preemptions); }), "%.0f");
    const double energyJ = meanOver(result, [](const M& m) { return m.energyJ; });
    if (std::isfinite(energyJ)) {
        out += line("Energy             ", energyJ / 3.6e6,
                    "%.4g kWh (steps at their power, idle power between them)");
        out +=
            line("Power              ", meanOver(result, [](const M& m) { return m.meanPowerW; }),
                 "%.1f W mean (all GPUs of the replica)");
        out += line("Energy/output tok  ",
                    meanOver(result, [](const M& m) { return m.energyPerOutputTokenJ; }), "%.4g J");
    }
    return out;
}

} // namespace bs::cli
