#include "commands.h"
#include "io/datasetsummary.h"
#include "io/readdataset.h"
#include "readoptions.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace bs::cli {

namespace {

using nlohmann::json;

std::string number(const json& value)
{
    if (value.is_number_float()) {
        std::ostringstream out;
        out.precision(6);
        out << value.get<double>();
        return out.str();
    }
    return value.is_string() ? value.get<std::string>() : value.dump();
}

std::string columnsLine(const json& columns)
{
    std::string line;
    for (const auto& c : columns) {
        line += (line.empty() ? "" : ", ") + c["name"].get<std::string>();
        const std::string unit = c["unit"].get<std::string>();
        if (!unit.empty() && unit != "count")
            line += " [" + unit + "]";
    }
    return line;
}

std::string figuresLine(const json& figures)
{
    std::string line;
    for (const auto& [key, value] : figures.items()) {
        if (value.is_object() && key == "point")
            continue;
        line += (line.empty() ? "" : "; ") + key + " " + number(value);
    }
    return line;
}

std::string formatSummary(const json& s)
{
    const auto& p = s["provenance"];
    std::string text = s["name"].get<std::string>() + "\n";
    auto row = [&text](const char* label, const std::string& value) {
        std::string left = std::string("  ") + label;
        left.resize(16, ' ');
        text += left + value + "\n";
    };
    row("path", p["path"].get<std::string>());
    row("format",
        p["reader"].get<std::string>() + " (" + p["detected_because"].get<std::string>() + ")");
    std::string counts = s["kind"].get<std::string>();
    for (const auto& [key, value] : s["counts"].items())
        counts += ", " + number(value) + " " + key;
    row("contents", counts);
    if (s.contains("time_span_s"))
        row("time span", number(s["time_span_s"]) + " s");
    row("columns", columnsLine(s["columns"]));
    row("key figures", figuresLine(s["key_figures"]));
    if (s["key_figures"].contains("point"))
        row("measured", figuresLine(s["key_figures"]["point"]));
    row("size, sha256", std::to_string(p["size_bytes"].get<std::uint64_t>()) + " bytes, " +
                            p["sha256"].get<std::string>());
    const auto& warnings = p["warnings"];
    if (warnings.empty())
        row("warnings", "none");
    for (const auto& w : warnings) {
        const auto line = w["line"].get<std::int64_t>();
        row("warning", (line > 0 ? "line " + std::to_string(line) + ": " : std::string()) +
                           w["message"].get<std::string>());
    }
    return text;
}

int runInspect(const ParsedArgs& args, CliIo& io)
{
    if (args.positionals.empty()) {
        return reportError(makeError(ErrorCode::Usage, "usage: batchscope-cli inspect FILE... "
                                                       "[--format NAME] [--json]"),
                           args, io);
    }
    auto options = readOptionsFromArgs(args);
    if (!options)
        return reportError(options.error(), args, io);
    json all = json::array();
    int exit = kExitOk;
    for (const auto& path : args.positionals) {
        auto dataset = io::readDataset(path, *options);
        if (!dataset) {
            io.err << dataset.error().toString() << '\n';
            all.push_back({{"path", path},
                           {"error",
                            {{"code", errorCodeName(dataset.error().code)},
                             {"path", dataset.error().path},
                             {"line", dataset.error().line},
                             {"column", dataset.error().column},
                             {"message", dataset.error().message}}}});
            exit = dataset.error().code == ErrorCode::Usage ? kExitUsage : kExitBadInput;
            continue;
        }
        const json summary = io::summarizeDataset(*dataset);
        all.push_back(summary);
        if (!args.json())
            io.out << formatSummary(summary) << (path == args.positionals.back() ? "" : "\n");
    }
    if (args.json()) // names from files are made valid UTF-8 by the readers; replace, never throw
        io.out << all.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
    return exit;
}

std::string readerList()
{
    std::string text = "Formats (detected from the content; --format forces one):\n";
    for (const auto& reader : io::availableReaders()) {
        std::string name = "  " + reader.name;
        name.resize(22, ' ');
        text += name + reader.description + "\n";
    }
    return text;
}

} // namespace

CommandSpec inspectCommand()
{
    return {"inspect",
            "inspect FILE... [--format NAME] [--reader-options OPTS] [--json]",
            "Read measurement files and show what they hold: format and why, counts, span, "
            "columns, key figures, warnings.",
            readerList() + "\nGzip is read transparently. A file that cannot be read is reported "
                           "as file:line:column: reason and the others are still shown.",
            {{"--format", "NAME", "force a reader instead of detecting the format"},
             readerOptionsOption()},
            &runInspect};
}

} // namespace bs::cli
