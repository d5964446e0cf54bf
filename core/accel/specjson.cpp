#include "accel/specjson.h"

#include <cstdio>
#include <sstream>

namespace bs::accel {

std::map<std::string, std::string> readSources(io::JsonFields& fields)
{
    std::map<std::string, std::string> out;
    const nlohmann::json* sources = fields.object("sources");
    if (!sources)
        return out;
    for (const auto& [key, value] : sources->items()) {
        if (!value.is_string()) {
            fields.fail("sources." + key, "must be a string naming the source", ErrorCode::Format);
            return {};
        }
        out[key] = value.get<std::string>();
    }
    return out;
}

void writeSources(nlohmann::json& object, const std::map<std::string, std::string>& sources)
{
    if (sources.empty())
        return;
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, text] : sources)
        out[key] = text;
    object["sources"] = std::move(out);
}

std::string formatNumber(double value)
{
    std::ostringstream out;
    out.precision(6);
    out << value;
    return out.str();
}

} // namespace bs::accel
