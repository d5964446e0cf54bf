#include "readoptions.h"

#include <nlohmann/json.hpp>

namespace bs::cli {

namespace {

using nlohmann::json;

Error usage(const std::string& message)
{
    return makeError(ErrorCode::Usage, "--reader-options: " + message);
}

/// "batch_size=8,spl=false" -> {"batch_size": 8, "spl": false}.
Expected<json> keyValuePairs(const std::string& text)
{
    json out = json::object();
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto comma = text.find(',', start);
        const std::string pair =
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        start = comma == std::string::npos ? text.size() + 1 : comma + 1;
        const auto equals = pair.find('=');
        if (equals == std::string::npos || equals == 0)
            return usage("'" + pair + "' is not KEY=VALUE (give KEY=VALUE,... or a JSON object)");
        const std::string key = pair.substr(0, equals);
        if (out.contains(key))
            return usage("the key '" + key + "' is given twice");
        const std::string value = pair.substr(equals + 1);
        // A number or true/false keeps its type; text (a delimiter, a name) stays text.
        json parsed = json::parse(value, nullptr, false);
        out[key] = parsed.is_discarded() || parsed.is_structured() || parsed.is_string()
                       ? json(value)
                       : std::move(parsed);
    }
    return out;
}

} // namespace

Expected<io::ReadOptions> readOptionsFromArgs(const ParsedArgs& args)
{
    io::ReadOptions options;
    options.format = args.value("--format").value_or("");
    const auto text = args.value("--reader-options");
    if (!text)
        return options;
    const auto first = text->find_first_not_of(" \t\r\n");
    if (first != std::string::npos && (*text)[first] != '{' && (*text)[first] != '[') {
        auto pairs = keyValuePairs(*text);
        if (!pairs)
            return pairs.error();
        options.readerOptions = std::move(*pairs);
        return options;
    }
    try {
        options.readerOptions = json::parse(*text);
    } catch (const json::exception& e) { // syntax, or a number out of range (1e999)
        return usage(std::string("not valid JSON (") + e.what() + ")");
    }
    if (!options.readerOptions.is_object())
        return usage("must be a JSON object");
    return options;
}

OptionSpec readerOptionsOption()
{
    return {"--reader-options", "OPTS",
            "reader options: a JSON object ('{\"batch_size\": 8}', a column mapping) or "
            "KEY=VALUE,... (batch_size=8)"};
}

} // namespace bs::cli
