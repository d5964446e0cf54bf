#include "io/modelanalyzerreader.h"

#include "io/csvrecordreader.h"
#include "io/jsonfields.h"
#include "io/siblingfile.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <tuple>
#include <vector>

namespace bs::io {

namespace {

/// Column positions, -1 when absent.
struct MaColumns
{
    int model = -1, gpu = -1, batch = -1, concurrency = -1, rate = -1, config = -1;
    int satisfies = -1, throughput = -1, average = -1, p50 = -1, p90 = -1, p95 = -1, p99 = -1;
    int memory = -1, utilization = -1, power = -1;
};

MaColumns findColumns(const CsvRecordReader& csv)
{
    MaColumns c;
    c.model = csv.index("Model");
    c.gpu = csv.index("GPU UUID");
    c.batch = csv.index("Batch");
    c.concurrency = csv.index("Concurrency");
    c.rate = csv.index("Request Rate");
    c.config = csv.index("Model Config Path");
    c.satisfies = csv.index("Satisfies Constraints");
    c.throughput = csv.index("Throughput (infer/sec)");
    c.average = csv.index("Avg Latency (ms)");
    c.p50 = csv.index("p50 Latency (ms)");
    c.p90 = csv.index("p90 Latency (ms)");
    c.p95 = csv.index("p95 Latency (ms)");
    c.p99 = csv.index("p99 Latency (ms)");
    c.memory = csv.index("GPU Memory Usage (MB)");
    c.utilization = csv.index("GPU Utilization (%)");
    c.power = csv.index("GPU Power Usage (W)");
    return c;
}

/// Join key: model, config, batch, load. A multi-model row (models profiled together:
/// "resnet,vgg" with Batch "1,1" and Concurrency "2,1") has one batch and load per model.
using PointKey = std::tuple<std::string, std::string, std::vector<int>, std::vector<double>>;

/// The cells of a multi-model row hold one value per model, separated by commas.
std::vector<std::string_view> perModel(std::string_view cell)
{
    std::vector<std::string_view> parts;
    for (;;) {
        const auto comma = cell.find(',');
        parts.push_back(trimmed(cell.substr(0, comma)));
        if (comma == std::string_view::npos)
            return parts;
        cell.remove_prefix(comma + 1);
    }
}

/// A multi-model metric cell is "total, [per model...]" ("294.0, [177.0,117.0]"): the total.
std::string_view combinedValue(std::string_view cell)
{
    if (cell.find('[') == std::string_view::npos)
        return cell;
    return trimmed(cell.substr(0, cell.find(',')));
}

/// GPU figures of one operating point, summed over the GPU rows that report it.
struct GpuFigures
{
    double memoryBytes = 0.0, utilizationSum = 0.0, powerW = 0.0;
    int rows = 0;
    bool hasMemory = false, hasUtilization = false, hasPower = false;
};

class MaParser
{
public:
    MaParser(ByteSource& source, ReaderContext& context)
        : m_context(context)
        , m_csv(source, context)
    {}

    Status start();
    bool isInferenceLayout() const { return m_cols.throughput >= 0; }
    bool isServerLayout() const { return m_cols.batch < 0; }
    Expected<bool> next() { return m_csv.next(); }
    Expected<PointKey> key() const;
    Status readPoint(data::SweepPoint& point) const;
    Status readGpu(GpuFigures& figures) const;
    data::LoadAxis loadAxis() const
    {
        return m_cols.concurrency >= 0 ? data::LoadAxis::Concurrency
               : m_cols.rate >= 0      ? data::LoadAxis::RequestRate
                                       : data::LoadAxis::None;
    }
    Status applyKey(const PointKey& key, data::LoadAxis axis, data::SweepPoint& point) const;
    std::string series() const
    {
        const std::string_view model = m_cols.model >= 0 ? m_csv[m_cols.model] : "";
        std::string s;
        if (perModel(model).size() > 1) {
            // A model combination: its configs (they carry the model names) together.
            for (auto part : perModel(m_cols.config >= 0 ? m_csv[m_cols.config] : model))
                s += (s.empty() ? "" : " + ") + std::string(part);
        } else {
            s = std::string(model);
            if (m_cols.config >= 0)
                s += (s.empty() ? "" : "/") + std::string(m_csv[m_cols.config]);
        }
        if (m_cols.gpu >= 0)
            s += " on " + std::string(m_csv[m_cols.gpu]);
        return s;
    }
    bool unsatisfied() const
    {
        return m_cols.satisfies >= 0 && lowercase(m_csv[m_cols.satisfies]) == "no";
    }
    std::int64_t line() const { return m_csv.line(); }
    void warnIfCutShort() { m_csv.warnIfCutShort(); }

private:
    Expected<std::optional<double>> optionalCell(int index, double scale) const;

