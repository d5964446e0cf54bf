#include "io/jsonlrequestreader.h"

#include "io/csvsplitter.h"
#include "io/jsonline.h"
#include "io/linereader.h"
#include "io/nameinterner.h"

#include <cmath>
#include <filesystem>
#include <limits>

namespace bs::io {

namespace {

/// How one JSON Lines request trace names and scales its fields.
struct JsonlLayout
{
    const char* readerName;
    double secondsPerTimestampUnit;
    const char* streamKey; ///< Field read as the stream name; nullptr when none.
};

constexpr JsonlLayout kMooncake{"Mooncake trace", 1e-3, nullptr};
constexpr JsonlLayout kBailian{"Bailian trace", 1.0, "type"};

class JsonlRequestParser
{
public:
    JsonlRequestParser(ByteSource& source, ReaderContext& context, const JsonlLayout& layout)
        : m_context(context)
        , m_layout(layout)
        , m_lines(source, context.progress, context.cancel)
    {}

    Expected<data::RequestTrace> parse();

private:
    Status record(std::string_view line);
    Expected<double> number(const nlohmann::json& object, const char* key) const;
    Expected<std::int32_t> count(const nlohmann::json& object, const char* key) const;
    Error error(std::string message, ErrorCode code = ErrorCode::Format) const
    {
        return m_lines.errorAt(0, code, std::move(message));
    }

    ReaderContext& m_context;
    const JsonlLayout& m_layout;
    LineReader m_lines;
    data::RequestTrace m_trace;
    NameInterner m_streams;
};

Expected<double> JsonlRequestParser::number(const nlohmann::json& object, const char* key) const
{
    const auto it = object.find(key);
    if (it == object.end())
        return error(std::string("the record has no \"") + key + "\" field");
    if (!it->is_number())
        return error(std::string("\"") + key + "\" holds " + it->dump() + ", not a number");
    const double value = it->get<double>();
    if (!std::isfinite(value))
        return error(std::string("\"") + key + "\" holds " + it->dump() +
                         ", which is not a finite number",
                     ErrorCode::Value);
    if (value < 0.0)
        return error(std::string("\"") + key + "\" holds " + it->dump() +
                         "; a negative value is not valid here",
                     ErrorCode::Value);
    return value;
}

Expected<std::int32_t> JsonlRequestParser::count(const nlohmann::json& object,
                                                 const char* key) const
{
    auto value = number(object, key);
    if (!value)
        return value.error();
    if (*value != std::floor(*value) || *value > std::numeric_limits<std::int32_t>::max())
        return error(std::string("\"") + key + "\" holds " + object.at(key).dump() +
                         "; a token count is a whole number below 2^31",
                     ErrorCode::Value);
    return std::int32_t(*value);
}

Status JsonlRequestParser::record(std::string_view line)
{
    auto parsed = parseJsonLine(line, m_lines);
    if (!parsed)
        return parsed.error();
    const nlohmann::json& object = *parsed;
    if (!object.is_object())
        return error("the line holds " + std::string(object.type_name()) +
                     ", not a JSON object (one request per line)");
    auto timestamp = number(object, "timestamp");
    if (!timestamp)
        return timestamp.error();
    auto input = count(object, "input_length");
    if (!input)
        return input.error();
    auto output = count(object, "output_length");
    if (!output)
        return output.error();
    const double arrivalS = *timestamp * m_layout.secondsPerTimestampUnit;
    if (!m_trace.arrivalS.empty() && arrivalS < m_trace.arrivalS.back()) {
        m_context.warnings.add("unsorted", m_lines.lineNumber(),
                               "arrivals are not in time order (this request arrives before the "
                               "one on the line above); kept in file order");
    }
    m_trace.arrivalS.push_back(arrivalS);
    m_trace.inputTokens.push_back(*input);
    m_trace.outputTokens.push_back(*output);
    if (m_layout.streamKey) {
        const auto it = object.find(m_layout.streamKey);
        const std::string name = it == object.end() ? std::string("(none)")
                                 : it->is_string()  ? it->get<std::string>()
                                                    : it->dump();
        m_trace.streamIndex.push_back(m_streams.intern(name));
    }
    return {};
}

Expected<data::RequestTrace> JsonlRequestParser::parse()
{
    if (auto status = refuseReaderOptions(m_context, m_layout.readerName); !status)
        return status.error();
    if (auto status =
            forEachNonBlankLine(m_lines, [&](std::string_view line) { return record(line); });
        !status)
        return status.error();
    const bool anyLine = m_lines.lineNumber() > 0;
    if (m_trace.arrivalS.empty())
        return makeError(ErrorCode::Format, m_context.path, 0, 0,
                         anyLine ? "the file holds only blank lines, no requests"
                                 : "the file is empty");
    m_trace.streamNames = m_streams.take();
    return std::move(m_trace);
}

Expected<data::DatasetContent> readJsonl(ByteSource& source, ReaderContext& context,
                                         const JsonlLayout& layout)
{
    JsonlRequestParser parser(source, context, layout);
    auto trace = parser.parse();
    if (!trace)
        return trace.error();
    trace->name = std::filesystem::path(context.path).filename().string();
    return data::DatasetContent(std::make_shared<const data::RequestTrace>(std::move(*trace)));
}

} // namespace

Expected<data::DatasetContent> readMooncakeTrace(ByteSource& source, ReaderContext& context)
{
    return readJsonl(source, context, kMooncake);
}

Expected<data::DatasetContent> readBailianTrace(ByteSource& source, ReaderContext& context)
{
    return readJsonl(source, context, kBailian);
}

} // namespace bs::io
