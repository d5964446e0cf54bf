#include "llmsim/profilesteptime.h"

#include "io/bytesource.h"
#include "io/jsonfields.h"
#include "io/linereader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <functional>
#include <set>

namespace bs::llmsim {

namespace {

/// The dense operators of one layer, each run once per layer on every scheduled token. Llama
/// normalises twice per layer (before attention and before the MLP), so layernorm counts twice.
constexpr const char* kDenseOperators[] = {"qkv_proj",  "o_proj", "gate_up_proj",
                                           "down_proj", "act_fn", "rotary_emb"};

struct CsvRows
{
    std::vector<std::string> text;            ///< First column (operator names), may be unused.
    std::vector<std::vector<double>> numbers; ///< The numeric columns of each row.
    std::vector<std::int64_t> lines;
};

Error csvError(const std::string& path, std::int64_t line, std::string message)
{
    return makeError(ErrorCode::Format, path, line, 0, std::move(message));
}

std::vector<std::string_view> splitCommas(std::string_view line)
{
    std::vector<std::string_view> cells;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = line.find(',', start);
        cells.push_back(
            line.substr(start, comma == std::string_view::npos ? comma : comma - start));
        if (comma == std::string_view::npos)
            return cells;
        start = comma + 1;
    }
}

/// Reads a CSV whose header must be exactly `header`; the first `textColumns` columns are kept
/// as text, the rest must be finite non-negative numbers.
Expected<CsvRows> readProfileCsv(const std::string& path, std::string_view header,
                                 std::size_t textColumns)
{
    auto source = io::openByteSource(path);
    if (!source)
        return source.error();
    io::LineReader lines(**source);
    CsvRows rows;
    std::string_view line;
    bool sawHeader = false;
    const std::size_t columns = splitCommas(header).size();
    while (true) {
        auto more = lines.next(line);
        if (!more)
            return more.error();
        if (!*more)
            break;
        if (line.empty())
            continue;
        if (!sawHeader) {
            if (line != header)
                return csvError(path, lines.lineNumber(),
                                "expected the header '" + std::string(header) + "', found '" +
                                    std::string(line.substr(0, 80)) + "'");
            sawHeader = true;
            continue;
        }
        const auto cells = splitCommas(line);
        if (cells.size() != columns)
            return csvError(path, lines.lineNumber(),
                            "expected " + std::to_string(columns) + " cells, found " +
                                std::to_string(cells.size()));
        std::vector<double> numbers;
        for (std::size_t i = textColumns; i < cells.size(); ++i) {
            double value = 0.0;
            const auto [end, ec] =
                std::from_chars(cells[i].data(), cells[i].data() + cells[i].size(), value);
            if (ec != std::errc() || end != cells[i].data() + cells[i].size() ||
                !std::isfinite(value) || value < 0.0)
                return csvError(path, lines.lineNumber(),
                                "column " + std::to_string(i + 1) + ": '" + std::string(cells[i]) +
                                    "' is not a finite non-negative number");
            numbers.push_back(value);
        }
        rows.text.emplace_back(textColumns ? std::string(cells[0]) : std::string());
        rows.numbers.push_back(std::move(numbers));
        rows.lines.push_back(lines.lineNumber());
    }
    if (!sawHeader)
        return csvError(path, 0,
                        "the file is empty (expected the header '" + std::string(header) + "')");
    if (rows.numbers.empty())
        return csvError(path, lines.lineNumber(), "no measurements after the header");
    return rows;
}

/// Builds the grid of the rows selected by `keep` over the coordinate columns `keys` (the value
/// is the last column). Every combination of the axis values must be measured exactly once.
Expected<GridTable> buildGrid(const CsvRows& rows, const std::string& path,
                              const std::vector<std::size_t>& keys, const std::string& what,
                              const std::function<bool(std::size_t)>& keep)
{
    std::vector<std::set<double>> axisSets(keys.size());
    std::vector<std::size_t> selected;
    for (std::size_t r = 0; r < rows.numbers.size(); ++r) {
        if (!keep(r))
            continue;
        selected.push_back(r);
        for (std::size_t a = 0; a < keys.size(); ++a)
            axisSets[a].insert(rows.numbers[r][keys[a]]);
    }
    if (selected.empty())
        return csvError(path, 0, "no measurements for " + what);
    std::vector<std::vector<double>> axes;
    std::size_t size = 1;
    for (const auto& set : axisSets) {
        axes.emplace_back(set.begin(), set.end());
        size *= set.size();
    }
    std::vector<double> values(size, std::nan(""));
    for (std::size_t r : selected) {
        std::size_t offset = 0;
        for (std::size_t a = 0; a < keys.size(); ++a) {
            const auto& axis = axes[a];
            const auto index =
                std::size_t(std::lower_bound(axis.begin(), axis.end(), rows.numbers[r][keys[a]]) -
                            axis.begin());
            offset = offset * axis.size() + index;
        }
        if (!std::isnan(values[offset]))
            return csvError(path, rows.lines[r], what + ": this point was already measured");
        values[offset] = rows.numbers[r].back();
    }
    const auto missing = std::size_t(
        std::count_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }));
    if (missing)
        return csvError(path, 0,
                        what + ": " + std::to_string(missing) + " of " + std::to_string(size) +
                            " grid points are not measured (interpolation needs them all)");
    return GridTable(std::move(axes), std::move(values));
}

