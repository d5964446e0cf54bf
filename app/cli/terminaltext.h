#pragma once

#include <streambuf>
#include <string>

namespace bs::cli {

/// A stream buffer that passes text on to another one with terminal control characters made
/// visible: C0 controls other than newline and tab, DEL, and the C1 controls (U+0080..U+009F,
/// two bytes in UTF-8) become "\u001B"-style text. Names and titles come from files other
/// people send; raw, an ESC could rewrite the clipboard (OSC 52), the window title or the
/// screen. The same notation is a valid escape inside a JSON string, so --json output stays
/// valid JSON.
class TerminalSafeBuffer : public std::streambuf
{
public:
    explicit TerminalSafeBuffer(std::streambuf* target);
    ~TerminalSafeBuffer() override;

    TerminalSafeBuffer(const TerminalSafeBuffer&) = delete;
    TerminalSafeBuffer& operator=(const TerminalSafeBuffer&) = delete;

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* text, std::streamsize count) override;
    int sync() override;

private:
    void put(unsigned char c, std::string& out);

    std::streambuf* m_target;
    bool m_pendingC2 = false; ///< The last byte was 0xC2, the lead byte of U+0080..U+00BF.
};

/// The same escaping for a string (tests, and text that bypasses the stream).
std::string terminalSafe(const std::string& text);

} // namespace bs::cli
