#include "io/jsonfields.h"

#include "io/bytesource.h"
#include "io/utf8text.h"

#include <cmath>
#include <sstream>
#include <tuple>

namespace bs::io {

namespace {

/// Line and column (1-based) of a byte offset, for parse errors.
std::pair<std::int64_t, std::int64_t> lineAndColumn(std::string_view text, std::size_t offset)
{
    offset = std::min(offset, text.size());
    std::int64_t line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    return {line, std::int64_t(offset - lineStart) + 1};
}

/// An Error for a JSON number too large for a double, placed at the number's first occurrence.
Error numberOverflowError(std::string_view text, const std::string& path, std::string_view what)
{
    std::string number;
    const auto open = what.find('\'');
    const auto close = what.rfind('\'');
    if (open != std::string_view::npos && close > open)
        number = sanitizedUtf8(what.substr(open + 1, close - open - 1));
    std::int64_t line = 0;
    std::int64_t column = 0;
    if (const auto at = number.empty() ? std::string_view::npos : text.find(number);
        at != std::string_view::npos)
        std::tie(line, column) = lineAndColumn(text, at);
    return makeError(ErrorCode::Value, path, line, column,
                     "the number " + (number.empty() ? std::string("in the JSON") : number) +
                         " is too large to hold (beyond about 1.8e308)");
}

constexpr double kMaxExactInteger = 9007199254740992.0; // 2^53

std::string formatNumber(double v)
{
    std::ostringstream out;
    out << v;
    return out.str();
}

/// Follows the parser's callbacks to know the dotted location of every key, and finds a key
/// given twice in one object: nlohmann keeps the last silently, so a project could show one
/// value to a reviewer reading the text and use another.
class DuplicateKeyFinder
{
public:
    /// The dotted location of a key that is given twice, once one is seen.
    std::optional<std::string> operator()(nlohmann::json::parse_event_t event,
                                          const nlohmann::json& value)
    {
        using Event = nlohmann::json::parse_event_t;
        switch (event) {
        case Event::object_start:
        case Event::array_start:
            m_frames.push_back({event == Event::object_start, childName(), {}, {}, 0});
            break;
        case Event::key: {
            if (m_frames.empty())
                break;
            auto& frame = m_frames.back();
            frame.pendingKey = value.get<std::string>();
            if (!frame.keys.insert(frame.pendingKey).second)
                return location(frame.pendingKey);
            break;
        }
        case Event::object_end:
        case Event::array_end:
            if (!m_frames.empty())
                m_frames.pop_back();
            elementDone();
            break;
        case Event::value:
            elementDone();
            break;
        }
        return std::nullopt;
    }

private:
    struct Frame
    {
        bool object = false;
        std::string name;
        std::set<std::string, std::less<>> keys;
        std::string pendingKey;
        std::size_t index = 0;
    };

    std::string childName() const
    {
        if (m_frames.empty())
            return {};
        const auto& parent = m_frames.back();
        return parent.object ? parent.pendingKey : "[" + std::to_string(parent.index) + "]";
    }
    void elementDone()
    {
        if (!m_frames.empty() && !m_frames.back().object)
            ++m_frames.back().index;
    }
    std::string location(const std::string& key) const
    {
        std::string out;
        for (std::size_t i = 1; i < m_frames.size(); ++i)
            out += (m_frames[i].name.starts_with('[') || out.empty() ? "" : ".") + m_frames[i].name;
        return out.empty() ? key : out + "." + key;
    }

    std::vector<Frame> m_frames;
};

} // namespace

Expected<nlohmann::json> parseJson(std::string_view text, const std::string& path,
                                   const JsonLimits& limits)
{
    std::optional<Error> limitError;
    DuplicateKeyFinder duplicates;
    auto guard = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& value) {
        // Once a limit is hit the parser skips events of discarded values: stop following.
        if (auto key = limitError ? std::nullopt : duplicates(event, value))
            limitError = makeError(ErrorCode::Format, path, 0, 0,
                                   sanitizedUtf8(*key) +
                                       ": the key is given twice in the same object (which "
                                       "value was meant is unclear)");
        if (depth > limits.maxDepth && !limitError) {
            limitError = makeError(ErrorCode::Limit, path, 0, 0,
                                   "JSON nested deeper than " + std::to_string(limits.maxDepth) +
                                       " levels; refusing to read it");
        }
        if (event == nlohmann::json::parse_event_t::value && value.is_string() &&
            value.get_ref<const std::string&>().size() > limits.maxStringBytes && !limitError) {
            limitError = makeError(ErrorCode::Limit, path, 0, 0,
                                   "a JSON string longer than " +
                                       std::to_string(limits.maxStringBytes) + " bytes");
        }
        // Returning false discards the value, so nothing more is built once a limit is hit.
        return !limitError.has_value();
    };
    try {
        nlohmann::json parsed = nlohmann::json::parse(text.begin(), text.end(), guard);
        if (limitError)
            return *limitError;
        return parsed;
    } catch (const nlohmann::json::parse_error& e) {
        if (limitError)
            return *limitError;
        const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
        auto [line, column] = lineAndColumn(text, offset);
        std::string what = e.what();
        // nlohmann's text is "[json.exception.parse_error.101] parse error at line L, column C:
        // <reason>; last read: '<bytes>'"; keep the reason. The bytes quoted from the file need
        // not be UTF-8, and the message goes to JSON output and the GUI: replace bad sequences.
        const auto reason = what.find(": ", what.find("column "));
        return makeError(ErrorCode::Format, path, line, column,
                         "JSON syntax error: " +
                             sanitizedUtf8(reason == std::string::npos
                                               ? std::string_view(what)
                                               : std::string_view(what).substr(reason + 2)));
    } catch (const nlohmann::json::out_of_range& e) {
        // 406 "number overflow parsing '1e999'": valid JSON, but no double holds it. nlohmann
        // gives no position; the first occurrence of the number is the likely place.
        return numberOverflowError(text, path, e.what());
    }
}