/// Per-operator tables: first column the operator name, then one coordinate and time_us.
Expected<std::map<std::string, GridTable>> readOperatorTables(const std::string& path,
                                                              std::string_view header)
{
    auto rows = readProfileCsv(path, header, 1);
    if (!rows)
        return rows.error();
    std::set<std::string> names(rows->text.begin(), rows->text.end());
    std::map<std::string, GridTable> tables;
    for (const std::string& name : names) {
        auto grid = buildGrid(*rows, path, {0}, "operator " + name,
                              [&rows, &name](std::size_t r) { return rows->text[r] == name; });
        if (!grid)
            return grid.error();
        tables.emplace(name, std::move(*grid));
    }
    return tables;
}

Status requireOperators(const std::map<std::string, GridTable>& tables, const std::string& path,
                        std::initializer_list<const char*> names)
{
    for (const char* name : names)
        if (!tables.count(name))
            return csvError(path, 0, std::string("the operator '") + name + "' is missing");
    return {};
}

Expected<std::int32_t> readLayerCount(const std::string& modelConfig)
{
    auto json = io::readJsonFile(modelConfig, std::uint64_t(16) << 20);
    if (!json)
        return json.error();
    if (!json->is_object() || !json->contains("num_hidden_layers") ||
        !(*json)["num_hidden_layers"].is_number_integer() ||
        (*json)["num_hidden_layers"].get<std::int64_t>() < 1)
        return makeError(ErrorCode::Value, modelConfig, 0, 0,
                         "num_hidden_layers: expected a whole number of at least 1 (a Hugging "
                         "Face config.json)");
    return std::int32_t((*json)["num_hidden_layers"].get<std::int64_t>());
}

Status readAttention(const std::string& path, ProfileStepTime::Tables& tables)
{
    auto rows = readProfileCsv(path, "prefill_chunk,kv_prefill,n_decode,kv_decode,time_us", 0);
    if (!rows)
        return rows.error();
    const auto& n = rows->numbers;
    auto decode = buildGrid(*rows, path, {2, 3}, "decode-only attention",
                            [&n](std::size_t r) { return n[r][0] == 0 && n[r][2] > 0; });
    auto prefill = buildGrid(*rows, path, {0, 1}, "prefill-only attention",
                             [&n](std::size_t r) { return n[r][0] > 0 && n[r][2] == 0; });
    auto mixed = buildGrid(*rows, path, {0, 1, 2, 3}, "mixed prefill+decode attention",
                           [&n](std::size_t r) { return n[r][0] > 0 && n[r][2] > 0; });
    for (const auto* grid : {&decode, &prefill, &mixed})
        if (!*grid)
            return grid->error();
    tables.decodeAttention = std::move(*decode);
    tables.prefillAttention = std::move(*prefill);
    tables.mixedAttention = std::move(*mixed);
    return {};
}

} // namespace

