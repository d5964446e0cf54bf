#include "terminaltext.h"

#include <cstdio>
#include <sstream>

namespace bs::cli {

namespace {

void appendEscape(unsigned code, std::string& out)
{
    char text[8];
    std::snprintf(text, sizeof text, "\\u%04X", code);
    out += text;
}

} // namespace

TerminalSafeBuffer::TerminalSafeBuffer(std::streambuf* target)
    : m_target(target)
{}

TerminalSafeBuffer::~TerminalSafeBuffer()
{
    if (m_pendingC2)
        m_target->sputc(char(0xC2));
    m_target->pubsync();
}

void TerminalSafeBuffer::put(unsigned char c, std::string& out)
{
    if (m_pendingC2) {
        m_pendingC2 = false;
        if (c >= 0x80 && c <= 0x9F) {
            appendEscape(c, out);
            return;
        }
        out += char(0xC2);
    }
    if (c == 0xC2) {
        m_pendingC2 = true;
        return;
    }
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
        appendEscape(c, out);
        return;
    }
    out += char(c);
}

TerminalSafeBuffer::int_type TerminalSafeBuffer::overflow(int_type c)
{
    if (traits_type::eq_int_type(c, traits_type::eof()))
        return traits_type::not_eof(c);
    const char byte = traits_type::to_char_type(c);
    return xsputn(&byte, 1) == 1 ? c : traits_type::eof();
}

std::streamsize TerminalSafeBuffer::xsputn(const char* text, std::streamsize count)
{
    std::string out;
    out.reserve(std::size_t(count));
    for (std::streamsize i = 0; i < count; ++i)
        put(static_cast<unsigned char>(text[i]), out);
    const auto size = std::streamsize(out.size());
    return m_target->sputn(out.data(), size) == size ? count : 0;
}

int TerminalSafeBuffer::sync()
{
    return m_target->pubsync();
}

std::string terminalSafe(const std::string& text)
{
    std::stringbuf sink;
    {
        TerminalSafeBuffer buffer(&sink);
        buffer.sputn(text.data(), std::streamsize(text.size()));
    }
    return sink.str();
}

} // namespace bs::cli
