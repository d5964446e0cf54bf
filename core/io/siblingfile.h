#pragma once

#include "io/readercontext.h"

#include <string>

namespace bs::io {

/// The file called `name` in the folder of the opened file, or "" when there is none (or the
/// read is in memory): readers join such files (a power log, GPU metrics, an engine series).
std::string siblingFile(const ReaderContext& context, const char* name);

/// An error in a file beside the opened one, as an error of the opened file (the one the user
/// chose), naming the sibling's place, what could not be joined and how to read without it.
Error siblingError(const std::string& opened, const Error& inSibling, const std::string& what,
                   const std::string& withoutIt);

} // namespace bs::io