ProfileStepTime::ProfileStepTime(Tables tables)
    : m_tables(std::move(tables))
{
    m_layernorm = &m_tables.dense.at("layernorm");
}

double ProfileStepTime::denseLayerUs(double tokens) const
{
    double us = 2.0 * m_layernorm->at(tokens);
    for (const char* name : kDenseOperators)
        us += m_tables.dense.at(name).at(tokens);
    return us;
}

double ProfileStepTime::attentionUs(std::span<const ScheduledChunk> chunks) const
{
    double decodes = 0.0;
    double decodeContext = 0.0;
    std::vector<const ScheduledChunk*> prefills;
    for (const ScheduledChunk& chunk : chunks) {
        if (chunk.isDecode()) {
            decodes += 1.0;
            decodeContext += double(chunk.computedTokens) + 1.0;
        } else {
            prefills.push_back(&chunk);
        }
    }
    // Decodes are described by their count and mean context; the first prefill chunk shares
    // the kernel with them (the mixed table), further chunks add their own prefill time.
    const double meanContext = decodes > 0.0 ? decodeContext / decodes : 0.0;
    double us = 0.0;
    for (std::size_t i = 0; i < prefills.size(); ++i) {
        const double chunkTokens = prefills[i]->newTokens;
        const double cached = prefills[i]->computedTokens;
        if (i == 0 && decodes > 0.0) {
            const double point[] = {chunkTokens, cached, decodes, meanContext};
            us += m_tables.mixedAttention.at(point);
        } else {
            const double point[] = {chunkTokens, cached};
            us += m_tables.prefillAttention.at(point);
        }
    }
    if (prefills.empty() && decodes > 0.0) {
        const double point[] = {decodes, meanContext};
        us += m_tables.decodeAttention.at(point);
    }
    return us;
}

double ProfileStepTime::stepS(std::span<const ScheduledChunk> chunks) const
{
    double tokens = 0.0;
    for (const ScheduledChunk& chunk : chunks)
        tokens += chunk.newTokens;
    // Logits are computed for the last position of every scheduled request (a partial prefill's
    // sample is discarded, but computed).
    const double sequences = double(chunks.size());
    const double layerUs = denseLayerUs(tokens) + attentionUs(chunks);
    const double us = m_tables.layers * layerUs + m_tables.dense.at("embedding").at(tokens) +
                      m_tables.dense.at("final_layernorm").at(tokens) +
                      m_tables.perSequence.at("lm_head").at(sequences) +
                      m_tables.perSequence.at("sampler").at(sequences);
    return us * 1e-6 + m_tables.overheadMs * 1e-3;
}

Expected<std::shared_ptr<const ProfileStepTime>>
loadProfileStepTime(const std::string& directory, const std::string& modelConfig, double overheadMs)
{
    const std::filesystem::path folder(directory);
    ProfileStepTime::Tables tables;
    tables.overheadMs = overheadMs;
    const std::string densePath = (folder / "dense.csv").string();
    auto dense = readOperatorTables(densePath, "layer,tokens,time_us");
    if (!dense)
        return dense.error();
    if (auto status = requireOperators(*dense, densePath,
                                       {"qkv_proj", "o_proj", "gate_up_proj", "down_proj", "act_fn",
                                        "rotary_emb", "layernorm", "embedding", "final_layernorm"});
        !status)
        return status.error();
    tables.dense = std::move(*dense);
    const std::string sequencePath = (folder / "per_sequence.csv").string();
    auto perSequence = readOperatorTables(sequencePath, "layer,sequences,time_us");
    if (!perSequence)
        return perSequence.error();
    if (auto status = requireOperators(*perSequence, sequencePath, {"lm_head", "sampler"}); !status)
        return status.error();
    tables.perSequence = std::move(*perSequence);
    if (auto status = readAttention((folder / "attention.csv").string(), tables); !status)
        return status.error();
    auto layers = readLayerCount(modelConfig);
    if (!layers)
        return layers.error();
    tables.layers = *layers;
    return std::make_shared<const ProfileStepTime>(std::move(tables));
}

} // namespace bs::llmsim