Expected<nlohmann::json> readJsonFile(const std::string& path, std::uint64_t maxBytes,
                                      const JsonLimits& limits)
{
    auto source = openByteSource(path);
    if (!source)
        return source.error();
    auto text = readAll(**source, maxBytes);
    if (!text)
        return text.error();
    return parseJson(*text, path, limits);
}

JsonFields::JsonFields(const nlohmann::json& object, std::string where, std::string path)
    : m_object(object)
    , m_where(std::move(where))
    , m_path(std::move(path))
{
    if (!m_object.is_object())
        m_error = makeError(ErrorCode::Format, m_path, 0, 0, m_where + ": expected a JSON object");
}

std::string JsonFields::child(std::string_view key) const
{
    return m_where.empty() ? std::string(key) : m_where + "." + std::string(key);
}

void JsonFields::fail(std::string_view key, std::string message, ErrorCode code)
{
    if (!m_error)
        m_error = makeError(code, m_path, 0, 0, child(key) + ": " + std::move(message));
}

void JsonFields::adopt(const Status& nested)
{
    if (!nested && !m_error)
        m_error = nested.error();
}

bool JsonFields::has(const char* key) const
{
    return m_object.is_object() && m_object.contains(key);
}

const nlohmann::json* JsonFields::find(const char* key, bool required, const char* expected)
{
    m_seen.insert(key);
    if (!m_object.is_object())
        return nullptr;
    const auto it = m_object.find(key);
    if (it == m_object.end() || it->is_null()) {
        if (required)
            fail(key, std::string("missing; expected ") + expected, ErrorCode::Format);
        return nullptr;
    }
    return &*it;
}

bool JsonFields::check(const char* key, double value, const NumberRule& rule)
{
    if (!std::isfinite(value)) {
        fail(key, "must be a finite number");
        return false;
    }
    if (rule.integer && value != std::floor(value)) {
        fail(key, "must be a whole number (got " + formatNumber(value) + ")");
        return false;
    }
    // Whole numbers are cast to 64-bit integers; beyond 2^53 a double no longer holds every
    // whole number, and from 2^63 on the cast is undefined.
    if (rule.integer && std::fabs(value) > kMaxExactInteger) {
        fail(key,
             "must be a whole number between -2^53 and 2^53 (got " + formatNumber(value) + ")");
        return false;
    }
    if (rule.min) {
        if (rule.minExclusive && value <= *rule.min) {
            fail(key, "must be greater than " + formatNumber(*rule.min) + " (got " +
                          formatNumber(value) + ")");
            return false;
        }
        if (!rule.minExclusive && value < *rule.min) {
            fail(key, "must be at least " + formatNumber(*rule.min) + " (got " +
                          formatNumber(value) + ")");
            return false;
        }
    }
    if (rule.max && value > *rule.max) {
        fail(key,
             "must be at most " + formatNumber(*rule.max) + " (got " + formatNumber(value) + ")");
        return false;
    }
    return true;
}

std::optional<double> JsonFields::optionalNumber(const char* key, NumberRule rule)
{
    const auto* value = find(key, false, "a number");
    if (!value)
        return std::nullopt;
    if (!value->is_number()) {
        fail(key, "must be a number", ErrorCode::Format);
        return std::nullopt;
    }
    const double v = value->get<double>();
    if (!check(key, v, rule))
        return std::nullopt;
    return v;
}

double JsonFields::number(const char* key, NumberRule rule)
{
    if (!find(key, true, "a number"))
        return 0.0;
    return optionalNumber(key, rule).value_or(0.0);
}

