#pragma once

#include "io/csvsplitter.h"
#include "io/linereader.h"
#include "io/numbercell.h"
#include "io/readercontext.h"

#include <string>
#include <vector>

namespace bs::io {

/// Reads a CSV file whose first non-blank line is a header, row by row, with cells found by
/// column name. Rows must have as many fields as the header; blank lines are skipped. Errors
/// name file, line, column and the column's name. For the readers of fixed, known layouts
/// (Model Analyzer, nvidia-smi); the generic readers use MappedCsvReader.
class CsvRecordReader
{
public:
    CsvRecordReader(ByteSource& source, ReaderContext& context, char delimiter = ',');

    /// Reads the header line; an empty file is an error.
    Status readHeader();
    const std::vector<std::string>& headers() const { return m_headers; }
    /// Index of the column called `name`, or -1.
    int index(std::string_view name) const;
    /// Index of the first column whose name starts with `prefix`, or -1.
    int indexStartingWith(std::string_view prefix) const;
    /// How a reader compares column names (e.g. without a unit suffix); nullptr: as written.
    using NameKey = std::string_view (*)(std::string_view);
    /// An error naming the header line when a column the reader uses (`indices`; -1 is
    /// skipped) has a namesake in the header: which of the two holds the values is unclear.
    Status requireUnique(std::initializer_list<int> indices, NameKey key = nullptr) const;

    /// Moves to the next row; false at the end.
    Expected<bool> next();
    std::string_view operator[](int i) const { return m_split[std::size_t(i)]; }
    CellPlace place(int i) const;
    Expected<double> number(int i, CellRule rule = CellRule::NonNegative, double scale = 1.0) const;
    std::int64_t line() const { return m_lines.lineNumber(); }
    Error errorAt(int i, ErrorCode code, std::string message) const;
    /// At the end: warns when the last line had no line ending (see io::warnIfCutShort).
    void warnIfCutShort() { io::warnIfCutShort(m_lines, m_context.warnings); }
    const std::string& path() const { return m_context.path; }

private:
    ReaderContext& m_context;
    LineReader m_lines;
    CsvSplitter m_split;
    std::vector<std::string> m_headers;
    std::vector<std::int64_t> m_headerColumns; ///< Byte column of each header field.
    std::int64_t m_headerLine = 0;
};

} // namespace bs::io
