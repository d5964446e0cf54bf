#include "io/readdataset.h"

#include "io/backgroundhasher.h"
#include "io/sweepunitcheck.h"
#include "io/utf8text.h"
#include "util/sha256.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

namespace bs::io {

namespace {

constexpr std::size_t kDetectHeadBytes = std::size_t(256) << 10;

using Opener = std::function<Expected<std::unique_ptr<ByteSource>>(StoredBytesObserver)>;

/// Where the bytes come from, and how to name them.
struct Input
{
    std::string path;      ///< For errors and provenance.
    std::string directory; ///< Siblings; empty for none.
    Opener open;
};

/// Reads up to `limit` bytes from the start of a source; `complete` says the source ended.
Expected<std::string> readHead(ByteSource& source, std::size_t limit, bool& complete)
{
    // A small plain file needs room for all of it plus one byte (to see its end), not 256 KiB.
    limit = initialBufferBytes(source, limit);
    std::string head(limit, '\0');
    std::size_t filled = 0;
    complete = false;
    while (filled < limit) {
        auto got = source.read(head.data() + filled, limit - filled);
        if (!got)
            return got.error();
        if (*got == 0) {
            complete = true;
            break;
        }
        filled += *got;
    }
    head.resize(filled);
    return head;
}

Expected<Detection> detectInput(const Input& input)
{
    auto source = input.open(StoredBytesObserver());
    if (!source)
        return source.error();
    bool complete = false;
    auto head = readHead(**source, kDetectHeadBytes, complete);
    if (!head)
        return head.error();
    return detectFormatFromHead(*head, input.path, complete);
}

Expected<Detection> chooseReader(const Input& input, const ReadOptions& options)
{
    if (options.format.empty())
        return detectInput(input);
    const ReaderEntry* entry = findReader(options.format);
    if (!entry) {
        return makeError(ErrorCode::Usage, input.path, 0, 0,
                         "unknown format \"" + options.format +
                             "\"; the readers are: " + readerNameList());
    }
    return Detection{entry->info.name, entry->info.kind,
                     "chosen by the user (format \"" + options.format + "\")"};
}

/// Reads what is left so the stored-bytes hash covers the whole file.
Status drain(ByteSource& source, const CancelToken& cancel)
{
    std::vector<char> buffer(std::size_t(1) << 16);
    for (;;) {
        if (cancel.isCancelled())
            return makeError(ErrorCode::Cancelled, source.path(), 0, 0, "reading cancelled");
        auto got = source.read(buffer.data(), buffer.size());
        if (!got)
            return got.error();
        if (*got == 0)
            return {};
    }
}

std::string fileName(const std::string& path)
{
    const auto name = std::filesystem::path(path).filename().string();
    return name.empty() ? path : name;
}

/// Messages quote cells and names from the file: keep them valid UTF-8 for the GUI and JSON.
Error readableError(Error error)
{
    error.message = sanitizedUtf8(error.message);
    error.path = sanitizedUtf8(error.path);
    return error;
}

/// Every sweep, whatever read it, has its latency units checked against its throughput.
void crossCheckUnits(data::DatasetContent& content, ReaderContext& context)
{
    auto* sweep = std::get_if<std::shared_ptr<const data::SweepTable>>(&content);
    if (!sweep || !*sweep)
        return;
    auto checked = std::make_shared<data::SweepTable>(**sweep);
    checkSweepUnits(*checked, context);
    *sweep = std::move(checked);
}

Expected<data::Dataset> readInput(const Input& input, const ReadOptions& options,
                                  Progress& progress, const CancelToken& cancel,
                                  const std::string* memoryBytes)
{
    auto chosen = chooseReader(input, options);
    if (!chosen)
        return readableError(chosen.error());
    const ReaderEntry* entry = findReader(chosen->reader);
    // Files are hashed on a helper thread while the reader parses; bytes in memory directly.
    std::optional<BackgroundHasher> hasher;
    StoredBytesObserver observer;
    if (!memoryBytes) {
        hasher.emplace();
        observer = [&hasher](const char* bytes, std::size_t size) { hasher->feed(bytes, size); };
    }
    auto source = input.open(observer);
    if (!source)
        return source.error();
    ReaderContext context{input.path, input.directory, options.readerOptions,
                          progress,   cancel,          options.limits};
    progress.setPhase("Reading " + fileName(input.path), (*source)->storedSizeBytes());
    auto content = entry->read(**source, context);
    if (!content)
        return readableError(content.error());
    if (auto status = drain(**source, cancel); !status)
        return status.error();
    progress.finish();
    crossCheckUnits(*content, context);

    data::Dataset dataset;
    dataset.name = fileName(input.path);
    dataset.provenance.path = input.path;
    dataset.provenance.sizeBytes = (*source)->storedSizeBytes();
    if (hasher) {
        dataset.provenance.sha256 = hasher->finish();
    } else {
        Sha256 hash;
        hash.update(*memoryBytes);
        dataset.provenance.sha256 = hash.hexDigest();
    }
    dataset.provenance.reader = entry->info.name;
    dataset.provenance.readerVersion = entry->info.version;
    dataset.provenance.detectedBecause =
        chosen->reason + (context.note.empty() ? "" : "; " + context.note);
    dataset.provenance.warnings = context.warnings.summary();
    const auto& used =
        context.resolvedOptions.is_null() ? options.readerOptions : context.resolvedOptions;
    // Column names come from the file: replace, not throw on, bytes that are not UTF-8.
    dataset.readerOptionsJson = used.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::visit(
        [&dataset](auto&& value) {
            if constexpr (!std::is_same_v<std::decay_t<decltype(value)>, std::monostate>)
                dataset.setContent(value);
        },
        *content);
    sanitizeDatasetText(dataset);
    return dataset;
}

std::string absolutePath(const std::string& path)
{
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(path, ec);
    return ec ? path : absolute.lexically_normal().string();
}

} // namespace

Expected<data::Dataset> readDataset(const std::string& path, const ReadOptions& options,
                                    Progress& progress, const CancelToken& cancel)
{
    const std::string absolute = absolutePath(path);
    std::error_code ec;
    if (std::filesystem::is_directory(absolute, ec))
        return makeError(ErrorCode::Io, absolute, 0, 0, "is a folder, not a file");
    const ByteSourceLimits limits = options.limits;
    Input input{absolute, std::filesystem::path(absolute).parent_path().string(),
                [absolute, limits](StoredBytesObserver observer) {
                    return openByteSource(absolute, limits, std::move(observer));
                }};
    return readInput(input, options, progress, cancel, nullptr);
}

Expected<data::Dataset> readDatasetFromBytes(std::string bytes, const std::string& name,
                                             const ReadOptions& options, Progress& progress,
                                             const CancelToken& cancel,
                                             const std::string& siblingDirectory)
{
    const ByteSourceLimits limits = options.limits;
    const std::string* data = &bytes;
    Input input{name, siblingDirectory, [data, name, limits](const StoredBytesObserver&) {
                    return Expected<std::unique_ptr<ByteSource>>(
                        memoryByteSource(*data, name, limits));
                }};
    return readInput(input, options, progress, cancel, &bytes);
}

Expected<Detection> detectFormat(const std::string& path, const ByteSourceLimits& limits)
{
    Input input{path, {}, [path, limits](const StoredBytesObserver&) {
                    return openByteSource(path, limits);
                }};
    return detectInput(input);
}

std::vector<ReaderInfo> availableReaders()
{
    std::vector<ReaderInfo> out;
    for (const auto& entry : readerRegistry())
        out.push_back(entry.info);
    return out;
}

} // namespace bs::io
