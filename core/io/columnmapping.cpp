#include "io/columnmapping.h"

#include "io/csvsplitter.h"
#include "io/datetime.h"
#include "io/jsonfields.h"
#include "io/numbercell.h"

#include <algorithm>
#include <map>

namespace bs::io {

namespace {

using D = FieldDimension;

const std::vector<MappingField>& sweepFields()
{
    static const std::vector<MappingField> fields = {
        {"batch_size",
         D::Count,
         true,
         {"batch", "batch size", "bs", "max batch size"},
         "Batch size"},
        {"concurrency",
         D::Count,
         false,
         {"concurrency", "clients", "in flight"},
         "Requests in flight"},
        {"request_rate",
         D::Rate,
         false,
         {"request rate", "rate", "qps", "offered load", "target qps"},
         "Offered request rate"},
        {"throughput",
         D::Rate,
         false,
         {"throughput", "inferences/second", "inferences per second", "infer/sec", "ips",
          "samples per second", "items per second", "throughput avg", "avg throughput",
          "throughput inference", "throughput mean"},
         "Inferences (items) per second"},
        {"latency_mean",
         D::Time,
         false,
         {"avg latency", "mean latency", "latency avg", "latency mean", "latency", "avg", "mean"},
         "Mean latency"},
        {"latency_p50",
         D::Time,
         false,
         {"p50", "p50 latency", "latency p50", "latency 50%", "latency 50", "median",
          "median latency"},
         "Median latency"},
        {"latency_p90",
         D::Time,
         false,
         {"p90", "p90 latency", "latency p90", "latency 90%", "latency 90"},
         "90th percentile latency"},
        {"latency_p95",
         D::Time,
         false,
         {"p95", "p95 latency", "latency p95", "latency 95%", "latency 95"},
         "95th percentile latency"},
        {"latency_p99",
         D::Time,
         false,
         {"p99", "p99 latency", "latency p99", "latency 99%", "latency 99"},
         "99th percentile latency"},
        {"latency_p999",
         D::Time,
         false,
         {"p999", "p99.9", "p99 9", "p999 latency", "latency p999", "p99 9 latency",
          "latency 99 9%", "latency 99 9"},
         "99.9th percentile latency"},
        {"power",
         D::Power,
         false,
         {"power", "power draw", "avg power", "watts", "gpu power"},
         "Average power"},
        {"energy_per_inference",
         D::Energy,
         false,
         {"energy per inference", "energy per sample", "energy per item", "energy"},
         "Energy per inference"},
        {"utilization",
         D::Fraction,
         false,
         {"utilization", "util", "gpu utilization", "busy"},
         "Accelerator busy fraction"},
        {"memory", D::Memory, false, {"memory", "mem", "gpu memory", "memory used"}, "Memory used"},
        {"sample_count",
         D::Count,
         false,
         {"samples", "sample count", "requests", "count"},
         "Requests behind the percentiles"},
        {"series",
         D::Label,
         false,
         {"series", "run", "config", "configuration"},
         "Run or configuration"},
    };
    return fields;
}

const std::vector<MappingField>& requestFields()
{
    static const std::vector<MappingField> fields = {
        {"arrival",
         D::TimeOrDate,
         true,
         {"arrival", "arrival time", "arrival s", "arrive", "timestamp", "time", "t", "start",
          "start time", "send time", "request time", "issue time"},
         "When the request reached the server"},
        {"intended",
         D::TimeOrDate,
         false,
         {"intended", "intended time", "scheduled", "scheduled time"},
         "When the load generator meant to send it"},
        {"dispatch",
         D::TimeOrDate,
         false,
         {"dispatch", "dispatch time", "service start", "batch start", "start service"},
         "When its batch started service"},
        {"completion",
         D::TimeOrDate,
         false,
         {"completion", "completion time", "complete", "end", "end time", "finish", "finish time",
          "done", "response time"},
         "When the response was complete"},
        {"latency",
         D::Time,
         false,
         {"latency", "duration", "elapsed"},
         "Completion minus arrival (used when there is no completion column)"},
        {"batch_id", D::Count, false, {"batch id", "batch"}, "Batch the request ran in"},
        {"batch_size", D::Count, false, {"batch size", "bs"}, "Size of that batch"},
        {"stream",
         D::Label,
         false,
         {"stream", "tenant", "client", "user", "model", "queue"},
         "Stream or tenant"},
        {"input_tokens",
         D::Count,
         false,
         {"input tokens", "context tokens", "contexttokens", "prompt tokens", "tokens in"},
         "Prompt (context) tokens"},
        {"output_tokens",
         D::Count,
         false,
         {"output tokens", "generated tokens", "generatedtokens", "completion tokens",
          "tokens out"},
         "Generated tokens"},
    };
    return fields;
}

const std::vector<MappingField>& powerFields()
{
    static const std::vector<MappingField> fields = {
        {"time",
         D::TimeOrDate,
         true,
         {"time", "timestamp", "t", "date", "datetime"},
         "Sample time"},
        {"power", D::Power, true, {"power", "power draw", "watts", "power usage", "w"}, "Power"},
        {"sm_clock",
         D::Frequency,
         false,
         {"sm clock", "clocks current sm", "clock", "sm"},
         "SM clock"},
        {"mem_clock",
         D::Frequency,
         false,
         {"mem clock", "memory clock", "clocks current memory"},
         "Memory clock"},
        {"temperature",
         D::Temperature,
         false,
         {"temperature", "temp", "temperature gpu"},
         "Temperature"},
        {"utilization",
         D::Fraction,
         false,
         {"utilization", "util", "utilization gpu"},
         "Utilisation"},
        {"channel",
         D::Label,
         false,
         {"channel", "gpu", "index", "device"},
         "Device or meter channel"},
    };
    return fields;
}

/// Canonical unit for a unit token written in a header; "" when the token is not a unit.
std::string canonicalUnit(std::string token)
{
    static const std::map<std::string, std::string> units = {
        {"s", "s"},
        {"sec", "s"},
        {"secs", "s"},
        {"second", "s"},
        {"seconds", "s"},
        {"ms", "ms"},
        {"msec", "ms"},
        {"millis", "ms"},
        {"milliseconds", "ms"},
        {"us", "us"},
        {"usec", "us"},
        {"\xc2\xb5s", "us"},
        {"micros", "us"},
        {"microseconds", "us"},
        {"ns", "ns"},
        {"nsec", "ns"},
        {"nanoseconds", "ns"},
        {"min", "min"},
        {"h", "h"},
        {"w", "W"},
        {"watt", "W"},
        {"watts", "W"},
        {"mw", "mW"},
        {"kw", "kW"},
        {"j", "J"},
        {"joule", "J"},
        {"joules", "J"},
        {"mj", "mJ"},
        {"kj", "kJ"},
        {"wh", "Wh"},
        {"kwh", "kWh"},
        {"%", "pct"},
        {"pct", "pct"},
        {"percent", "pct"},
        {"b", "B"},
        {"bytes", "B"},
        {"kb", "KB"},
        {"mb", "MB"},
        {"gb", "GB"},
        {"kib", "KiB"},
        {"mib", "MiB"},
        {"gib", "GiB"},
        {"hz", "Hz"},
        {"mhz", "MHz"},
        {"ghz", "GHz"},
        {"c", "C"},
        {"degc", "C"},
        {"\xc2\xb0"
         "c",
         "C"},
        {"/s", "per_s"},
        {"per s", "per_s"},
        {"per_s", "per_s"},
        {"/sec", "per_s"},
        {"infer/sec", "per_s"},
        {"qps", "per_s"},
        {"per second", "per_s"},
        {"infer/s", "per_s"},
        {"inferences/s", "per_s"},
        {"req/s", "per_s"},
        {"items/s", "per_s"},
        {"/min", "per_min"},
        {"/h", "per_h"},
    };
    const std::string lower = lowercase(token);
    const auto it = units.find(lower);
    if (it != units.end())
        return it->second;
    // "sequences/sec", "images/s", "sentences/second": items of any name per second.
    for (const char* perSecond : {"/sec", "/s", "/second"}) {
        const std::string_view suffix(perSecond);
        if (lower.size() > suffix.size() + 1 &&
            std::string_view(lower).substr(lower.size() - suffix.size()) == suffix &&
            lower.find(' ') == std::string::npos)
            return "per_s";
    }
    return {};
}

/// Lowercase, with '_', '-', '.' and runs of spaces turned into single spaces.
std::string normaliseName(std::string_view text)
{
    std::string out;
    for (char c : lowercase(text)) {
        if (c == '_' || c == '-' || c == '.' || c == ' ' || c == '\t') {
            if (!out.empty() && out.back() != ' ')
                out += ' ';
        } else {
            out += c;
        }
    }
    while (!out.empty() && out.back() == ' ')
        out.pop_back();
    return out;
}

bool looksLikeDate(std::string_view cell)
{
    return parseDateTime(cell).has_value();
}

std::string defaultUnit(FieldDimension dimension, std::string_view sample)
{
    switch (dimension) {
    case D::TimeOrDate:
        return looksLikeDate(sample) ? "datetime" : "s";
    case D::Fraction: {
        const auto value = parseNumber(sample);
        return value && *value > 1.0 ? "pct" : "fraction";
    }
    case D::Count:
    case D::Label:
        return {};
    default:
        return unitsFor(dimension).front();
    }
}

/// Score of a header for a field: 2 exact synonym, 1 all words of a synonym present, 0 none.
int matchScore(const std::string& name, const MappingField& field)
{
    int best = 0;
    for (const auto& synonym : field.synonyms) {
        if (name == synonym)
            return 2;
        if (synonym.find(' ') != std::string::npos &&
            (" " + name + " ").find(" " + synonym + " ") != std::string::npos)
            best = 1;
    }
    return best;
}

} // namespace

const ColumnBinding* ColumnMapping::find(std::string_view field) const
{
    for (const auto& binding : columns) {
        if (binding.field == field)
            return &binding;
    }
    return nullptr;
}

const std::vector<MappingField>& mappingFields(MappingTarget target)
{
    switch (target) {
    case MappingTarget::Sweep:
        return sweepFields();
    case MappingTarget::RequestTrace:
        return requestFields();
    case MappingTarget::PowerSeries:
        return powerFields();
    }
    return sweepFields();
}

const char* mappingTargetName(MappingTarget target)
{
    switch (target) {
    case MappingTarget::Sweep:
        return "sweep";
    case MappingTarget::RequestTrace:
        return "request_trace";
    case MappingTarget::PowerSeries:
        return "power_series";
    }
    return "sweep";
}

std::vector<std::string> unitsFor(FieldDimension dimension)
{
    switch (dimension) {
    case D::Time:
        return {"s", "ms", "us", "ns", "min", "h"};
    case D::TimeOrDate:
        return {"s", "ms", "us", "ns", "min", "h", "datetime"};
    case D::Rate:
        return {"per_s", "per_min", "per_h"};
    case D::Power:
        return {"W", "mW", "kW"};
    case D::Energy:
        return {"J", "mJ", "kJ", "Wh", "kWh"};
    case D::Fraction:
        return {"fraction", "pct"};
    case D::Memory:
        return {"B", "KB", "MB", "GB", "KiB", "MiB", "GiB"};
    case D::Frequency:
        return {"MHz", "Hz", "GHz"};
    case D::Temperature:
        return {"C"};
    case D::Count:
    case D::Label:
        return {""};
    }
    return {""};
}

std::optional<double> unitFactor(FieldDimension dimension, const std::string& unit)
{
    static const std::map<std::string, double> factors = {
        {"s", 1.0},
        {"ms", 1e-3},
        {"us", 1e-6},
        {"ns", 1e-9},
        {"min", 60.0},
        {"h", 3600.0},
        {"datetime", 1.0},
        {"per_s", 1.0},
        {"per_min", 1.0 / 60.0},
        {"per_h", 1.0 / 3600.0},
        {"W", 1.0},
        {"mW", 1e-3},
        {"kW", 1e3},
        {"J", 1.0},
        {"mJ", 1e-3},
        {"kJ", 1e3},
        {"Wh", 3600.0},
        {"kWh", 3.6e6},
        {"fraction", 1.0},
        {"pct", 0.01},
        {"B", 1.0},
        {"KB", 1e3},
        {"MB", 1e6},
        {"GB", 1e9},
        {"KiB", 1024.0},
        {"MiB", 1048576.0},
        {"GiB", 1073741824.0},
        {"Hz", 1e-6},
        {"MHz", 1.0},
        {"GHz", 1e3},
        {"C", 1.0},
        {"", 1.0},
    };
    const auto allowed = unitsFor(dimension);
    if (std::find(allowed.begin(), allowed.end(), unit) == allowed.end())
        return std::nullopt;
    return factors.at(unit);
}

HeaderName splitHeaderUnit(std::string_view header)
{
    std::string_view text = trimmed(header);
    // "name (unit)" or "name [unit]"
    if (!text.empty() && (text.back() == ')' || text.back() == ']')) {
        const char open = text.back() == ')' ? '(' : '[';
        const auto at = text.rfind(open);
        if (at != std::string_view::npos) {
            const std::string unit =
                canonicalUnit(std::string(trimmed(text.substr(at + 1, text.size() - at - 2))));
            if (!unit.empty())
                return {normaliseName(text.substr(0, at)), unit};
        }
    }
    // "name_unit", "name unit", "name%"
    if (!text.empty() && text.back() == '%')
        return {normaliseName(text.substr(0, text.size() - 1)), "pct"};
    const auto sep = text.find_last_of("_ ");
    if (sep != std::string_view::npos && sep + 1 < text.size()) {
        const std::string unit = canonicalUnit(std::string(text.substr(sep + 1)));
        if (!unit.empty() && unit != "B")
            return {normaliseName(text.substr(0, sep)), unit};
    }
    return {normaliseName(text), {}};
}

char guessDelimiter(std::string_view headerLine)
{
    const auto count = [&](char c) { return std::count(headerLine.begin(), headerLine.end(), c); };
    const auto commas = count(',');
    const auto semicolons = count(';');
    const auto tabs = count('\t');
    if (tabs > commas && tabs >= semicolons)
        return '\t';
    if (semicolons > commas)
        return ';';
    return ',';
}

ColumnMapping suggestColumnMapping(const std::vector<std::string>& headers,
                                   const std::vector<std::string>& firstRow, MappingTarget target,
                                   char delimiter)
{
    ColumnMapping mapping;
    mapping.target = target;
    mapping.delimiter = delimiter;
    std::vector<bool> used(headers.size(), false);
    for (int wanted = 2; wanted >= 1; --wanted) {
        for (const auto& field : mappingFields(target)) {
            if (mapping.find(field.key))
                continue;
            for (std::size_t i = 0; i < headers.size(); ++i) {
                if (used[i])
                    continue;
                const HeaderName header = splitHeaderUnit(headers[i]);
                if (matchScore(header.name, field) != wanted)
                    continue;
                const std::string sample = i < firstRow.size() ? firstRow[i] : std::string();
                std::string unit = header.unit;
                if (unit.empty() || !unitFactor(field.dimension, unit))
                    unit = defaultUnit(field.dimension, sample);
                mapping.columns.push_back({field.key, headers[i], unit});
                used[i] = true;
                break;
            }
        }
    }
    return mapping;
}

nlohmann::json toJson(const ColumnMapping& mapping)
{
    nlohmann::json columns = nlohmann::json::object();
    for (const auto& binding : mapping.columns) {
        nlohmann::json entry = {{"column", binding.column}};
        if (!binding.unit.empty())
            entry["unit"] = binding.unit;
        columns[binding.field] = std::move(entry);
    }
    return {{"columns", std::move(columns)}, {"delimiter", std::string(1, mapping.delimiter)}};
}

Expected<ColumnMapping> columnMappingFromJson(const nlohmann::json& json, MappingTarget target,
                                              const std::string& path, const std::string& where)
{
    JsonFields fields(json, where, path);
    ColumnMapping mapping;
    mapping.target = target;
    const std::string delimiter = fields.stringOr("delimiter", ",");
    if (delimiter.size() != 1)
        fields.fail("delimiter", "must be one character");
    else
        mapping.delimiter = delimiter[0];
    const auto* columns = fields.object("columns", true);
    if (columns) {
        for (const auto& field : mappingFields(target)) {
            const auto* entry = columns->contains(field.key) ? &(*columns)[field.key] : nullptr;
            if (!entry)
                continue;
            JsonFields ef(*entry, fields.child("columns." + field.key), path);
            ColumnBinding binding{field.key, ef.string("column"),
                                  ef.stringOr("unit", unitsFor(field.dimension).front())};
            if (ef.ok() && !unitFactor(field.dimension, binding.unit)) {
                std::string allowed;
                for (const auto& u : unitsFor(field.dimension))
                    allowed += (allowed.empty() ? "" : ", ") + u;
                ef.fail("unit", "\"" + binding.unit +
                                    "\" is not a unit for this field (use one of: " + allowed +
                                    ")");
            }
            fields.adopt(ef.finish());
            mapping.columns.push_back(std::move(binding));
        }
        for (const auto& item : columns->items()) {
            // A named string, not a structured binding: clang 14 (the fuzz build) cannot
            // capture bindings in a lambda.
            const std::string& key = item.key();
            const auto& known = mappingFields(target);
            if (std::none_of(known.begin(), known.end(),
                             [&](const MappingField& f) { return f.key == key; })) {
                fields.fail("columns." + key, std::string("is not a field of a ") +
                                                  mappingTargetName(target) + " mapping");
            }
        }
        for (const auto& field : mappingFields(target)) {
            if (field.required && !mapping.find(field.key)) {
                fields.fail("columns",
                            "has no column for the required field \"" + field.key + "\"");
            }
        }
    }
    if (auto status = fields.finish(); !status)
        return status.error();
    return mapping;
}

} // namespace bs::io
