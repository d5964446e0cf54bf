#pragma once

#include "io/readercontext.h"

#include <string>
#include <string_view>
#include <vector>

namespace bs::io {

/// A reader as the GUI's format override list and `inspect --format` show it.
struct ReaderInfo
{
    std::string name;        ///< Stable id, stored in provenance ("perf_analyzer").
    data::DatasetKind kind;  ///< What it produces.
    std::string description; ///< One line for people.
    int version = 1;         ///< Bumped when the same bytes would read differently.
};

/// A registered reader.
struct ReaderEntry
{
    ReaderInfo info;
    ReaderFunction read;
};

/// Every reader, in the order detection tries them.
const std::vector<ReaderEntry>& readerRegistry();
/// The reader called `name`, or nullptr.
const ReaderEntry* findReader(std::string_view name);
/// "a, b, c": the reader names, for messages.
std::string readerNameList();

} // namespace bs::io
