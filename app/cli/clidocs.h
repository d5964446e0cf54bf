#pragma once

#include <string>

namespace bs::cli {

/// The batchscope-cli(1) man page in troff, generated from the command specs so it always lists
/// exactly the commands and options the program has.
std::string manPage();
/// A bash completion script for batchscope-cli, generated from the same specs.
std::string bashCompletion();

} // namespace bs::cli
