#include "analysis/tritonconfig.h"

#include "io/utf8text.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <vector>

namespace bs::analysis {

namespace {

struct Token
{
    std::string text;
    int line = 1;
    bool quoted = false;
};

/// Words, numbers, quoted strings and the punctuation { } [ ] : , ; comments (#) dropped.
std::vector<Token> tokenize(const std::string& text)
{
    std::vector<Token> out;
    int line = 1;
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
            ++i;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (c == '#') {
            while (i < text.size() && text[i] != '\n')
                ++i;
        } else if (c == '"' || c == '\'') {
            std::size_t end = i + 1;
            while (end < text.size() && text[end] != c && text[end] != '\n')
                end += text[end] == '\\' ? 2 : 1;
            out.push_back({text.substr(i + 1, end - i - 1), line, true});
            i = end + 1;
        } else if (std::string("{}[]:,;<>").find(c) != std::string::npos) {
            out.push_back({std::string(1, c), line, false});
            ++i;
        } else {
            std::size_t end = i;
            while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) &&
                   std::string("{}[]:,;<>#\"'").find(text[end]) == std::string::npos)
                ++end;
            out.push_back({text.substr(i, end - i), line, false});
            i = end;
        }
    }
    return out;
}

/// A message: its fields in order, each a scalar (word, number, string) or a message.
struct Message
{
    struct Field
    {
        std::string name;
        std::string scalar;
        std::shared_ptr<Message> message;
        int line = 0;
    };
    std::vector<Field> fields;
};

class Parser
{
public:
    Parser(std::vector<Token> tokens, std::string path)
        : m_tokens(std::move(tokens))
        , m_path(std::move(path))
    {}

    Expected<Message> parse()
    {
        Message root;
        if (auto status = fields(root, ""); !status)
            return status.error();
        return root;
    }

private:
    bool at(const char* text) const
    {
        return m_next < m_tokens.size() && !m_tokens[m_next].quoted &&
               m_tokens[m_next].text == text;
    }
    int line() const
    {
        return m_next < m_tokens.size() ? m_tokens[m_next].line
                                        : (m_tokens.empty() ? 1 : m_tokens.back().line);
    }
    /// `what` quotes text of the file: invalid UTF-8 in it is replaced, so the message can be
    /// shown and written to JSON.
    Error fail(const std::string& what) const
    {
        return makeError(ErrorCode::Format, m_path, line(), 0, io::sanitizedUtf8(what));
    }

    /// Fields until `close` ("}" or ">"; "" = the end of the text).
    Status fields(Message& message, const std::string& close)
    {
        while (m_next < m_tokens.size() && !(!close.empty() && at(close.c_str()))) {
            const Token& name = m_tokens[m_next];
            if (name.quoted || std::string("{}[]:,;<>").find(name.text) != std::string::npos)
                return fail("expected a field name, found '" + name.text + "'");
            ++m_next;
            const bool colon = at(":");
            if (colon)
                ++m_next;
            if (at("[")) {
                ++m_next;
                while (!at("]")) {
                    if (m_next >= m_tokens.size())
                        return fail("the list of '" + name.text + "' is not closed with ']'");
                    if (auto status = value(message, name); !status)
                        return status;
                    if (at(","))
                        ++m_next;
                }
                ++m_next;
            } else if (auto status = value(message, name, !colon); !status) {
                return status;
            }
            if (at(",") || at(";"))
                ++m_next;
        }
        if (!close.empty()) {
            if (m_next >= m_tokens.size())
                return fail("a message is not closed with '" + close + "'");
            ++m_next;
        }
        return {};
    }

