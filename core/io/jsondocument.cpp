#include "io/jsondocument.h"

#include "io/jsonfields.h"
#include "io/readdataset.h"

namespace bs::io {

Expected<nlohmann::json> readJsonDocument(ByteSource& source, const std::string& path,
                                          std::uint64_t maxBytes)
{
    auto text = readAll(source, maxBytes);
    if (!text)
        return text.error();
    if (auto status = checkTextContent(*text, path); !status)
        return status.error();
    return parseJson(*text, path);
}

} // namespace bs::io
