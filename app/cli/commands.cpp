#include "commands.h"

namespace bs::cli {

const std::vector<CommandSpec>& allCommands()
{
    static const std::vector<CommandSpec> commands = {
        projectCommand(), demoCommand(),     modelCommand(),    fitCommand(),
        inspectCommand(), simulateCommand(), analyzeCommand(),  regionCommand(),
        mergeCommand(),   reportCommand(),   validateCommand(),
    };
    return commands;
}

} // namespace bs::cli