double JsonFields::numberOr(const char* key, double fallback, NumberRule rule)
{
    return optionalNumber(key, rule).value_or(fallback);
}

std::int64_t JsonFields::integer(const char* key, NumberRule rule)
{
    rule.integer = true;
    return std::int64_t(number(key, rule));
}

std::int64_t JsonFields::integerOr(const char* key, std::int64_t fallback, NumberRule rule)
{
    rule.integer = true;
    const auto v = optionalNumber(key, rule);
    return v ? std::int64_t(*v) : fallback;
}

std::uint64_t JsonFields::unsignedOr(const char* key, std::uint64_t fallback)
{
    const auto* value = find(key, false, "a whole number");
    if (!value)
        return fallback;
    if (value->is_number_unsigned())
        return value->get<std::uint64_t>();
    if (value->is_number_integer() && value->get<std::int64_t>() >= 0)
        return std::uint64_t(value->get<std::int64_t>());
    fail(key, "must be a non-negative whole number", ErrorCode::Format);
    return fallback;
}

std::vector<double> JsonFields::numbers(const char* key, NumberRule rule, bool required)
{
    std::vector<double> out;
    const auto* value = find(key, required, "an array of numbers");
    if (!value)
        return out;
    if (!value->is_array()) {
        fail(key, "must be an array of numbers", ErrorCode::Format);
        return out;
    }
    for (std::size_t i = 0; i < value->size(); ++i) {
        const auto& item = (*value)[i];
        const std::string itemKey = std::string(key) + "[" + std::to_string(i) + "]";
        if (!item.is_number()) {
            fail(itemKey, "must be a number", ErrorCode::Format);
            return {};
        }
        const double v = item.get<double>();
        if (!check(itemKey.c_str(), v, rule))
            return {};
        out.push_back(v);
    }
    return out;
}

std::string JsonFields::string(const char* key)
{
    const auto* value = find(key, true, "a string");
    if (!value)
        return {};
    if (!value->is_string()) {
        fail(key, "must be a string", ErrorCode::Format);
        return {};
    }
    return value->get<std::string>();
}

std::string JsonFields::stringOr(const char* key, std::string fallback)
{
    const auto* value = find(key, false, "a string");
    if (!value)
        return fallback;
    if (!value->is_string()) {
        fail(key, "must be a string", ErrorCode::Format);
        return fallback;
    }
    return value->get<std::string>();
}

std::string JsonFields::choice(const char* key, std::initializer_list<std::string_view> choices,
                               std::string fallback)
{
    const bool required = fallback.empty();
    const auto* value = find(key, required, "a string");
    if (!value)
        return fallback;
    std::string list;
    for (auto c : choices)
        list += (list.empty() ? "" : ", ") + std::string(c);
    if (!value->is_string()) {
        fail(key, "must be one of: " + list, ErrorCode::Format);
        return fallback;
    }
    const auto& text = value->get_ref<const std::string&>();
    for (auto c : choices) {
        if (text == c)
            return text;
    }
    fail(key, "unknown value '" + text + "'; expected one of: " + list);
    return fallback;
}

bool JsonFields::boolean(const char* key, bool fallback)
{
    const auto* value = find(key, false, "true or false");
    if (!value)
        return fallback;
    if (!value->is_boolean()) {
        fail(key, "must be true or false", ErrorCode::Format);
        return fallback;
    }
    return value->get<bool>();
}

const nlohmann::json* JsonFields::object(const char* key, bool required)
{
    const auto* value = find(key, required, "an object");
    if (value && !value->is_object()) {
        fail(key, "must be an object", ErrorCode::Format);
        return nullptr;
    }
    return value;
}

const nlohmann::json* JsonFields::array(const char* key, bool required)
{
    const auto* value = find(key, required, "an array");
    if (value && !value->is_array()) {
        fail(key, "must be an array", ErrorCode::Format);
        return nullptr;
    }
    return value;
}

Status JsonFields::finishReadingSome()
{
    if (m_error)
        return *m_error;
    return {};
}

Status JsonFields::finish()
{
    if (m_error)
        return *m_error;
    for (const auto& [key, value] : m_object.items()) {
        if (!m_seen.contains(key)) {
            std::string known;
            for (const auto& seen : m_seen)
                known += (known.empty() ? "" : ", ") + seen;
            return makeError(ErrorCode::Format, m_path, 0, 0,
                             child(key) + ": unknown key (known keys here: " + known + ")");
        }
    }
    return {};
}

std::string textOr(const nlohmann::json& object, const char* key, std::string fallback)
{
    if (!object.is_object())
        return fallback;
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : fallback;
}

void putOptional(nlohmann::json& object, const char* key, const std::optional<double>& value)
{
    if (value)
        object[key] = *value;
}

} // namespace bs::io