    ReaderContext& m_context;
    CsvRecordReader m_csv;
    MaColumns m_cols;
};

Status MaParser::start()
{
    if (auto status = m_csv.readHeader(); !status)
        return status;
    m_cols = findColumns(m_csv);
    if (m_cols.model != 0) {
        return makeError(ErrorCode::Format, m_context.path, 1, 1,
                         "not a Model Analyzer metrics CSV: the header does not start with "
                         "\"Model\"");
    }
    const bool inference = m_cols.throughput >= 0;
    const bool gpu = m_cols.gpu >= 0;
    if (!inference && !gpu) {
        return makeError(ErrorCode::Format, m_context.path, 1, 0,
                         "not a Model Analyzer metrics CSV: the header has neither "
                         "\"Throughput (infer/sec)\" nor \"GPU UUID\"");
    }
    if ((inference || m_cols.batch >= 0) && m_cols.concurrency < 0 && m_cols.rate < 0) {
        return makeError(ErrorCode::Format, m_context.path, 1, 0,
                         "the header has no \"Concurrency\" or \"Request Rate\" column");
    }
    if (inference && m_cols.batch < 0)
        return makeError(ErrorCode::Format, m_context.path, 1, 0,
                         "the header has no \"Batch\" column");
    const auto& c = m_cols;
    return m_csv.requireUnique({c.model, c.gpu, c.batch, c.concurrency, c.rate, c.config,
                                c.satisfies, c.throughput, c.average, c.p50, c.p90, c.p95, c.p99,
                                c.memory, c.utilization, c.power});
}

Expected<PointKey> MaParser::key() const
{
    const auto models = perModel(m_csv[m_cols.model]);
    const int loadColumn = m_cols.concurrency >= 0 ? m_cols.concurrency : m_cols.rate;
    const auto batches = perModel(m_csv[m_cols.batch]);
    const auto loads = perModel(m_csv[loadColumn]);
    for (const auto* cells : {&batches, &loads}) {
        if (cells->size() != models.size()) {
            const int column = cells == &batches ? m_cols.batch : loadColumn;
            return m_csv.errorAt(column, ErrorCode::Format,
                                 "column \"" + m_csv.headers()[std::size_t(column)] + "\" holds " +
                                     std::to_string(cells->size()) + " values for " +
                                     std::to_string(models.size()) + " models");
        }
    }
    PointKey key{std::string(m_csv[m_cols.model]),
                 m_cols.config >= 0 ? std::string(m_csv[m_cols.config]) : std::string(),
                 {},
                 {}};
    for (std::size_t i = 0; i < models.size(); ++i) {
        auto batch = integerCell(batches[i], m_csv.place(m_cols.batch), CellRule::Positive);
        if (!batch)
            return batch.error();
        auto load = numberCell(loads[i], m_csv.place(loadColumn), CellRule::NonNegative);
        if (!load)
            return load.error();
        std::get<2>(key).push_back(int(*batch));
        std::get<3>(key).push_back(*load);
    }
    return key;
}

Status MaParser::applyKey(const PointKey& key, data::LoadAxis axis, data::SweepPoint& point) const
{
    const auto& batches = std::get<2>(key);
    if (std::adjacent_find(batches.begin(), batches.end(), std::not_equal_to<>()) !=
        batches.end()) {
        return m_csv.errorAt(m_cols.batch, ErrorCode::Unsupported,
                             "the models ran with different batch sizes (\"" +
                                 std::string(m_csv[m_cols.batch]) +
                                 "\"); a sweep point has one batch size");
    }
    point.batchSize = batches.front();
    // The load the server carries: the models' requests in flight (or per second) together.
    double load = 0.0;
    for (double l : std::get<3>(key))
        load += l;
    (axis == data::LoadAxis::Concurrency ? point.concurrency : point.requestRatePerS) = load;
    return {};
}

Expected<std::optional<double>> MaParser::optionalCell(int index, double scale) const
{
    if (index < 0)
        return std::optional<double>();
    auto value = numberCell(combinedValue(m_csv[index]), m_csv.place(index), CellRule::NonNegative);
    if (!value)
        return value.error();
    return std::optional<double>(*value * scale);
}

Status MaParser::readPoint(data::SweepPoint& point) const
{
    const std::pair<int, std::optional<double>*> cells[] = {
        {m_cols.throughput, &point.throughputPerS}, {m_cols.average, &point.latencyMeanS},
        {m_cols.p50, &point.latencyP50S},           {m_cols.p90, &point.latencyP90S},
        {m_cols.p95, &point.latencyP95S},           {m_cols.p99, &point.latencyP99S}};
    for (const auto& [index, target] : cells) {
        auto value = optionalCell(index, index == m_cols.throughput ? 1.0 : 1e-3); // ms -> s
        if (!value)
            return value.error();
        *target = *value;
    }
    GpuFigures gpu;
    if (auto status = readGpu(gpu); !status)
        return status;
    if (gpu.hasMemory)
        point.memoryBytes = gpu.memoryBytes;
    if (gpu.hasUtilization)
        point.utilization = std::min(1.0, gpu.utilizationSum);
    if (gpu.hasPower)
        point.powerW = gpu.powerW;
    return {};
}

Status MaParser::readGpu(GpuFigures& figures) const
{
    auto memory = optionalCell(m_cols.memory, 1e6);
    auto utilization = optionalCell(m_cols.utilization, 0.01);
    auto power = optionalCell(m_cols.power, 1.0);
    for (const auto* value : {&memory, &utilization, &power}) {
        if (!*value)
            return value->error();
    }
    ++figures.rows;
    if (const auto& v = *memory) {
        figures.memoryBytes += *v;
        figures.hasMemory = true;
    }
    if (const auto& v = *utilization) {
        figures.utilizationSum += *v;
        figures.hasUtilization = true;
    }
    if (const auto& v = *power) {
        figures.powerW += *v;
        figures.hasPower = true;
    }
    return {};
}

std::string siblingGpuFile(const ReaderContext& context, std::string& error)
{
    JsonFields fields(context.options, "reader_options", context.path);
    std::string explicitPath;
    if (fields.has("gpu_metrics") && context.options["gpu_metrics"].is_boolean()) {
        if (!fields.boolean("gpu_metrics", true))
            return {};
    } else {
        explicitPath = fields.stringOr("gpu_metrics", {});
    }
    if (auto status = fields.finish(); !status) {
        error = status.error().toString();
        return {};
    }
    if (!explicitPath.empty())
        return explicitPath;
    if (context.directory.empty())
        return {};
    std::string name = std::filesystem::path(context.path).filename().string();
    const auto at = name.rfind("inference");
    if (at == std::string::npos)
        return {};
    name.replace(at, 9, "gpu");
    const auto sibling = std::filesystem::path(context.directory) / name;
    std::error_code ec;
    return std::filesystem::is_regular_file(sibling, ec) ? sibling.string() : std::string();
}

/// Reads a metrics-model-gpu.csv into per-point GPU figures.
Expected<std::map<PointKey, GpuFigures>> readGpuFile(const std::string& path,
                                                     ReaderContext& context)
{
    auto source = openByteSource(path, context.limits);
    if (!source)
        return source.error();
    ReaderContext sibling(path, {}, nlohmann::json::object(), Progress::null(), context.cancel,
                          context.limits);
    MaParser parser(**source, sibling);
    if (auto status = parser.start(); !status)
        return status.error();
    if (parser.isInferenceLayout() || parser.isServerLayout())
        return makeError(ErrorCode::Format, path, 1, 0,
                         "expected a Model Analyzer metrics-model-gpu.csv beside the inference "
                         "metrics");
    std::map<PointKey, GpuFigures> figures;
    for (;;) {
        auto more = parser.next();
        if (!more)
            return more.error();
        if (!*more)
            return figures;
        auto key = parser.key();
        if (!key)
            return key.error();
        if (auto status = parser.readGpu(figures[*key]); !status)
            return status.error();
    }
}

void applyGpu(data::SweepPoint& point, const GpuFigures& gpu)
{
    if (gpu.hasMemory)
        point.memoryBytes = gpu.memoryBytes;
    if (gpu.hasUtilization)
        point.utilization = std::min(1.0, gpu.utilizationSum / gpu.rows);
    if (gpu.hasPower)
        point.powerW = gpu.powerW;
}

} // namespace

Expected<data::DatasetContent> readModelAnalyzer(ByteSource& source, ReaderContext& context)
{
    std::string optionError;
    const std::string gpuPath = siblingGpuFile(context, optionError);
    if (!optionError.empty())
        return makeError(ErrorCode::Format, context.path, 0, 0, optionError);
    MaParser parser(source, context);
    if (auto status = parser.start(); !status)
        return status.error();
    std::map<PointKey, GpuFigures> gpu;
    if (parser.isInferenceLayout() && !gpuPath.empty()) {
        auto figures = readGpuFile(gpuPath, context);
        if (!figures)
            return siblingError(
                context.path, figures.error(), "GPU metrics",
                "read without them with the reader option {\"gpu_metrics\": false}");
        gpu = std::move(*figures);
        context.note =
            "joined with GPU metrics from " + std::filesystem::path(gpuPath).filename().string();
    }
    data::SweepTable table;
    table.loadAxis = parser.loadAxis();
    std::uint64_t unsatisfied = 0;
    std::size_t models = 1; ///< Models profiled together in a row (Model Analyzer multi-model).
    for (;;) {
        auto more = parser.next();
        if (!more)
            return more.error();
        if (!*more)
            break;
        data::SweepPoint point;
        if (!parser.isServerLayout()) {
            auto key = parser.key();
            if (!key)
                return key.error();
            if (auto status = parser.applyKey(*key, table.loadAxis, point); !status)
                return status.error();
            models = std::max(models, std::get<2>(*key).size());
            if (const auto it = gpu.find(*key); it != gpu.end())
                applyGpu(point, it->second);
            else if (!gpu.empty())
                context.warnings.add("no-gpu-row", parser.line(),
                                     "no GPU metrics row for this operating point");
        }
        if (auto status = parser.readPoint(point); !status)
            return status.error();
        point.series = parser.series();
        unsatisfied += parser.unsatisfied() ? 1 : 0;
        table.points.push_back(std::move(point));
    }
    if (table.points.empty())
        return makeError(ErrorCode::Format, context.path, 0, 0,
                         "the file has a header but no rows");
    parser.warnIfCutShort();
    table.name = std::filesystem::path(context.path).filename().string();
    table.metadata["layout"] = parser.isInferenceLayout() ? "model_inference"
                               : parser.isServerLayout()  ? "server_only"
                                                          : "model_gpu";
    table.metadata["points_not_satisfying_constraints"] = std::to_string(unsatisfied);
    if (models > 1) {
        table.metadata["models_per_point"] = std::to_string(models);
        table.metadata["multi_model"] =
            "one point per model combination and load: throughput is the models' total, "
            "latencies the combined figure Model Analyzer reports, the load the models' sum";
    }
    if (!gpuPath.empty() && parser.isInferenceLayout())
        table.metadata["joined_gpu_metrics"] = gpuPath;
    return data::DatasetContent(std::make_shared<const data::SweepTable>(std::move(table)));
}

} // namespace bs::io
