#include "io/kinetoreader.h"

#include "io/jsonpullparser.h"
#include "io/traceeventbuilder.h"

#include <charconv>
#include <filesystem>

namespace bs::io {

namespace {

constexpr std::size_t kMetadataValueLimit = std::size_t(1) << 20;

enum class EventKey
{
    Ph,
    Cat,
    Name,
    Pid,
    Tid,
    Ts,
    Dur,
    Id,
    Args,
    Other
};

EventKey classifyEventKey(std::string_view key)
{
    switch (key.size()) {
    case 2:
        if (key == "ph")
            return EventKey::Ph;
        if (key == "ts")
            return EventKey::Ts;
        if (key == "id")
            return EventKey::Id;
        break;
    case 3:
        if (key == "cat")
            return EventKey::Cat;
        if (key == "pid")
            return EventKey::Pid;
        if (key == "tid")
            return EventKey::Tid;
        if (key == "dur")
            return EventKey::Dur;
        break;
    case 4:
        if (key == "name")
            return EventKey::Name;
        if (key == "args")
            return EventKey::Args;
        break;
    default:
        break;
    }
    return EventKey::Other;
}

enum class ArgKey
{
    Device,
    Stream,
    Correlation,
    ExternalId,
    Name,
    Other
};

ArgKey classifyArgKey(std::string_view key)
{
    if (key == "device")
        return ArgKey::Device;
    if (key == "stream")
        return ArgKey::Stream;
    if (key == "correlation")
        return ArgKey::Correlation;
    if (key == "External id" || key == "external id")
        return ArgKey::ExternalId;
    if (key == "name" || key == "labels")
        return ArgKey::Name;
    return ArgKey::Other;
}

/// A whole number from a JSON number or a string ("7", "0x1f"); nullopt for anything else.
std::optional<std::int64_t> wholeNumber(std::string_view text)
{
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        text.remove_prefix(2);
        base = 16;
    }
    std::int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (ec == std::errc() && ptr == text.data() + text.size())
        return value;
    return std::nullopt;
}

class KinetoParser
{
public:
    KinetoParser(ByteSource& source, ReaderContext& context)
        : m_context(context)
        , m_json(source, context)
        , m_builder(m_trace, context.warnings, [this] { return m_json.currentLine(); })
    {}

    Expected<data::KernelTrace> parse();

private:
    Status objectForm();
    Status eventArray(bool topLevel);
    Expected<bool> openArrayEnd();
    Status event();
    Status eventMember(EventKey key);
    Status args();
    Status readTime(std::optional<Micros>& out, const char* key);
    Status readId(RawId& out);
    Status readInteger(std::int64_t& out);
    Status readString(std::string& out);
    void duplicateKey(std::string_view key);

