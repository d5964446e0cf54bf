#include "io/csvpreview.h"

#include "io/bytesource.h"
#include "io/columnmapping.h"
#include "io/csvsplitter.h"
#include "io/linereader.h"

namespace bs::io {

Expected<CsvPreview> previewCsv(const std::string& path, std::size_t rows)
{
    auto source = openByteSource(path);
    if (!source)
        return source.error();
    LineReader reader(**source);
    CsvPreview preview;
    std::string_view line;
    CsvSplitter splitter;
    for (;;) {
        auto more = reader.next(line);
        if (!more)
            return more.error();
        if (!*more)
            break;
        if (trimmed(line).empty())
            continue;
        if (preview.headers.empty()) {
            preview.delimiter = guessDelimiter(line);
            splitter = CsvSplitter(preview.delimiter);
        }
        if (auto status = splitter.split(line); !status) {
            return makeError(ErrorCode::Format, path, reader.lineNumber(), status.error().column,
                             status.error().message);
        }
        std::vector<std::string> fields(splitter.fields().begin(), splitter.fields().end());
        if (preview.headers.empty()) {
            preview.headers = std::move(fields);
            continue;
        }
        preview.rows.push_back(std::move(fields));
        if (preview.rows.size() >= rows)
            break;
    }
    if (preview.headers.empty())
        return makeError(ErrorCode::Format, path, 0, 0, "the file is empty: no header line");
    return preview;
}

} // namespace bs::io
