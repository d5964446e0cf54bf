#pragma once

#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace bs::io {

struct JsonLimits
{
    int maxDepth = 64;                                  ///< Deeper nesting is rejected.
    std::size_t maxStringBytes = std::size_t(16) << 20; ///< Longer tokens are rejected.
};

/// Parses JSON text. Syntax errors name the file, the line and the column of the byte where
/// parsing failed; nesting deeper than limits.maxDepth or a giant token is an ErrorCode::Limit.
Expected<nlohmann::json> parseJson(std::string_view text, const std::string& path,
                                   const JsonLimits& limits = {});

/// Reads a whole JSON file (plain or gzip) of at most maxBytes and parses it as parseJson does.
Expected<nlohmann::json> readJsonFile(const std::string& path, std::uint64_t maxBytes,
                                      const JsonLimits& limits = {});

/// Rules a number read from JSON must satisfy; violations become errors naming the key.
struct NumberRule
{
    std::optional<double> min;
    std::optional<double> max;
    bool minExclusive = false; ///< min itself is not allowed ("must be greater than").
    bool integer = false;

    static NumberRule positive() { return {0.0, std::nullopt, true, false}; }
    static NumberRule nonNegative() { return {0.0, std::nullopt, false, false}; }
    static NumberRule atLeast(double v) { return {v, std::nullopt, false, false}; }
    static NumberRule range(double lo, double hi) { return {lo, hi, false, false}; }
    static NumberRule count(double lo) { return {lo, std::nullopt, false, true}; }
};

/// Reads the fields of one JSON object with validation, keeping the first error. Every key read
/// is remembered, so finish() can reject keys nobody asked for (a typo is an error, not a
/// silently ignored setting). `where` is the dotted location shown in messages
/// ("scenario.policy"); `path` is the file.
class JsonFields
{
public:
    JsonFields(const nlohmann::json& object, std::string where, std::string path = {});

    double number(const char* key, NumberRule rule = {});
    double numberOr(const char* key, double fallback, NumberRule rule = {});
    std::optional<double> optionalNumber(const char* key, NumberRule rule = {});
    std::int64_t integer(const char* key, NumberRule rule = {});
    std::int64_t integerOr(const char* key, std::int64_t fallback, NumberRule rule = {});
    std::uint64_t unsignedOr(const char* key, std::uint64_t fallback);
    std::vector<double> numbers(const char* key, NumberRule rule = {}, bool required = true);
    std::string string(const char* key);
    std::string stringOr(const char* key, std::string fallback);
    /// A string that must be one of `choices`; `fallback` when absent (required when empty).
    std::string choice(const char* key, std::initializer_list<std::string_view> choices,
                       std::string fallback = {});
    bool boolean(const char* key, bool fallback);
    /// The sub-object at key, or nullptr when absent (an error when required, or not an object).
    const nlohmann::json* object(const char* key, bool required = false);
    const nlohmann::json* array(const char* key, bool required = false);
    bool has(const char* key) const;

    /// Records an error about `key` unless one is already recorded.
    void fail(std::string_view key, std::string message, ErrorCode code = ErrorCode::Value);
    /// Takes over the error of a nested reader (its message already names the location).
    void adopt(const Status& nested);
    /// Dotted location of a child, for nested readers.
    std::string child(std::string_view key) const;
    const std::string& path() const { return m_path; }

    bool ok() const { return !m_error.has_value(); }
    /// The first error, or an error for the first key that was never read.
    Status finish();
    /// The first error; keys never read are fine. For files of other tools (a Hugging Face
    /// config.json) that carry many keys BatchScope has no use for.
    Status finishReadingSome();

private:
    const nlohmann::json* find(const char* key, bool required, const char* expected);
    bool check(const char* key, double value, const NumberRule& rule);

    const nlohmann::json& m_object;
    std::string m_where;
    std::string m_path;
    std::set<std::string, std::less<>> m_seen;
    std::optional<Error> m_error;
};

/// The string under `key`, or `fallback` when the key is absent or holds something else (a
/// label a file may omit or get wrong; json::value would throw on a number).
std::string textOr(const nlohmann::json& object, const char* key, std::string fallback = {});

/// Writes value under key when it is set; leaves the key out otherwise.
void putOptional(nlohmann::json& object, const char* key, const std::optional<double>& value);

} // namespace bs::io
