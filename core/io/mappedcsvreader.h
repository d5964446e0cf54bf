#pragma once

#include "io/columnmapping.h"
#include "io/csvsplitter.h"
#include "io/datetime.h"
#include "io/linereader.h"
#include "io/numbercell.h"
#include "io/readercontext.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace bs::io {

/// A mapped field resolved against the header: which cell, and how to convert it.
struct BoundColumn
{
    std::string field;  ///< Mapping key ("arrival").
    std::string header; ///< Column name as written in the file.
    std::size_t index = 0;
    double factor = 1.0;   ///< Converts the file's unit to the core unit.
    bool datetime = false; ///< Calendar timestamps rather than numbers.
    std::string unit;      ///< The file's unit ("ms"; "" for counts and labels).
    /// The header, the user's mapping or the reader stated the unit; false when it was only
    /// the default of a unitless header (what the sweep unit cross-check may correct).
    bool unitStated = true;
};

/// Reads a delimited text file through a ColumnMapping: the header line names the columns, the
/// mapping (given in the reader options, fixed by the reader, or suggested from the header)
/// says which feeds which field, and each row's cells are converted to core units with errors
/// naming file, line, column and column name. Used by the generic CSV readers.
class MappedCsvReader
{
public:
    MappedCsvReader(ByteSource& source, ReaderContext& context, MappingTarget target);

    /// Reads the header (and peeks at the first row to suggest units). With `fixed` the mapping
    /// is the reader's own (Azure traces); otherwise it comes from the reader options, or is
    /// suggested when the options give none. The mapping used is put in
    /// context.resolvedOptions.
    Status start(const std::optional<ColumnMapping>& fixed = std::nullopt);
    /// Moves to the next data row (blank lines are skipped); false at the end.
    Expected<bool> next();

    /// The column bound to `field`, or nullptr when the mapping has none.
    const BoundColumn* column(std::string_view field) const;
    /// Fast path for the common case, without building an Expected: the cell as a finite,
    /// non-negative number in core units. False when it is anything else; then number() gives
    /// the error.
    bool tryNumber(const BoundColumn& column, double& out) const
    {
        const auto value = parseNumber(m_split[column.index]);
        if (!value || !(*value >= 0.0) || *value == HUGE_VAL)
            return false;
        out = *value * column.factor;
        return true;
    }
    /// Fast path for a plain non-negative whole number; false otherwise (integer() says why).
    bool tryInteger(const BoundColumn& column, std::int64_t& out) const
    {
        const std::string_view cell = m_split[column.index];
        const auto [ptr, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), out);
        return ec == std::errc() && ptr == cell.data() + cell.size() && out >= 0;
    }
    /// The current row's cell as a number in core units.
    Expected<double> number(const BoundColumn& column, CellRule rule = CellRule::NonNegative) const;
    /// The current row's cell as a whole number (counts, tokens, ids).
    Expected<std::int64_t> integer(const BoundColumn& column,
                                   CellRule rule = CellRule::NonNegative) const;
    /// The current row's cell as a time: a calendar timestamp, or seconds (after the factor).
    Expected<EpochTime> time(const BoundColumn& column) const;
    std::string_view text(const BoundColumn& column) const { return m_split[column.index]; }

    std::int64_t line() const { return m_lines.lineNumber(); }
    /// Rows the file probably holds (from its size and the first row's length), so columns can
    /// be reserved once instead of growing; 0 when unknown (gzip: the stored size says little).
    std::size_t estimatedRows() const { return m_estimatedRows; }
    const std::string& path() const { return m_context.path; }
    const ColumnMapping& mapping() const { return m_mapping; }
    /// At the end: warns when the last line had no line ending (see io::warnIfCutShort).
    void warnIfCutShort() { io::warnIfCutShort(m_lines, m_context.warnings); }
    /// An error at the current row and the column's cell.
    Error errorAt(const BoundColumn& column, ErrorCode code, std::string message) const;

private:
    /// Where the mapping came from, which says whose word its units are.
    enum class MappingSource
    {
        Fixed,     ///< The reader's own.
        Options,   ///< The user's reader options.
        Suggested, ///< Suggested from the header names.
    };

    Status readHeader();
    Status bind();
    bool unitStated(const MappingField& field, const ColumnBinding& binding) const;
    Status splitRow(std::string_view line);
    CellPlace place(const BoundColumn& column) const;

    ReaderContext& m_context;
    MappingTarget m_target;
    LineReader m_lines;
    ByteSource& m_source;
    CsvSplitter m_split;
    ColumnMapping m_mapping;
    MappingSource m_mappingSource = MappingSource::Suggested;
    std::vector<std::string> m_headers;
    std::vector<BoundColumn> m_bound;
    std::string m_headerLine;
    std::int64_t m_headerLineNumber = 1;
    std::string m_firstRow; ///< Peeked while choosing units; returned by the first next().
    std::int64_t m_firstRowLine = 0;
    bool m_firstRowPending = false;
    std::size_t m_estimatedRows = 0;
};

} // namespace bs::io
