#include "commandline.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>

namespace bs::cli {

namespace {

const OptionSpec* findOption(const CommandSpec& spec, const std::string& name)
{
    static const std::vector<OptionSpec> common = {
        {"--help", {}, "show this help"},
        {"--json", {}, "machine-readable JSON on stdout"},
    };
    for (const auto* list : {&spec.options, &common}) {
        for (const auto& option : *list) {
            if (option.name == name)
                return &option;
        }
    }
    return nullptr;
}

Error usage(const CommandSpec& spec, const std::string& message)
{
    return makeError(ErrorCode::Usage, "batchscope-cli " + spec.name + ": " + message +
                                           " (see batchscope-cli " + spec.name + " --help)");
}

std::optional<double> parseDouble(const std::string& text)
{
    double value = 0.0;
    const auto* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || !std::isfinite(value))
        return std::nullopt;
    return value;
}

} // namespace

std::optional<std::string> ParsedArgs::value(const std::string& name) const
{
    const auto it = values.find(name);
    if (it == values.end())
        return std::nullopt;
    return it->second;
}

Expected<ParsedArgs> parseArgs(const CommandSpec& spec, const std::vector<std::string>& args)
{
    ParsedArgs parsed;
    bool onlyPositionals = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (onlyPositionals || arg.size() < 2 || arg.rfind("--", 0) != 0) {
            parsed.positionals.push_back(arg);
            continue;
        }
        if (arg == "--") {
            onlyPositionals = true;
            continue;
        }
        std::string name = arg;
        std::optional<std::string> inlineValue;
        if (const auto eq = arg.find('='); eq != std::string::npos) {
            name = arg.substr(0, eq);
            inlineValue = arg.substr(eq + 1);
        }
        const OptionSpec* option = findOption(spec, name);
        if (!option)
            return usage(spec, "unknown option " + name);
        if (option->valueName.empty()) {
            if (inlineValue)
                return usage(spec, name + " takes no value");
            parsed.flags.insert(name);
            continue;
        }
        if (inlineValue) {
            parsed.values[name] = *inlineValue;
        } else if (i + 1 < args.size()) {
            parsed.values[name] = args[++i];
        } else {
            return usage(spec, name + " needs a value (" + option->valueName + ")");
        }
    }
    return parsed;
}

std::string helpText(const CommandSpec& spec)
{
    std::string text = "Usage: batchscope-cli " + spec.synopsis + "\n\n" + spec.summary + "\n";
    if (!spec.description.empty())
        text += "\n" + spec.description + "\n";
    text += "\nOptions:\n";
    auto line = [&text](const OptionSpec& option) {
        std::string left = "  " + option.name;
        if (!option.valueName.empty())
            left += " " + option.valueName;
        if (left.size() < 28)
            left.resize(28, ' ');
        else
            left += "  ";
        text += left + option.help + "\n";
    };
    for (const auto& option : spec.options)
        line(option);
    line({"--json", {}, "machine-readable JSON on stdout"});
    line({"--help", {}, "show this help"});
    return text;
}

int reportError(const Error& error, const ParsedArgs& args, CliIo& io)
{
    io.err << error.toString() << '\n';
    if (args.json()) {
        nlohmann::json out = {{"error",
                               {{"code", errorCodeName(error.code)},
                                {"path", error.path},
                                {"line", error.line},
                                {"column", error.column},
                                {"message", error.message}}}};
        io.out << out.dump(2) << '\n';
    }
    return error.code == ErrorCode::Usage ? kExitUsage : kExitBadInput;
}

Expected<double> numberOption(const ParsedArgs& args, const std::string& name, double fallback)
{
    const auto text = args.value(name);
    if (!text)
        return fallback;
    if (auto value = parseDouble(*text))
        return *value;
    return makeError(ErrorCode::Usage, name + ": '" + *text + "' is not a number");
}

Expected<std::vector<double>> numberListOption(const ParsedArgs& args, const std::string& name)
{
    std::vector<double> out;
    const auto text = args.value(name);
    if (!text)
        return out;
    std::size_t start = 0;
    while (start <= text->size()) {
        const auto comma = text->find(',', start);
        const std::string item =
            text->substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const auto value = parseDouble(item);
        if (!value)
            return makeError(ErrorCode::Usage, name + ": '" + item + "' is not a number");
        out.push_back(*value);
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return out;
}

Expected<std::optional<std::uint64_t>> wholeNumberOption(const ParsedArgs& args,
                                                         const std::string& name,
                                                         std::uint64_t minimum,
                                                         std::uint64_t maximum)
{
    const auto text = args.value(name);
    if (!text)
        return std::optional<std::uint64_t>();
    std::uint64_t value = 0;
    const auto* end = text->data() + text->size();
    const auto [ptr, ec] = std::from_chars(text->data(), end, value);
    if (ec != std::errc() || ptr != end || value < minimum || value > maximum)
        return makeError(ErrorCode::Usage, name + ": '" + *text + "' is not a whole number from " +
                                               std::to_string(minimum) + " to " +
                                               std::to_string(maximum));
    return std::optional<std::uint64_t>(value);
}

Expected<std::pair<std::size_t, std::size_t>> shardOption(const ParsedArgs& args)
{
    const auto text = args.value("--shard");
    if (!text)
        return std::pair<std::size_t, std::size_t>(0, 1);
    const auto slash = text->find('/');
    std::size_t index = 0;
    std::size_t count = 0;
    const char* begin = text->data();
    const char* end = begin + text->size();
    bool ok = slash != std::string::npos;
    if (ok) {
        const auto a = std::from_chars(begin, begin + slash, index);
        const auto b = std::from_chars(begin + slash + 1, end, count);
        ok = a.ec == std::errc() && a.ptr == begin + slash && b.ec == std::errc() && b.ptr == end &&
             count >= 1 && index < count;
    }
    if (!ok)
        return makeError(ErrorCode::Usage,
                         "--shard: '" + *text + "' is not I/N with 0 <= I < N (e.g. 0/4 .. 3/4)");
    return std::pair<std::size_t, std::size_t>(index, count);
}

Expected<ParsedArgs> withShortOutput(ParsedArgs args)
{
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.positionals.size(); ++i) {
        if (args.positionals[i] != "-o") {
            rest.push_back(args.positionals[i]);
            continue;
        }
        if (i + 1 >= args.positionals.size())
            return makeError(ErrorCode::Usage, "-o needs a value (the output path)");
        if (args.values.contains("--output"))
            return makeError(ErrorCode::Usage, "give the output file once (-o or --output)");
        args.values["--output"] = args.positionals[++i];
    }
    args.positionals = std::move(rest);
    return args;
}

} // namespace bs::cli
