#include "io/projectfile.h"

#include "io/atomicfile.h"
#include "io/bytesource.h"
#include "io/datasetjson.h"
#include "io/jsonfields.h"
#include "util/sha256.h"
#include "util/version.h"

#include <filesystem>
#include <limits>

namespace bs::io {

namespace {

constexpr std::uint64_t kMaxProjectBytes = std::uint64_t(1) << 30;
constexpr std::size_t kCompressAboveBytes = std::size_t(4) << 20;

bool shouldEmbed(const data::Dataset& dataset)
{
    switch (dataset.kind) {
    case data::DatasetKind::Sweep:
    case data::DatasetKind::PowerSeries:
        return dataset.isLoaded();
    case data::DatasetKind::RequestTrace:
        return dataset.isLoaded() && dataset.requestTrace()->size() <= kEmbedRequestTraceRowLimit;
    case data::DatasetKind::KernelTrace:
    case data::DatasetKind::LlmRuns:
        return false;
    }
    return false;
}

nlohmann::json contentToJson(const data::Dataset& dataset)
{
    if (auto sweep = dataset.sweep())
        return toJson(*sweep);
    if (auto trace = dataset.requestTrace())
        return toJson(*trace);
    if (auto series = dataset.powerSeries())
        return toJson(*series);
    return nullptr;
}

nlohmann::json datasetToJson(const data::Dataset& dataset, const std::filesystem::path& folder)
{
    nlohmann::json source = toJson(dataset.provenance);
    if (!folder.empty() && !dataset.provenance.path.empty()) {
        std::error_code ec;
        const auto relative = std::filesystem::relative(dataset.provenance.path, folder, ec);
        if (!ec && !relative.empty())
            source["relative_path"] = relative.string();
    }
    nlohmann::json readerOptions = nlohmann::json::parse(dataset.readerOptionsJson, nullptr, false);
    if (readerOptions.is_discarded())
        readerOptions = nlohmann::json::object();
    nlohmann::json out = {{"id", dataset.id},
                          {"name", dataset.name},
                          {"kind", data::datasetKindName(dataset.kind)},
                          {"role", data::datasetRoleName(dataset.role)},
                          {"tags", toJson(dataset.tags)},
                          {"reader_options", std::move(readerOptions)},
                          {"source", std::move(source)}};
    const bool embed = shouldEmbed(dataset);
    out["storage"] = embed ? "embedded" : "referenced";
    if (embed)
        out["data"] = contentToJson(dataset);
    return out;
}

data::DatasetKind kindFromName(const std::string& name)
{
    if (name == "request_trace")
        return data::DatasetKind::RequestTrace;
    if (name == "kernel_trace")
        return data::DatasetKind::KernelTrace;
    if (name == "power_series")
        return data::DatasetKind::PowerSeries;
    if (name == "llm_runs")
        return data::DatasetKind::LlmRuns;
    return data::DatasetKind::Sweep;
}

data::DatasetRole roleFromName(const std::string& name)
{
    if (name == "baseline")
        return data::DatasetRole::Baseline;
    if (name == "candidate")
        return data::DatasetRole::Candidate;
    return data::DatasetRole::None;
}

Status readEmbeddedContent(data::Dataset& dataset, const nlohmann::json& json,
                           const std::string& where, const std::string& path)
{
    switch (dataset.kind) {
    case data::DatasetKind::Sweep: {
        auto table = sweepTableFromJson(json, where, path);
        if (!table)
            return table.error();
        dataset.setContent(std::make_shared<const data::SweepTable>(std::move(*table)));
        return {};
    }
    case data::DatasetKind::RequestTrace: {
        auto trace = requestTraceFromJson(json, where, path);
        if (!trace)
            return trace.error();
        dataset.setContent(std::make_shared<const data::RequestTrace>(std::move(*trace)));
        return {};
    }
    case data::DatasetKind::PowerSeries: {
        auto series = powerSeriesFromJson(json, where, path);
        if (!series)
            return series.error();
        dataset.setContent(std::make_shared<const data::PowerSeries>(std::move(*series)));
        return {};
    }
    case data::DatasetKind::KernelTrace:
    case data::DatasetKind::LlmRuns:
        break;
    }
    return makeError(ErrorCode::Format, path, 0, 0,
                     where + ": " +
                         (dataset.kind == data::DatasetKind::KernelTrace ? "kernel traces"
                                                                         : "LLM benchmark runs") +
                         " are referenced, never embedded");
}

/// A referenced file that moved together with the project is found through its relative path.
std::string resolveReferencedPath(const std::string& stored, const std::string& relative,
                                  const std::string& projectPath)
{
    std::error_code ec;
    if (stored.empty() || std::filesystem::exists(stored, ec) || relative.empty())
        return stored;
    const auto candidate = std::filesystem::absolute(projectPath).parent_path() / relative;
    return std::filesystem::exists(candidate, ec) ? candidate.lexically_normal().string() : stored;
}

Expected<data::Dataset> datasetFromJson(const nlohmann::json& json, const std::string& where,
                                        const std::string& path)
{
    JsonFields fields(json, where, path);
    data::Dataset dataset;
    dataset.id = fields.string("id");
    dataset.name = fields.stringOr("name", dataset.id);
    dataset.kind = kindFromName(fields.choice(
        "kind", {"sweep", "request_trace", "kernel_trace", "power_series", "llm_runs"}));
    dataset.role = roleFromName(fields.choice("role", {"none", "baseline", "candidate"}, "none"));
    dataset.tags = runTagsFromJson(fields, "tags");
    if (const auto* options = fields.object("reader_options"))
        dataset.readerOptionsJson = options->dump();
    std::string relativePath;
    dataset.provenance = provenanceFromJson(fields, "source", &relativePath);
    const std::string storage = fields.choice("storage", {"embedded", "referenced"});
    const auto* content = fields.object("data", storage == "embedded");
    if (auto status = fields.finish(); !status)
        return status.error();
    if (storage == "embedded") {
        if (auto status = readEmbeddedContent(dataset, *content, where + ".data", path); !status)
            return status.error();
        // Embedded data has no file to hash: its stored bytes are the data's compact JSON, so
        // the input is still pinned by a SHA-256 (the demo's datasets, pasted sweeps).
        if (dataset.provenance.sha256.empty()) {
            Sha256 hash;
            hash.update(content->dump());
            dataset.provenance.sha256 = hash.hexDigest();
        }
    } else {
        dataset.provenance.path =
            resolveReferencedPath(dataset.provenance.path, relativePath, path);
    }
    return dataset;
}

} // namespace

nlohmann::json projectToJson(const data::Project& project, const std::string& projectPath)
{
    std::filesystem::path folder;
    if (!projectPath.empty())
        folder = std::filesystem::absolute(projectPath).parent_path();
    nlohmann::json datasets = nlohmann::json::array();
    for (const auto& dataset : project.datasets)
        datasets.push_back(datasetToJson(dataset, folder));
    nlohmann::json out = {{"schema", data::Project::kSchemaVersion},
                          {"app", {{"name", "BatchScope"}, {"version", kVersionString}}},
                          {"title", project.title},
                          {"notes", project.notes},
                          {"datasets", std::move(datasets)},
                          {"model", project.model},
                          {"scenarios", project.scenarios},
                          {"region", project.region},
                          {"playbook", project.playbook},
                          {"memo", project.memo}};
    // Written only when there is one, so projects without an LLM server keep their bytes.
    if (!project.llm.empty())
        out["llm"] = project.llm;
    return out;
}

Expected<data::Project> projectFromJson(const nlohmann::json& json, const std::string& path)
{
    if (!json.is_object())
        return makeError(ErrorCode::Format, path, 0, 0,
                         "not a BatchScope project: the top level is not a JSON object");
    const auto schema = json.find("schema");
    if (schema == json.end() || !schema->is_number_integer())
        return makeError(ErrorCode::Format, path, 0, 0,
                         "not a BatchScope project: no integer \"schema\" key");
    // 2^64-1 is an unsigned JSON integer: read as int64 it would be -1 and look valid-ish.
    const auto version =
        schema->is_number_unsigned() && schema->get<std::uint64_t>() >
                                            std::uint64_t(std::numeric_limits<std::int64_t>::max())
            ? std::numeric_limits<std::int64_t>::max()
            : schema->get<std::int64_t>();
    if (version > data::Project::kSchemaVersion) {
        return makeError(ErrorCode::Unsupported, path, 0, 0,
                         "written by a newer BatchScope (project schema " + schema->dump() +
                             "; this version " + kVersionString + " reads schema " +
                             std::to_string(data::Project::kSchemaVersion) +
                             " and older); update BatchScope to open it");
    }
    if (version < 1)
        return makeError(ErrorCode::Format, path, 0, 0,
                         "invalid project schema " + std::to_string(version));

    JsonFields fields(json, "project", path);
    fields.integer("schema");
    fields.object("app");
    data::Project project;
    project.title = fields.stringOr("title", {});
    project.notes = fields.stringOr("notes", {});
    auto section = [&fields](const char* key, nlohmann::json fallback) {
        const auto* value = fallback.is_array() ? fields.array(key) : fields.object(key);
        return value ? *value : fallback;
    };
    project.model = section("model", nlohmann::json::object());
    project.scenarios = section("scenarios", nlohmann::json::array());
    project.region = section("region", nlohmann::json::object());
    project.playbook = section("playbook", nlohmann::json::object());
    project.memo = section("memo", nlohmann::json::object());
    project.llm = section("llm", nlohmann::json::object());
    const auto* datasets = fields.array("datasets");
    if (auto status = fields.finish(); !status)
        return status.error();
    if (datasets) {
        for (std::size_t i = 0; i < datasets->size(); ++i) {
            auto dataset = datasetFromJson((*datasets)[i],
                                           "project.datasets[" + std::to_string(i) + "]", path);
            if (!dataset)
                return dataset.error();
            if (project.findDataset(dataset->id))
                return makeError(ErrorCode::Format, path, 0, 0,
                                 "project.datasets[" + std::to_string(i) + "].id: '" + dataset->id +
                                     "' is used twice");
            project.datasets.push_back(std::move(*dataset));
        }
    }
    return project;
}

namespace {
Expected<data::Project> loadProjectFromSource(ByteSource& source)
{
    auto text = readAll(source, kMaxProjectBytes);
    if (!text)
        return text.error();
    if (text->empty())
        return makeError(ErrorCode::Format, source.path(), 0, 0, "the project file is empty");
    auto json = parseJson(*text, source.path());
    if (!json)
        return json.error();
    return projectFromJson(*json, source.path());
}
} // namespace

Expected<data::Project> loadProjectFromBytes(std::string bytes, const std::string& name)
{
    auto source = memoryByteSource(std::move(bytes), name);
    return loadProjectFromSource(*source);
}

Expected<data::Project> loadProject(const std::string& path)
{
    auto source = openByteSource(path);
    if (!source)
        return source.error();
    return loadProjectFromSource(**source);
}

Status saveProject(const data::Project& project, const std::string& path,
                   const ProjectSaveOptions& options)
{
    std::string text = projectToJson(project, path).dump(1);
    text += '\n';
    const bool compress = options.compression == ProjectSaveOptions::Compression::Always ||
                          (options.compression == ProjectSaveOptions::Compression::Auto &&
                           text.size() > kCompressAboveBytes);
    if (compress)
        text = gzipCompress(text);
    return writeFileAtomically(path, text, AtomicWriteOptions{options.keepBackup});
}

} // namespace bs::io
