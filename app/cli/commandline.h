#pragma once

#include "util/expected.h"

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace bs::cli {

/// One option a subcommand accepts. An empty valueName makes it a flag.
struct OptionSpec
{
    std::string name; ///< With the dashes: "--seed".
    std::string valueName;
    std::string help;
};

/// The parsed command line of one subcommand.
struct ParsedArgs
{
    std::map<std::string, std::string> values;
    std::set<std::string> flags;
    std::vector<std::string> positionals;

    bool has(const std::string& name) const
    {
        return flags.contains(name) || values.contains(name);
    }
    std::optional<std::string> value(const std::string& name) const;
    bool json() const { return flags.contains("--json"); }
};

/// Where a command writes: results on out, diagnostics on err.
struct CliIo
{
    std::ostream& out;
    std::ostream& err;
};

struct CommandSpec;
using CommandFunction = int (*)(const ParsedArgs&, CliIo&);

/// A subcommand: its name, what it does and what it accepts. --help and --json are implied.
struct CommandSpec
{
    std::string name;
    std::string synopsis; ///< e.g. "project info FILE.bsproj"
    std::string summary;  ///< One line for the command list.
    std::string description;
    std::vector<OptionSpec> options;
    CommandFunction run = nullptr;
};

/// Exit codes of batchscope-cli.
enum ExitCode
{
    kExitOk = 0,
    kExitBadInput = 1,
    kExitUsage = 2,
    kExitDraft = 3, ///< `report` wrote a DRAFT report (allowed with --allow-draft).
};

Expected<ParsedArgs> parseArgs(const CommandSpec& spec, const std::vector<std::string>& args);
std::string helpText(const CommandSpec& spec);

/// Prints an error as "file:line:column: message" on err (and as JSON on out with --json);
/// returns the matching exit code.
int reportError(const Error& error, const ParsedArgs& args, CliIo& io);

/// Parses a number option; a usage error names the option.
Expected<double> numberOption(const ParsedArgs& args, const std::string& name, double fallback);
/// A whole-number option in [minimum, maximum], or nothing when absent; usage errors name it.
Expected<std::optional<std::uint64_t>> wholeNumberOption(const ParsedArgs& args,
                                                         const std::string& name,
                                                         std::uint64_t minimum,
                                                         std::uint64_t maximum);
/// Parses "1,2,4" into numbers; a usage error names the option.
Expected<std::vector<double>> numberListOption(const ParsedArgs& args, const std::string& name);
/// Takes "-o PATH" out of the positionals (the parser reads single-dash words as positionals)
/// into --output; usage errors for a missing value or a second output.
Expected<ParsedArgs> withShortOutput(ParsedArgs args);
/// --shard I/N (0 <= I < N) as (I, N); (0, 1) when absent.
Expected<std::pair<std::size_t, std::size_t>> shardOption(const ParsedArgs& args);

} // namespace bs::cli
