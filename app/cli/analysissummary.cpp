#include "analysissummary.h"

#include <cstdio>
#include <string>

namespace bs::cli {

namespace {

using nlohmann::json;

std::string num(const json& v, const char* format = "%.4g")
{
    if (!v.is_number())
        return "-";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, v.get<double>());
    return buffer;
}

std::string percent(const json& v)
{
    return v.is_number() ? num(json(100.0 * v.get<double>()), "%.1f") + "%" : "-";
}

/// "p50 1.2 [1.1, 1.3]  p99 9.8 [8.0, -] (insufficient: 459 needed)" for a distribution.
std::string percentileLine(const json& d, const std::string& unit)
{
    if (d["count"].get<std::uint64_t>() == 0)
        return "none";
    std::string line =
        "n " + std::to_string(d["count"].get<std::uint64_t>()) + ", mean " + num(d["mean_" + unit]);
    for (const auto& p : d["percentiles"]) {
        const double prob = p["p"].get<double>();
        line += "; p" + num(json(100.0 * prob), "%g") + " " + num(p["value_" + unit]) + " [" +
                num(p["ci95_" + unit][0]) + ", " + num(p["ci95_" + unit][1]) + "]";
        if (!p["sufficient"].get<bool>())
            line += " (insufficient: " + std::to_string(p["minimum_samples"].get<std::uint64_t>()) +
                    " needed)";
    }
    return line + " " + unit;
}

/// Little's law against the engine's counts, goodput under the SLA, energy per token.
void llmFiguresText(const json& run, std::string& out)
{
    if (run.contains("reported_p99_ms")) {
        out += "    tool p99   ";
        for (const auto& [name, ms] : run["reported_p99_ms"].items())
            out += " " + name + " " + num(ms);
        out += " ms\n";
    }
    if (run.contains("in_flight")) {
        const auto& f = run["in_flight"];
        out += "    in flight  ";
        if (f.contains("from_requests"))
            out += " " + num(f["from_requests"]) + " (Little's law over the records)";
        if (f.contains("from_engine_series"))
            out += " " + num(f["from_engine_series"]) + " (engine running + waiting)";
        if (f.contains("relative_difference"))
            out += ", " + percent(f["relative_difference"]) + " apart";
        out += "\n";
    }
    if (run.contains("goodput")) {
        const auto& g = run["goodput"];
        out += "    goodput     " + num(g["good_per_s"]) + " req/s (" +
               std::to_string(g["good"].get<std::uint64_t>()) + " of " +
               std::to_string(g["judged"].get<std::uint64_t>()) + " within the SLA)\n";
    }
    if (run.contains("energy")) {
        const auto& e = run["energy"];
        out += "    energy      ";
        if (e.contains("per_output_token_j"))
            out += num(e["per_output_token_j"]) + " J/output token, ";
        if (e.contains("per_request_j"))
            out += num(e["per_request_j"]) + " J/request, ";
        out += "at " + num(e["serving_power_w"]) + " W on GPU";
        for (const auto& gpu : e["serving_gpus"])
            out += " " + gpu.get<std::string>();
        out += "\n";
    }
    if (run.contains("logged_energy")) {
        const auto& e = run["logged_energy"];
        out += "    energy log  ";
        if (e["available"].get<bool>()) {
            out += num(e["per_output_token_j"]) + " J/output token [" +
                   num(e["per_output_token_band_j"][0]) + ", " +
                   num(e["per_output_token_band_j"][1]) + "]";
            if (e.contains("per_request_j"))
                out += ", " + num(e["per_request_j"]) + " J/request";
            out += ", at " + num(e["mean_power_w"]) + " W on " +
                   std::to_string(e["devices"].get<std::size_t>()) + " device(s) over " +
                   num(e["window_s"]) + " s";
        } else {
            out += "none: " + e["reason"].get<std::string>();
        }
        out += " (" + e["power_log"].get<std::string>() + ")\n";
    }
}

/// Per run: request count, output token/s as the tool reported it, and the exact TTFT, TPOT,
/// ITL and E2E percentiles with 95% intervals from the per-request records.
void llmText(const json& r, std::string& out)
{
    for (const auto& run : r["runs"]) {
        const std::string where = run.contains("test_name")
                                      ? "\"" + run["test_name"].get<std::string>() + "\""
                                      : "line " + std::to_string(run["line"].get<std::int64_t>());
        out += "  run (" + where + ", " + run["tool"].get<std::string>() + ")";
        if (run.contains("request_rate_per_s"))
            out += " at " + num(run["request_rate_per_s"]) + " req/s";
        if (run.contains("simulated_by"))
            out += "\n    simulated   by the " + run["simulated_by"].get<std::string>() +
                   ", not measured";
        out += "\n    requests    " + std::to_string(run["requests"].get<std::uint64_t>()) +
               " records, " + std::to_string(run["failed"].get<std::uint64_t>()) + " failed";
        if (run.contains("completed"))
            out += ", " + std::to_string(run["completed"].get<std::int64_t>()) + " completed";
        out += "\n";
        if (run.contains("batching")) {
            std::string limits;
            for (const auto& [name, value] : run["batching"].items())
                limits += (limits.empty() ? "" : ", ") + name + " " + value.get<std::string>();
            out += "    batching    " + limits;
            out += "\n";
        }
        if (run.contains("output_tokens_per_s"))
            out += "    output      " + num(run["output_tokens_per_s"]) + " tokens/s\n";
        for (const std::string name : {"ttft", "tpot", "itl", "e2e"}) {
            if (run.contains(name))
                out += "    " + name + std::string(12 - name.size(), ' ') +
                       percentileLine(run[name], "ms") + "\n";
        }
        llmFiguresText(run, out);
    }
}

void requestText(const json& r, std::string& out)
{
    out += "  latency     " + percentileLine(r["latency"], "ms") + "\n";
    out += "  queue wait  " + percentileLine(r["queue_wait"], "ms") + "\n";
    const auto& tail = r["tail"];
    if (tail["available"].get<bool>()) {
        out += "  tail        p99 - median excess " + num(tail["excess_ms"]) + " ms:";
        for (const auto& c : tail["components"])
            out += " " + c["name"].get<std::string>() + " " + percent(c["share"]);
        out += "\n";
    }
    const auto& b = r["batches"];
    if (b["available"].get<bool>())
        out += "  batches     " + std::to_string(b["batches"].get<std::uint64_t>()) +
               ", mean size " + num(b["mean_size"]) + " (" + b["source"].get<std::string>() + ")\n";
    const auto& f = r["per_stream"]["fairness"];
    if (f["available"].get<bool>())
        out += "  fairness    Jain p99 " + num(f["jain_p99"]) + ", worst/best p99 " +
               num(f["worst_to_best_p99"]) + " (worst: " + f["worst_stream"].get<std::string>() +
               ")\n";
    const auto& co = r["coordinated_omission"];
    out += "  omission    " +
           (co["checked"].get<bool>() ? co["verdict"].get<std::string>()
                                      : "not checked: " + co["reason"].get<std::string>()) +
           "\n";
    const auto& a = r["arrivals"];
    if (a["available"].get<bool>()) {
        out += "  arrivals    rate " + num(a["mean_rate_per_s"]) + "/s, gap cv " +
               num(a["gap_cv"]) + "; model " + a["target_traffic_pattern"].dump() + "\n";
        out += "              " + a["choice_reason"].get<std::string>() + "\n";
    }
    for (const auto& n : r["notes"])
        out += "  note        " + n.get<std::string>() + "\n";
}

void kernelText(const json& k, std::string& out)
{
    if (!k["device_activity"].get<bool>()) {
        out += "  " + k["note"].get<std::string>() + "\n";
        return;
    }
    out += "  steps       " + k["step_source"].get<std::string>() + "\n";
    auto stepLine = [&](const json& s) {
        out += "    " + s["name"].get<std::string>().substr(0, 40) + ": wall " + num(s["wall_ms"]) +
               " ms, busy " + percent(s["busy_fraction"]) + ", kernels " +
               std::to_string(s["kernels"].get<std::uint64_t>()) + ", launch overhead " +
               num(s["launch_overhead_mean_ms"]) + " ms, host gaps " + num(s["host_gap_ms"]) +
               " ms, fallback " + percent(s["fallback_share"]) + "\n";
    };
    // Without steps the only step is the whole trace, the same window as the total: one row.
    const bool stepless = k["step_source"].get<std::string>().rfind("whole trace", 0) == 0;
    std::size_t shown = 0;
    for (const auto& s : k["steps"]) {
        if (!stepless && shown++ < 10)
            stepLine(s);
    }
    stepLine(k["total"]);
    for (const auto& d : k["devices"])
        out += "  device " + std::to_string(d["device"].get<int>()) + "    busy " +
               num(d["busy_ms"]) + " ms, utilisation " + percent(d["utilisation"]) + ", " +
               std::to_string(d["streams"].size()) + " stream(s)\n";
    shown = 0;
    for (const auto& t : k["top_kernels"]) {
        if (shown++ < 5)
            out += "  top kernel  " + percent(t["share"]) + " " + t["class"].get<std::string>() +
                   " " + t["name"].get<std::string>().substr(0, 60) + "\n";
    }
    shown = 0;
    for (const auto& f : k["fallbacks"]) {
        if (shown++ < 5)
            out += "  fallback    " + f["kind"].get<std::string>() + " " +
                   f["name"].get<std::string>().substr(0, 50) + ": " + num(f["exposed_ms"]) +
                   " ms (" + percent(f["share_of_step_time"]) + " of step time)\n";
    }
}

void sweepText(const json& s, std::string& out)
{
    out += "  points      " + std::to_string(s["points"].get<std::size_t>()) +
           ", with sample counts " +
           std::to_string(s["points_with_sample_counts"].get<std::size_t>()) +
           "; reported percentiles with too few samples: " +
           std::to_string(s["insufficient_claims"].get<std::size_t>()) + "\n";
}

/// Two LLM benchmarks point by point: each paired run's p99s with the delta, * where the
/// intervals do not overlap.
void llmComparisonText(const json& c, std::string& out)
{
    out += "== LLM runs compared (second - first), paired by " + c["paired_by"].get<std::string>() +
           "\n";
    for (const auto& p : c["points"]) {
        out += "  run " + std::to_string(p["a_run"].get<int>()) + " vs " +
               std::to_string(p["b_run"].get<int>()) +
               (p["load"].is_null()
                    ? ""
                    : " at " + p["load_kind"].get<std::string>() + " " + num(p["load"])) +
               ":";
        for (const auto& d : p["latency"]) {
            if (d["percentile"].get<double>() != 99.0)
                continue;
            out += " " + d["metric"].get<std::string>() + " p99 " + num(d["a_ms"]) + " -> " +
                   num(d["b_ms"]) + " ms (" + percent(d["relative"]) +
                   (d["distinguishable"].get<bool>() ? ")*" : ")");
        }
        for (const auto& r : p["rates"])
            out += " " + r["metric"].get<std::string>() + " " + num(r["a"]) + " -> " + num(r["b"]);
        out += "\n";
    }
    for (const char* side : {"only_in_a", "only_in_b"}) {
        if (c[side].empty())
            continue;
        out += std::string("  unpaired runs of the ") +
               (side == std::string("only_in_a") ? "first" : "second") + " file:";
        for (const auto& i : c[side])
            out += " " + std::to_string(i.get<int>());
        out += "\n";
    }
    out += "  (* the 95% intervals do not overlap: a difference beyond sampling noise)\n";
}

} // namespace

