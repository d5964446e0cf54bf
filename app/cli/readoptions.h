#pragma once

#include "commandline.h"
#include "io/readdataset.h"

namespace bs::cli {

/// How a command that reads measurement files reads them: `--format NAME` forces a reader and
/// `--reader-options` gives the reader's options, either a JSON object
/// ('{"batch_size": 8}', a column mapping) or KEY=VALUE pairs separated by commas
/// ("batch_size=8,spl=false"; a value that is JSON, a number or true/false, is taken as
/// such, anything else as text). One parser for every command (inspect, fit), so they accept
/// the same words; a usage error names the option.
Expected<io::ReadOptions> readOptionsFromArgs(const ParsedArgs& args);

/// The --reader-options entry of a command's option list.
OptionSpec readerOptionsOption();

} // namespace bs::cli
