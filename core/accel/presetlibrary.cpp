#include "accel/presetlibrary.h"

#include "accel/embeddedpresets.h"
#include "io/jsonfields.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace bs::accel {

namespace {

namespace fs = std::filesystem;

/// Preset files are a few kilobytes; anything much larger is not a preset.
constexpr std::uintmax_t kMaxPresetBytes = 1u << 20;

const char* folderName(PresetKind kind)
{
    return kind == PresetKind::Accelerator ? "accelerators" : "workloads";
}

template <typename Map>
std::vector<std::string> keysOf(const Map& map)
{
    std::vector<std::string> names;
    for (const auto& [name, value] : map)
        names.push_back(name);
    return names;
}

std::string joined(const std::vector<std::string>& names)
{
    std::string text;
    for (const auto& name : names)
        text += (text.empty() ? "" : ", ") + name;
    return text.empty() ? "none" : text;
}

Expected<std::string> readSmallFile(const fs::path& path)
{
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec)
        return makeError(ErrorCode::Io, path.string(), 0, 0, "cannot read: " + ec.message());
    if (size > kMaxPresetBytes) {
        return makeError(ErrorCode::Limit, path.string(), 0, 0,
                         "larger than 1 MiB; not a preset file");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorCode::Io, path.string(), 0, 0, "cannot open");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

const PresetLibrary& PresetLibrary::builtIn()
{
    static const PresetLibrary library = [] {
        PresetLibrary lib;
        for (std::size_t i = 0; i < detail::kEmbeddedPresetCount; ++i) {
            const auto& preset = detail::kEmbeddedPresets[i];
            const std::string kind = preset.kind;
            if (kind == "models")
                continue; // LLM model shapes: llmsim reads them (modelshape.h)
            const std::string path = "builtin:" + kind + "/" + preset.file;
            auto status = lib.addPreset(kind == "accelerators" ? PresetKind::Accelerator
                                                               : PresetKind::Workload,
                                        preset.text, path);
            if (!status && !lib.m_loadError)
                lib.m_loadError = status.error();
        }
        return lib;
    }();
    return library;
}

Status PresetLibrary::addPreset(PresetKind kind, std::string_view jsonText, const std::string& path)
{
    auto name = parseAndAdd(kind, jsonText, path);
    if (!name)
        return name.error();
    return {};
}

Expected<std::string> PresetLibrary::parseAndAdd(PresetKind kind, std::string_view jsonText,
                                                 const std::string& path)
{
    auto json = io::parseJson(jsonText, path);
    if (!json)
        return json.error();
    if (kind == PresetKind::Accelerator) {
        auto spec = acceleratorFromJson(*json, "accelerator", path);
        if (!spec)
            return spec.error();
        std::string name = spec->name;
        m_acceleratorPaths[name] = path;
        m_accelerators[name] = std::move(*spec);
        return name;
    }
    auto spec = workloadFromJson(*json, "workload", path);
    if (!spec)
        return spec.error();
    std::string name = spec->name;
    m_workloadPaths[name] = path;
    m_workloads[name] = std::move(*spec);
    return name;
}

Status PresetLibrary::addFiles(PresetKind kind, const std::string& dir)
{
    const fs::path folder = fs::path(dir) / folderName(kind);
    std::error_code ec;
    if (!fs::is_directory(folder, ec))
        return {};
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
        if (entry.path().extension() == ".json")
            files.push_back(entry.path());
    }
    if (ec)
        return makeError(ErrorCode::Io, folder.string(), 0, 0, "cannot list: " + ec.message());
    std::sort(files.begin(), files.end());
    std::map<std::string, std::string> seenHere;
    for (const auto& file : files) {
        auto text = readSmallFile(file);
        if (!text)
            return text.error();
        auto name = parseAndAdd(kind, *text, file.string());
        if (!name)
            return name.error();
        if (const auto it = seenHere.find(*name); it != seenHere.end()) {
            return makeError(ErrorCode::Value, file.string(), 0, 0,
                             "preset name '" + *name + "' is also used by " + it->second);
        }
        seenHere[*name] = file.filename().string();
    }
    return {};
}

Status PresetLibrary::addFolder(const std::string& dir)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return makeError(ErrorCode::Io, dir, 0, 0, "preset folder not found");
    if (!fs::is_directory(fs::path(dir) / "accelerators", ec) &&
        !fs::is_directory(fs::path(dir) / "workloads", ec)) {
        return makeError(ErrorCode::Format, dir, 0, 0,
                         "not a preset folder: it has neither accelerators/ nor workloads/");
    }
    m_folders.push_back(dir);
    if (auto status = addFiles(PresetKind::Accelerator, dir); !status)
        return status;
    return addFiles(PresetKind::Workload, dir);
}

Expected<AcceleratorSpec> PresetLibrary::accelerator(const std::string& name) const
{
    if (m_loadError)
        return *m_loadError;
    const auto it = m_accelerators.find(name);
    if (it == m_accelerators.end()) {
        return makeError(ErrorCode::Value, "unknown accelerator preset '" + name +
                                               "' (known: " + joined(acceleratorNames()) + ")");
    }
    return it->second;
}

Expected<WorkloadSpec> PresetLibrary::workload(const std::string& name) const
{
    if (m_loadError)
        return *m_loadError;
    const auto it = m_workloads.find(name);
    if (it == m_workloads.end()) {
        return makeError(ErrorCode::Value, "unknown workload preset '" + name +
                                               "' (known: " + joined(workloadNames()) + ")");
    }
    return it->second;
}

std::vector<std::string> PresetLibrary::acceleratorNames() const
{
    return keysOf(m_accelerators);
}

std::vector<std::string> PresetLibrary::workloadNames() const
{
    return keysOf(m_workloads);
}

std::string PresetLibrary::pathOf(PresetKind kind, const std::string& name) const
{
    const auto& paths = kind == PresetKind::Accelerator ? m_acceleratorPaths : m_workloadPaths;
    const auto it = paths.find(name);
    return it == paths.end() ? std::string() : it->second;
}

} // namespace bs::accel
