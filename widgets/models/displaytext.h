#pragma once

#include <QString>

#include <string>

namespace bs::widgets {

/// How much layout the text may keep.
enum class TextLines
{
    One,  ///< A name, a title, a list row: newline and tab are made visible too.
    Many, ///< A message: newline and tab stay.
};

/// Text that came from a file someone sent (a project title, dataset and scenario names, a
/// reader's message quoting a line) with the characters that would hide or disguise what it
/// says made visible in the "\u001B" notation the CLI uses: C0 controls, DEL, C1 controls and
/// the bidirectional overrides and isolates (U+202A..U+202E, U+2066..U+2069), which can make
/// "report\u202Efdp.exe" read as "reportexe.pdf". Everything else passes unchanged.
QString displayText(const QString& text, TextLines lines = TextLines::One);
QString displayText(const std::string& utf8, TextLines lines = TextLines::One);

} // namespace bs::widgets
