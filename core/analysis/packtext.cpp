// Text helpers shared by the curve packs (packtext.h).
#include "analysis/packtext.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <system_error>

namespace bs::analysis {

namespace {

std::string field(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

} // namespace

std::string packNumber(double v)
{
    if (!std::isfinite(v))
        return {};
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
    return std::string(buffer, end);
}

void CsvWriter::row(const std::vector<std::string>& fields)
{
    for (std::size_t i = 0; i < fields.size(); ++i)
        m_text += (i ? "," : "") + field(fields[i]);
    m_text += "\n";
}

Status writePackFile(const std::filesystem::path& path, const std::string& content)
{
    std::filesystem::path temporary = path;
    temporary += ".partial";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << content;
        out.close();
        if (!out)
            return makeError(ErrorCode::Io, temporary.string(), 0, 0, "cannot write the file");
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec)
        return makeError(ErrorCode::Io, path.string(), 0, 0,
                         "cannot replace the file: " + ec.message());
    return {};
}

Status makePackFolder(const std::string& folder)
{
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec)
        return makeError(ErrorCode::Io, folder, 0, 0,
                         "cannot create the curve pack folder: " + ec.message());
    return {};
}

} // namespace bs::analysis