std::string formatAnalysisSummary(const json& a)
{
    std::string out;
    for (const auto& input : a["inputs"]) {
        out += "== " + input["path"].get<std::string>() + " (" +
               input["reader"].get<std::string>() + ")\n";
        const auto& r = input["analysis"];
        const std::string kind = r.value("kind", "");
        if (kind == "request_trace")
            requestText(r, out);
        else if (kind == "kernel_trace")
            kernelText(r, out);
        else if (kind == "sweep")
            sweepText(r, out);
        else if (kind == "llm_runs")
            llmText(r, out);
        else
            out += "  power log   " + std::to_string(r.value("readings", std::size_t(0))) +
                   " readings\n";
    }
    if (a.contains("llm_comparison"))
        llmComparisonText(a["llm_comparison"], out);
    for (const auto& d : a["tail_drivers"]) {
        out += "== tail drivers (" + d["input"].get<std::string>() + ")\n";
        if (!d["available"].get<bool>()) {
            out += "  not available: " + d["reason"].get<std::string>() + "\n";
            continue;
        }
        for (const auto& x : d["drivers"])
            out += "  " + x["name"].get<std::string>() + ": " + num(x["excess_ms"]) + " ms (" +
                   percent(x["share"]) + ") [" + num(x["ci95_ms"][0]) + ", " +
                   num(x["ci95_ms"][1]) + "]\n";
        out += "  uncertainty " + d["uncertainty"].get<std::string>() + "\n";
    }
    for (const auto& p : a["power"]) {
        out += "== power (" + p["input"].get<std::string>() + ")\n";
        if (p["thermal"].value("available", false))
            out += "  thermal     " + p["thermal"]["verdict"].get<std::string>() + "\n";
        if (p.contains("thermal_model")) {
            const auto& m = p["thermal_model"];
            out +=
                "  model       " +
                (m.value("available", false) ? m["verdict"].get<std::string>()
                                             : "not checked: " + m["reason"].get<std::string>()) +
                "\n";
        }
        if (p.contains("energy") && p["energy"].contains("windows")) {
            const auto& e = p["energy"];
            std::size_t shown = 0;
            for (const auto& w : e["windows"]) {
                if (shown++ < 10)
                    out += "  energy      " + w["label"].get<std::string>() + ": " +
                           num(w["energy_j"]) + " J [" + num(w["band_j"][0]) + ", " +
                           num(w["band_j"][1]) + "], " + num(w["per_item_j"]) + " J per item" +
                           (w["covered"].get<bool>() ? "" : " (outside the power log)") + "\n";
            }
            out += "  note        " + e["note"].get<std::string>() + "\n";
        }
    }
    return out;
}

} // namespace bs::cli
