#pragma once

#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bs::io {

/// What a generic CSV is read into.
enum class MappingTarget
{
    Sweep,        ///< data::SweepTable, one row per operating point.
    RequestTrace, ///< data::RequestTrace, one row per request.
    PowerSeries,  ///< data::PowerSeries, one row per sample.
};

/// The physical kind of a field, which decides the units it accepts.
enum class FieldDimension
{
    Time,        ///< s, ms, us, ns, min, h.
    TimeOrDate,  ///< A Time, or "datetime" (a calendar timestamp, see parseDateTime).
    Count,       ///< Plain number, no unit.
    Rate,        ///< per_s, per_min, per_h.
    Power,       ///< W, mW, kW.
    Energy,      ///< J, mJ, kJ, Wh, kWh.
    Fraction,    ///< fraction (0..1) or pct (0..100).
    Memory,      ///< B, KB, MB, GB, KiB, MiB, GiB.
    Frequency,   ///< Hz, MHz, GHz.
    Temperature, ///< C.
    Label,       ///< Text (stream or tenant names, series names).
};

/// One field a target can hold: its key in the mapping JSON, its dimension, whether a file
/// must provide it, and the header names that suggest it (normalised: lowercase, words).
struct MappingField
{
    std::string key;
    FieldDimension dimension;
    bool required;
    std::vector<std::string> synonyms;
    std::string description;
};

/// A column chosen for a field, with the unit its values are in ("" for counts and labels).
struct ColumnBinding
{
    std::string field;
    std::string column;
    std::string unit;

    friend bool operator==(const ColumnBinding&, const ColumnBinding&) = default;
};

/// Which CSV column feeds which field. Saved with the dataset (Dataset::readerOptionsJson) so
/// a reload reads the file exactly the same way.
struct ColumnMapping
{
    MappingTarget target = MappingTarget::Sweep;
    char delimiter = ',';
    std::vector<ColumnBinding> columns;

    const ColumnBinding* find(std::string_view field) const;
    friend bool operator==(const ColumnMapping&, const ColumnMapping&) = default;
};

/// The fields of a target, in the order a mapping dialog lists them.
const std::vector<MappingField>& mappingFields(MappingTarget target);
const char* mappingTargetName(MappingTarget target);
/// The units a dimension accepts, the default first.
std::vector<std::string> unitsFor(FieldDimension dimension);
/// Factor that converts a value in `unit` to the core unit of its dimension (seconds, per
/// second, watts, joules, fraction 0..1, bytes, MHz, °C); nullopt for an unknown unit.
std::optional<double> unitFactor(FieldDimension dimension, const std::string& unit);

/// A header split into its name and the unit it carries: "latency (ms)", "lat_ms", "power [W]",
/// "util %" -> name and canonical unit ("ms", "W", "pct"); unit is "" when none is written.
struct HeaderName
{
    std::string name; ///< Normalised: lowercase, words separated by single spaces.
    std::string unit;
};
HeaderName splitHeaderUnit(std::string_view header);

/// Suggests a mapping from header names and unit suffixes. `firstRow` (optional) lets it tell
/// calendar timestamps from numbers and percentages from fractions.
ColumnMapping suggestColumnMapping(const std::vector<std::string>& headers,
                                   const std::vector<std::string>& firstRow, MappingTarget target,
                                   char delimiter = ',');

/// {"columns": {"<field>": {"column": "...", "unit": "..."}}, "delimiter": ","}
nlohmann::json toJson(const ColumnMapping& mapping);
/// Reads and validates a mapping (unknown fields, bad units and missing required fields are
/// errors naming the key). `where` is the location shown in messages.
Expected<ColumnMapping> columnMappingFromJson(const nlohmann::json& json, MappingTarget target,
                                              const std::string& path,
                                              const std::string& where = "reader_options");

/// Guesses the delimiter of a header line: the most frequent of ',', ';', tab (',' on ties).
char guessDelimiter(std::string_view headerLine);

} // namespace bs::io
