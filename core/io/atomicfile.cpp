#include "io/atomicfile.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
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

} // namespace

Status writeFileAtomically(const std::string& path, std::string_view bytes,
                           const AtomicWriteOptions& options)
{
    const std::filesystem::path target = std::filesystem::absolute(path);
    const std::filesystem::path folder = target.parent_path();
    std::string temp = (folder / ("." + target.filename().string() + ".saving-XXXXXX")).string();
    const int fd = ::mkstemp(temp.data());
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
    // mkstemp creates 0600; a project file is an ordinary document.
    ::fchmod(fd, 0644);
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
