#include "clidocs.h"
#include "commands.h"
#include "terminaltext.h"
#include "util/version.h"

#ifdef BATCHSCOPE_HAVE_QT_RENDER
#include "qtrenderhooks.h"
#endif

#include <exception>
#include <iostream>
#include <string>
#include <vector>

namespace {

void printOverview(std::ostream& out)
{
    out << "batchscope-cli " << bs::kVersionString
        << " — batch policy workbench for inference accelerators (headless)\n\n"
        << "Usage: batchscope-cli COMMAND [ARGS...] [--json]\n\nCommands:\n";
    for (const auto& command : bs::cli::allCommands()) {
        std::string name = "  " + command.name;
        name.resize(16, ' ');
        out << name << command.summary << "\n";
    }
    out << "\nbatchscope-cli COMMAND --help shows a command's options.\n"
        << "Exit codes: 0 success, 1 bad input, 2 usage error.\n";
}

} // namespace

int main(int argc, char** argv)
{
#ifdef BATCHSCOPE_HAVE_QT_RENDER
    bs::render::QtRenderSession renderSession(argc, argv);
#endif
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        printOverview(std::cout);
        return args.empty() ? bs::cli::kExitUsage : bs::cli::kExitOk;
    }
    // Build-time generators for the man page and the bash completion (see packaging/).
    if (args[0] == "--manpage") {
        std::cout << bs::cli::manPage();
        return bs::cli::kExitOk;
    }
    if (args[0] == "--bash-completion") {
        std::cout << bs::cli::bashCompletion();
        return bs::cli::kExitOk;
    }
    if (args[0] == "--version") {
        std::cout << "batchscope-cli " << bs::kVersionString << "\n";
        return bs::cli::kExitOk;
    }
    for (const auto& command : bs::cli::allCommands()) {
        if (command.name != args[0])
            continue;
        const std::vector<std::string> rest(args.begin() + 1, args.end());
        // Everything a command prints may quote a file: control characters are made visible.
        bs::cli::TerminalSafeBuffer outBuffer(std::cout.rdbuf());
        bs::cli::TerminalSafeBuffer errBuffer(std::cerr.rdbuf());
        std::ostream out(&outBuffer);
        std::ostream err(&errBuffer);
        err.setf(std::ios::unitbuf); // errors appear at once, as on std::cerr
        bs::cli::CliIo io{out, err};
        auto parsed = bs::cli::parseArgs(command, rest);
        if (!parsed)
            return bs::cli::reportError(parsed.error(), bs::cli::ParsedArgs{}, io);
        if (parsed->has("--help")) {
            std::cout << bs::cli::helpText(command);
            return bs::cli::kExitOk;
        }
        // Readers return errors, never throw; should a bug still let an exception out, the
        // user gets its text and exit code 1 instead of an abort.
        try {
            return command.run(*parsed, io);
        } catch (const std::exception& e) {
            err << "batchscope-cli " << command.name << ": internal error: " << e.what()
                << " (please report this with the input that caused it)\n";
            return bs::cli::kExitBadInput;
        }
    }
    std::cerr << "batchscope-cli: unknown command '" << args[0]
              << "' (batchscope-cli --help lists the commands)\n";
    return bs::cli::kExitUsage;
}
