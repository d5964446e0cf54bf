#pragma once

#include "data/dataset.h"
#include "io/jsonfields.h"

#include <nlohmann/json.hpp>

namespace bs::io {

/// JSON shapes of the data values, as stored in project files and printed by `--json`.
/// Keys are snake_case with the unit in the name (latency_p99_s, power_w).
nlohmann::json toJson(const data::RunTags& tags);
nlohmann::json toJson(const data::SweepPoint& point);
nlohmann::json toJson(const data::SweepTable& table);
nlohmann::json toJson(const data::RequestTrace& trace);
nlohmann::json toJson(const data::PowerSeries& series);
nlohmann::json toJson(const data::Provenance& provenance);

data::RunTags runTagsFromJson(JsonFields& parent, const char* key);
Expected<data::SweepTable> sweepTableFromJson(const nlohmann::json& json, const std::string& where,
                                              const std::string& path);
Expected<data::RequestTrace>
requestTraceFromJson(const nlohmann::json& json, const std::string& where, const std::string& path);
Expected<data::PowerSeries> powerSeriesFromJson(const nlohmann::json& json,
                                                const std::string& where, const std::string& path);
/// Reads the provenance object at parent[key]; a "relative_path" entry (written by project
/// files next to "path") goes to *relativePath when given.
data::Provenance provenanceFromJson(JsonFields& parent, const char* key,
                                    std::string* relativePath = nullptr);

} // namespace bs::io
