#pragma once

#include "io/jsonfields.h"

#include <map>
#include <string>

namespace bs::accel {

/// Reads the optional "sources" object (key → text naming where a number comes from).
std::map<std::string, std::string> readSources(io::JsonFields& fields);

/// Writes `sources` under "sources" unless it is empty.
void writeSources(nlohmann::json& object, const std::map<std::string, std::string>& sources);

/// Shortest text that reads back to the same double (for messages).
std::string formatNumber(double value);

} // namespace bs::accel