    ReaderContext& m_context;
    JsonPullParser m_json;
    data::KernelTrace m_trace;
    TraceEventBuilder m_builder;
    RawEvent m_raw;
    std::string m_capture;
    bool m_sawEvents = false;
};

void KinetoParser::duplicateKey(std::string_view key)
{
    const std::string kind = "duplicate-key";
    const std::int64_t line = m_context.warnings.wantsLine(kind) ? m_json.currentLine() : 0;
    m_context.warnings.add(kind, line,
                           "a trace event has the key \"" + std::string(key) +
                               "\" twice; the last value is used, as Chrome's trace viewer does");
}

Status KinetoParser::readString(std::string& out)
{
    auto next = m_json.peek();
    if (!next)
        return next.error();
    if (*next != '"')
        return m_json.skipValue();
    auto text = m_json.string();
    if (!text)
        return text.error();
    out.assign(*text);
    return {};
}

Status KinetoParser::readTime(std::optional<Micros>& out, const char* key)
{
    auto next = m_json.peek();
    if (!next)
        return next.error();
    auto text = *next == '"' ? m_json.string() : m_json.numberText();
    if (!text)
        return text.error();
    out = parseMicros(*text);
    if (!out) {
        return m_json.errorHere(ErrorCode::Value, std::string("\"") + key + "\" holds \"" +
                                                      std::string(*text) +
                                                      "\", which is not a number");
    }
    return {};
}

Status KinetoParser::readInteger(std::int64_t& out)
{
    auto next = m_json.peek();
    if (!next)
        return next.error();
    const char c = *next;
    if (c == '"' || c == '-' || (c >= '0' && c <= '9')) {
        auto text = c == '"' ? m_json.string() : m_json.numberText();
        if (!text)
            return text.error();
        if (const auto value = wholeNumber(*text))
            out = *value;
        return {};
    }
    return m_json.skipValue();
}

Status KinetoParser::readId(RawId& out)
{
    auto next = m_json.peek();
    if (!next)
        return next.error();
    out.present = true;
    if (*next == '"') {
        auto text = m_json.string();
        if (!text)
            return text.error();
        if (const auto value = wholeNumber(*text)) {
            out.number = *value;
            out.isText = false;
        } else {
            out.text.assign(*text);
            out.isText = true;
        }
        return {};
    }
    out.isText = false;
    return readInteger(out.number);
}

Status KinetoParser::args()
{
    if (auto status = m_json.expect('{', "to start \"args\""); !status)
        return status;
    auto first = m_json.peek();
    if (!first)
        return first.error();
    if (*first == '}') {
        return m_json.expect('}', "");
    }
    for (;;) {
        auto keyText = m_json.string();
        if (!keyText)
            return keyText.error();
        const ArgKey key = classifyArgKey(*keyText);
        if (auto status = m_json.expect(':', "after a key in \"args\""); !status)
            return status;
        Status status;
        switch (key) {
        case ArgKey::Device:
            status = readInteger(m_raw.device);
            break;
        case ArgKey::Stream:
            status = readInteger(m_raw.stream);
            break;
        case ArgKey::Correlation:
            status = readInteger(m_raw.correlation);
            break;
        case ArgKey::ExternalId:
            status = readInteger(m_raw.externalId);
            break;
        case ArgKey::Name:
            status = readString(m_raw.argName);
            break;
        case ArgKey::Other:
            status = m_json.skipValue();
            break;
        }
        if (!status)
            return status;
        auto more = m_json.separator('}', "in \"args\"");
        if (!more)
            return more.error();
        if (!*more)
            return {};
    }
}

Status KinetoParser::eventMember(EventKey key)
{
    switch (key) {
    case EventKey::Ph: {
        auto status = readString(m_capture);
        m_raw.ph = m_capture.size() == 1 ? m_capture[0] : (m_capture.empty() ? 0 : '?');
        return status;
    }
    case EventKey::Cat:
        return readString(m_raw.cat);
    case EventKey::Name:
        return readString(m_raw.name);
    case EventKey::Pid:
        return readId(m_raw.pid);
    case EventKey::Tid:
        return readId(m_raw.tid);
    case EventKey::Ts:
        return readTime(m_raw.ts, "ts");
    case EventKey::Dur:
        return readTime(m_raw.dur, "dur");
    case EventKey::Id:
        return readInteger(m_raw.id);
    case EventKey::Args: {
        auto next = m_json.peek();
        if (!next)
            return next.error();
        return *next == '{' ? args() : m_json.skipValue();
    }
    case EventKey::Other:
        return m_json.skipValue();
    }
    return {};
}

Status KinetoParser::event()
{
    auto next = m_json.peek();
    if (!next)
        return next.error();
    if (*next == '\0')
        return m_json.syntaxError("the data ends inside the event array (truncated file?)");
    if (*next != '{')
        return m_json.syntaxError("a trace event must be a JSON object, found " +
                                  std::string(1, *next));
    m_raw.clear();
    if (auto status = m_json.expect('{', ""); !status)
        return status;
    auto first = m_json.peek();
    if (!first)
        return first.error();
    if (*first != '}') {
        unsigned seen = 0; // one bit per EventKey
        for (;;) {
            auto keyText = m_json.string();
            if (!keyText)
                return keyText.error();
            const EventKey key = classifyEventKey(*keyText);
            const unsigned bit = 1u << unsigned(key);
            if (key != EventKey::Other && (seen & bit) != 0)
                duplicateKey(*keyText);
            seen |= bit;
            if (auto status = m_json.expect(':', "after a key in a trace event"); !status)
                return status;
            if (auto status = eventMember(key); !status)
                return status;
            auto more = m_json.separator('}', "in a trace event");
            if (!more)
                return more.error();
            if (!*more)
                break;
        }
    } else if (auto status = m_json.expect('}', ""); !status) {
        return status;
    }
    switch (m_builder.add(m_raw)) {
    case TraceEventBuilder::Added::Ok:
        return {};
    case TraceEventBuilder::Added::NegativeDuration:
        return m_json.errorHere(ErrorCode::Value,
                                "a trace event (\"" + m_raw.name + "\") has a negative duration");
    case TraceEventBuilder::Added::OutOfMemory:
        return m_json.errorHere(ErrorCode::Limit, "out of memory for trace events");
    }
    return {};
}

Status KinetoParser::eventArray(bool topLevel)
{
    if (auto status = m_json.expect('[', "to start the event array"); !status)
        return status;
    m_sawEvents = true;
    auto first = m_json.peek();
    if (!first)
        return first.error();
    if (*first == ']')
        return m_json.expect(']', "");
    for (;;) {
        if (auto status = event(); !status)
            return status;
        if (topLevel) {
            auto open = openArrayEnd();
            if (!open)
                return open.error();
            if (*open)
                return {};
        }
        auto more = m_json.separator(']', "in the event array");
        if (!more)
            return more.error();
        if (!*more)
            return {};
        if (topLevel) {
            auto open = openArrayEnd();
            if (!open)
                return open.error();
            if (*open)
                return {};
        }
    }
}

Expected<bool> KinetoParser::openArrayEnd()
{
    // Chrome's array form may end without its closing bracket (streamed traces).
    auto end = m_json.atEnd();
    if (!end)
        return end.error();
    if (*end) {
        m_context.warnings.add("open-array", 0,
                               "the event array is not closed with ']' (the Chrome trace format "
                               "allows this); all events were read");
    }
    return *end;
}

Status KinetoParser::objectForm()
{
    if (auto status = m_json.expect('{', "to start the trace"); !status)
        return status;
    auto first = m_json.peek();
    if (!first)
        return first.error();
    if (*first == '}')
        return m_json.expect('}', "");
    for (;;) {
        auto keyText = m_json.string();
        if (!keyText)
            return keyText.error();
        const std::string key(*keyText);
        if (auto status = m_json.expect(':', "after a key in the trace object"); !status)
            return status;
        if (key == "traceEvents") {
            if (auto status = eventArray(false); !status)
                return status;
        } else {
            if (auto status = m_json.captureValue(m_capture, kMetadataValueLimit); !status)
                return status;
            m_trace.metadata[key] = m_capture.empty() && key != "traceName"
                                        ? std::string("(larger than 1 MiB, not kept)")
                                        : m_capture;
        }
        auto more = m_json.separator('}', "in the trace object");
        if (!more)
            return more.error();
        if (!*more)
            return {};
    }
}

Expected<data::KernelTrace> KinetoParser::parse()
{
    auto first = m_json.peek();
    if (!first)
        return first.error();
    Status status;
    if (*first == '{')
        status = objectForm();
    else if (*first == '[')
        status = eventArray(true);
    else if (*first == '\0')
        return makeError(ErrorCode::Format, m_context.path, 0, 0, "the file is empty");
    else
        return m_json.syntaxError("a Chrome trace starts with '{' or '['");
    if (!status)
        return status.error();
    auto end = m_json.atEnd();
    if (!end)
        return end.error();
    if (!*end)
        return m_json.syntaxError("unexpected data after the end of the trace");
    if (!m_sawEvents)
        return makeError(ErrorCode::Format, m_context.path, 0, 0,
                         "the JSON object has no \"traceEvents\" array; not a Chrome/Kineto "
                         "trace");
    m_builder.finish();
    return std::move(m_trace);
}

} // namespace

Expected<data::DatasetContent> readKinetoTrace(ByteSource& source, ReaderContext& context)
{
    if (auto status = refuseReaderOptions(context, "trace"); !status)
        return status.error();
    KinetoParser parser(source, context);
    auto trace = parser.parse();
    if (!trace)
        return trace.error();
    bool device = false;
    for (const auto& e : trace->events) {
        if (e.device >= 0) {
            device = true;
            break;
        }
    }
    if (!device)
        context.warnings.add("no-device", 0, "the trace has no device (GPU) events");
    trace->name = std::filesystem::path(context.path).filename().string();
    return data::DatasetContent(std::make_shared<const data::KernelTrace>(std::move(*trace)));
}

} // namespace bs::io
