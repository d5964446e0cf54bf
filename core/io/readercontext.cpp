#include "io/readercontext.h"

namespace bs::io {

Status refuseReaderOptions(const ReaderContext& context, const std::string& what)
{
    if (context.options.empty())
        return {};
    return makeError(ErrorCode::Format, context.path, 0, 0,
                     "reader_options: the " + what + " reader takes no options (got \"" +
                         context.options.begin().key() + "\")");
}

} // namespace bs::io