    /// One value of field `name`: a message in { } or < >, or (unless a message is required,
    /// as after a name without ':') a scalar.
    Status value(Message& message, const Token& name, bool messageOnly = false)
    {
        Message::Field field{name.text, {}, nullptr, name.line};
        if (at("{") || at("<")) {
            // A Triton configuration nests a few levels; a hostile file must not exhaust the
            // stack.
            if (++m_depth > kMaxDepth)
                return makeError(ErrorCode::Limit, m_path, line(), 0,
                                 "messages nested more than " + std::to_string(kMaxDepth) +
                                     " deep");
            const std::string close = at("{") ? "}" : ">";
            ++m_next;
            field.message = std::make_shared<Message>();
            if (auto status = fields(*field.message, close); !status)
                return status;
            --m_depth;
        } else if (messageOnly) {
            return fail("expected ':' or '{' after '" + name.text + "'");
        } else if (m_next < m_tokens.size() &&
                   (m_tokens[m_next].quoted ||
                    std::string("{}[]:,;<>").find(m_tokens[m_next].text) == std::string::npos)) {
            field.scalar = m_tokens[m_next++].text;
        } else {
            return fail("expected a value for '" + name.text + "'");
        }
        message.fields.push_back(std::move(field));
        return {};
    }

    static constexpr int kMaxDepth = 64;
    std::vector<Token> m_tokens;
    std::string m_path;
    std::size_t m_next = 0;
    int m_depth = 0;
};

/// A whole number in [low, high] from field `field`, or an error naming it and its line.
Expected<long long> wholeNumber(const Message::Field& field, const std::string& path, long long low,
                                long long high)
{
    char* end = nullptr;
    const double value = std::strtod(field.scalar.c_str(), &end);
    if (field.message || field.scalar.empty() || *end != '\0' || value != std::floor(value) ||
        value < double(low) || value > double(high))
        return makeError(ErrorCode::Value, path, field.line, 0,
                         io::sanitizedUtf8(field.name + ": '" + field.scalar +
                                           "' is not a whole number from " + std::to_string(low) +
                                           " to " + std::to_string(high)));
    return static_cast<long long>(value);
}

} // namespace

Expected<TritonModelSettings> tritonSettingsFromConfig(const std::string& text,
                                                       const std::string& path)
{
    auto root = Parser(tokenize(text), path).parse();
    if (!root)
        return root.error();
    TritonModelSettings settings;
    long long maxBatch = 0, instances = 0;
    bool dynamic = false, anyGroup = false;
    for (const auto& field : root->fields) {
        if (field.name == "max_batch_size") {
            auto value = wholeNumber(field, path, 0, 1 << 30);
            if (!value)
                return value.error();
            maxBatch = *value;
        } else if (field.name == "instance_group" && field.message) {
            anyGroup = true;
            long long count = 1; // Triton's default count
            bool onGpu = true;
            for (const auto& inner : field.message->fields) {
                if (inner.name == "count") {
                    auto value = wholeNumber(inner, path, 1, 4096);
                    if (!value)
                        return value.error();
                    count = *value;
                } else if (inner.name == "kind") {
                    onGpu = inner.scalar == "KIND_GPU" || inner.scalar == "KIND_AUTO";
                }
            }
            if (onGpu)
                instances += count;
        } else if (field.name == "dynamic_batching" && field.message) {
            dynamic = true;
            for (const auto& inner : field.message->fields) {
                if (inner.name == "preferred_batch_size") {
                    auto value = wholeNumber(inner, path, 1, 1 << 30);
                    if (!value)
                        return value.error();
                    settings.preferredBatchItems.push_back(int(*value));
                } else if (inner.name == "max_queue_delay_microseconds") {
                    auto value = wholeNumber(inner, path, 0, 1LL << 40);
                    if (!value)
                        return value.error();
                    settings.maxQueueDelayS = double(*value) * 1e-6;
                }
            }
        }
    }
    settings.instances = anyGroup ? int(std::max(instances, 1LL)) : 1;
    settings.maxBatchItems = dynamic ? int(maxBatch) : 0;
    for (int preferred : settings.preferredBatchItems)
        if (dynamic && maxBatch > 0 && preferred > maxBatch)
            return makeError(ErrorCode::Value, path, 0, 0,
                             "preferred_batch_size " + std::to_string(preferred) +
                                 " is larger than max_batch_size " + std::to_string(maxBatch));
    return settings;
}

} // namespace bs::analysis
