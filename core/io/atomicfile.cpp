#include "io/atomicfile.h"

#include <zlib.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

namespace bs::io {

namespace {

Error ioError(const std::string& path, const std::string& what)
{
    return makeError(ErrorCode::Io, path, 0, 0, what + ": " + std::strerror(errno));
}

Status writeAll(int fd, std::string_view bytes, const std::string& path)
{
    while (!bytes.empty()) {
        const ssize_t written = ::write(fd, bytes.data(), bytes.size());
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return ioError(path, "cannot write");
        }
        bytes.remove_prefix(std::size_t(written));
    }
    return {};
}

void syncFolder(const std::filesystem::path& folder)
{
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

/// Makes "<path>.bak" the current file: a hard link (or, where links fail, a copy) under a
/// temporary name, renamed over the old backup, so a crash at any moment leaves a whole backup.
void refreshBackup(const std::filesystem::path& target)
{
    std::error_code ec;
    if (!std::filesystem::exists(target, ec))
        return;
    const auto backup = std::filesystem::path(target.string() + ".bak");
    const auto staging = std::filesystem::path(target.string() + ".bak.new");
    std::filesystem::remove(staging, ec);
    if (::link(target.c_str(), staging.c_str()) != 0) {
        std::filesystem::copy_file(target, staging,
                                   std::filesystem::copy_options::overwrite_existing, ec);
        if (ec)
            return; // the old backup stays
    }
    std::filesystem::rename(staging, backup, ec);
}

/// The file a save of `path` must replace: the end of its symlink chain, so saving through a
/// link updates what it points to instead of replacing the link with a plain file.
std::filesystem::path resolveSymlinks(std::filesystem::path path)
{
    std::error_code ec;
    for (int hop = 0; hop < 40 && std::filesystem::is_symlink(path, ec); ++hop) {
        const auto next = std::filesystem::read_symlink(path, ec);
        if (ec)
            break;
        path = next.is_absolute() ? next : path.parent_path() / next;
    }
    return path.lexically_normal();
}

/// Removes temporary files an earlier save left behind when it was killed. Only ours (regular
/// files, same owner) and only old ones: a save running right now in another window keeps its.
void removeStaleTemporaries(const std::filesystem::path& folder, const std::string& prefix)
{
    constexpr auto kStaleAfter = std::chrono::minutes(10);
    std::error_code ec;
    const auto now = std::filesystem::file_time_type::clock::now();
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with(prefix))
            continue;
        struct stat info = {};
        if (::lstat(entry.path().c_str(), &info) != 0 || !S_ISREG(info.st_mode) ||
            info.st_uid != ::getuid())
            continue;
        std::error_code timeError;
        const auto written = std::filesystem::last_write_time(entry.path(), timeError);
        if (!timeError && now - written > kStaleAfter)
            std::filesystem::remove(entry.path(), timeError);
    }
}

/// Creates a new temporary file from `pattern` (ending in XXXXXX). A new file gets 0666 less
/// the umask, like any file the user creates; a replacement is made 0600 and later given the
/// old file's mode, so its contents are never more exposed than the file they replace.
int createTemporary(std::string& pattern, bool replacing)
{
    static constexpr char kDigits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::random_device entropy;
    const std::size_t stem = pattern.size() - 6;
    for (int attempt = 0; attempt < 100; ++attempt) {
        for (std::size_t i = stem; i < pattern.size(); ++i)
            pattern[i] = kDigits[entropy() % (sizeof kDigits - 1)];
        const int fd = ::open(pattern.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                              replacing ? 0600 : 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

} // namespace

Status writeFileAtomically(const std::string& path, std::string_view bytes,
                           const AtomicWriteOptions& options)
{
    const std::filesystem::path target = resolveSymlinks(std::filesystem::absolute(path));
    const std::filesystem::path folder = target.parent_path();
    const std::string prefix = "." + target.filename().string() + ".saving-";
    removeStaleTemporaries(folder, prefix);
    struct stat old = {};
    const bool replacing = ::stat(target.c_str(), &old) == 0;
    if (replacing && !S_ISREG(old.st_mode))
        return makeError(ErrorCode::Io, path, 0, 0,
                         "exists and is not a regular file (a folder, pipe or device); not "
                         "replaced");
    std::string temp = (folder / (prefix + "XXXXXX")).string();
    const int fd = createTemporary(temp, replacing);
    if (fd < 0)
        return ioError(path, "cannot create a temporary file next to it");

    auto abandon = [&](Error error) {
        ::close(fd);
        ::unlink(temp.c_str());
        return error;
    };
    if (auto status = writeAll(fd, bytes, path); !status)
        return abandon(status.error());
    if (::fsync(fd) != 0)
        return abandon(ioError(path, "cannot flush to disk"));
    if (replacing && ::fchmod(fd, old.st_mode & 07777) != 0)
        return abandon(ioError(path, "cannot give the new file the permissions of the old one"));
    if (::close(fd) != 0) {
        ::unlink(temp.c_str());
        return ioError(path, "cannot close the temporary file");
    }
    if (options.keepBackup)
        refreshBackup(target);
    if (::rename(temp.c_str(), target.c_str()) != 0) {
        Error error = ioError(path, "cannot replace the file");
        ::unlink(temp.c_str());
        return error;
    }
    syncFolder(folder);
    return {};
}

std::string gzipCompress(std::string_view bytes, int level)
{
    z_stream stream{};
    // 15 + 16: a gzip wrapper (header and CRC trailer) rather than raw zlib.
    deflateInit2(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    std::string out;
    out.resize(deflateBound(&stream, uLong(bytes.size())) + 32);
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    stream.avail_in = uInt(bytes.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = uInt(out.size());
    deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}

} // namespace bs::io
