#pragma once

#include "commandline.h"

#include <vector>

namespace bs::cli {

/// Every subcommand of batchscope-cli, in the order `--help` lists them.
const std::vector<CommandSpec>& allCommands();

/// The specs, one per subcommand file.
CommandSpec projectCommand();
CommandSpec demoCommand();
CommandSpec modelCommand();
CommandSpec fitCommand();
CommandSpec inspectCommand();
CommandSpec simulateCommand();
CommandSpec analyzeCommand();
CommandSpec regionCommand();
CommandSpec mergeCommand();
CommandSpec reportCommand();
CommandSpec validateCommand();

} // namespace bs::cli
