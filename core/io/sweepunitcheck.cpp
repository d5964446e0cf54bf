// The physics cross-check of a sweep's latency units (issue 17, item 4): Little's law against
// what the file says.
#include "io/sweepunitcheck.h"

#include "util/numbertext.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace bs::io {

namespace {

struct LatencyField
{
    const char* key;
    std::optional<double> data::SweepPoint::*member;
    const char* label; ///< For readers that do not name their columns.
};

constexpr LatencyField kFields[] = {
    {"latency_mean", &data::SweepPoint::latencyMeanS, "mean latency"},
    {"latency_p50", &data::SweepPoint::latencyP50S, "p50 latency"},
    {"latency_p90", &data::SweepPoint::latencyP90S, "p90 latency"},
    {"latency_p95", &data::SweepPoint::latencyP95S, "p95 latency"},
    {"latency_p99", &data::SweepPoint::latencyP99S, "p99 latency"},
    {"latency_p999", &data::SweepPoint::latencyP999S, "p99.9 latency"},
};

/// The time units a latency can be corrected to, with their factors to seconds.
constexpr std::pair<const char*, double> kTimeUnits[] = {
    {"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}};

/// Half-width, in decades, of the window around a power of 1000 that counts as a unit slip.
/// Consistent files sit within a factor 2-3 of Little's law (client overheads, percentiles
/// above the mean); 0.75 decades (a factor 5.6) leaves room for that and still rejects a
/// ratio of 40 or 200, which no unit explains.
constexpr double kWindowDecades = 0.75;

/// What physics says a point's mean time in the system is, and how it was found.
struct PhysicsLatency
{
    double seconds = 0.0;
    std::string how;   ///< "batch ÷ throughput".
    std::string where; ///< "at batch 1" or "at batch 8, concurrency 4".
};

/// True when the table's rows ran one request at a time, unless it says otherwise: an MLPerf
/// Offline or MultiStream run issues many queries at once (its latencies span the whole run).
bool oneAtATime(const data::SweepTable& table)
{
    const auto scenario = table.metadata.find("scenario");
    return scenario == table.metadata.end() || scenario->second == "SingleStream";
}

std::optional<PhysicsLatency> physicsLatency(const data::SweepPoint& p,
                                             const data::SweepTable& table)
{
    const data::LoadAxis axis = table.loadAxis;
    if (!p.throughputPerS || !(*p.throughputPerS > 0.0))
        return std::nullopt;
    const double batch = double(p.batchSize);
    const std::string atBatch = "at batch " + std::to_string(p.batchSize);
    if (axis == data::LoadAxis::Concurrency && p.concurrency && *p.concurrency > 0.0) {
        // Little's law per request of `batch` items: in flight = (X / batch) · L.
        return PhysicsLatency{*p.concurrency * batch / *p.throughputPerS,
                              "concurrency × batch ÷ throughput (Little's law)",
                              atBatch + ", concurrency " + significant(*p.concurrency, 6)};
    }
    if (axis == data::LoadAxis::None && !p.concurrency && !p.requestRatePerS && oneAtATime(table)) {
        // One request at a time: each takes batch ÷ throughput.
        return PhysicsLatency{batch / *p.throughputPerS, "batch ÷ throughput", atBatch};
    }
    return std::nullopt; // an open loop: the number in flight is not known
}

/// "2.13 ms": three significant digits in the unit that keeps the number readable.
std::string timeText(double seconds, int digits)
{
    for (const auto& [unit, factor] : kTimeUnits) {
        if (seconds >= factor || factor == 1e-9)
            return significant(seconds / factor, digits) + " " +
                   (std::string_view(unit) == "us" ? "µs" : unit);
    }
    return significant(seconds, digits) + " s";
}

std::optional<std::string> unitWithFactor(double factor)
{
    for (const auto& [unit, f] : kTimeUnits) {
        if (std::abs(f - factor) <= 1e-6 * f)
            return std::string(unit);
    }
    return std::nullopt;
}

double unitFactorOf(const std::string& unit)
{
    for (const auto& [name, f] : kTimeUnits) {
        if (unit == name)
            return f;
    }
    return 1.0;
}

/// One column's verdict: the decades its values sit from physics, and the row that shows it.
struct Verdict
{
    int decades = 0; ///< A multiple of 3: +3 means the values read 1000 times too large.
    std::size_t row = 0;
    PhysicsLatency physics;
};

/// The column's slip in powers of 1000, or nullopt when it is consistent, cannot be checked
/// or sits at no clean power of 1000 (then no unit explains it and nothing is said).
std::optional<Verdict> judge(const data::SweepTable& table, const LatencyField& field,
                             bool& checkable)
{
    std::vector<double> decades;
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < table.points.size(); ++i) {
        const auto& point = table.points[i];
        const auto& value = point.*field.member;
        const auto physics = physicsLatency(point, table);
        if (!value || !(*value > 0.0) || !physics || !(physics->seconds > 0.0))
            continue;
        decades.push_back(std::log10(*value / physics->seconds));
        rows.push_back(i);
    }
    checkable = !decades.empty();
    if (decades.empty())
        return std::nullopt;
    std::vector<double> sorted = decades;
    std::nth_element(sorted.begin(), sorted.begin() + std::ptrdiff_t(sorted.size() / 2),
                     sorted.end());
    const double median = sorted[sorted.size() / 2];
    const int slip = 3 * int(std::lround(median / 3.0));
    if (slip == 0 || std::abs(median - slip) > kWindowDecades)
        return std::nullopt;
    std::optional<std::size_t> first;
    std::size_t agreeing = 0;
    for (std::size_t i = 0; i < decades.size(); ++i) {
        if (std::abs(decades[i] - slip) <= kWindowDecades) {
            ++agreeing;
            if (!first)
                first = rows[i];
        }
    }
    if (2 * agreeing < decades.size())
        return std::nullopt;
    return Verdict{slip, *first, *physicsLatency(table.points[*first], table)};
}

LatencyColumnSource sourceOf(const ReaderContext& context, const LatencyField& field)
{
    for (const auto& source : context.latencyColumns) {
        if (source.field == field.key)
            return source;
    }
    return {field.key, field.label, "", false}; // a fixed format: it states the unit
}

void rescale(data::SweepTable& table, const LatencyField& field, double factor)
{
    for (auto& point : table.points) {
        if (auto& value = point.*field.member)
            *value *= factor;
    }
}

void recordUnit(ReaderContext& context, const std::string& field, const std::string& unit)
{
    auto& options = context.resolvedOptions;
    if (options.is_object() && options.contains("columns") && options["columns"].is_object() &&
        options["columns"].contains(field) && options["columns"][field].is_object())
        options["columns"][field]["unit"] = unit;
}

void report(data::SweepTable& table, ReaderContext& context, const LatencyField& field,
            const Verdict& verdict)
{
    const LatencyColumnSource source = sourceOf(context, field);
    const double read = (table.points[verdict.row].*field.member).value_or(0.0);
    const std::string file = std::filesystem::path(context.path).filename().string();
    const std::string evidence =
        file + ": " + verdict.physics.how + " = " + timeText(verdict.physics.seconds, 3) + " " +
        verdict.physics.where + " while \"" + source.header + "\" read as " + timeText(read, 4);
    const double correction = std::pow(10.0, -verdict.decades);
    const auto corrected = unitWithFactor(unitFactorOf(source.unit) * correction);
    if (source.unitGuessed && corrected) {
        rescale(table, field, correction);
        recordUnit(context, field.key, *corrected);
        context.warnings.add("latency-unit-fixed:" + source.field, 0,
                             evidence + " (its header gives no unit): read as " + *corrected);
        return;
    }
    const std::string size = verdict.decades > 0 ? "large" : "small";
    const std::string stated = source.unit.empty() ? "the unit its format states"
                                                   : "its stated unit (" + source.unit + ")";
    context.warnings.add("latency-unit-suspect:" + source.field, 0,
                         evidence + ", 10^" + std::to_string(std::abs(verdict.decades)) +
                             " times too " + size + " for " + stated +
                             "; kept as stated: check the file");
}

} // namespace

void checkSweepUnits(data::SweepTable& table, ReaderContext& context)
{
    for (const auto& field : kFields) {
        bool checkable = false;
        if (const auto verdict = judge(table, field, checkable)) {
            report(table, context, field, *verdict);
            continue;
        }
        const LatencyColumnSource source = sourceOf(context, field);
        const bool present =
            std::any_of(table.points.begin(), table.points.end(),
                        [&](const data::SweepPoint& p) { return (p.*field.member).has_value(); });
        if (!checkable && present && source.unitGuessed) {
            context.warnings.add("latency-unit-unchecked:" + source.field, 0,
                                 "\"" + source.header + "\" gives no unit and was read in " +
                                     source.unit +
                                     "; the file has no throughput with a known load to "
                                     "check it against");
        }
    }
}

} // namespace bs::io
