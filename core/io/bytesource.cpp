#include "io/bytesource.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace bs::io {

namespace {

/// Where stored bytes come from: a FILE* or a string in memory.
class RawInput
{
public:
    virtual ~RawInput() = default;
    virtual Expected<std::size_t> read(char* buffer, std::size_t capacity) = 0;
};

class FileInput final : public RawInput
{
public:
    FileInput(std::FILE* file, std::string path, StoredBytesObserver observer)
        : m_file(file)
        , m_path(std::move(path))
        , m_observer(std::move(observer))
    {}
    ~FileInput() override { std::fclose(m_file); }
    FileInput(const FileInput&) = delete;
    FileInput& operator=(const FileInput&) = delete;

    Expected<std::size_t> read(char* buffer, std::size_t capacity) override
    {
        const std::size_t got = std::fread(buffer, 1, capacity, m_file);
        if (got == 0 && std::ferror(m_file))
            return makeError(ErrorCode::Io, m_path, 0, 0,
                             std::string("read error: ") + std::strerror(errno));
        if (m_observer && got > 0)
            m_observer(buffer, got);
        return got;
    }

private:
    std::FILE* m_file;
    std::string m_path;
    StoredBytesObserver m_observer;
};

class MemoryInput final : public RawInput
{
public:
    explicit MemoryInput(std::string data)
        : m_data(std::move(data))
    {}
    Expected<std::size_t> read(char* buffer, std::size_t capacity) override
    {
        const std::size_t take = std::min(capacity, m_data.size() - m_offset);
        std::memcpy(buffer, m_data.data() + m_offset, take);
        m_offset += take;
        return take;
    }

private:
    std::string m_data;
    std::size_t m_offset = 0;
};

/// Bytes read while sniffing the magic number are replayed before the rest of the input.
struct Prefix
{
    char bytes[2] = {};
    std::size_t size = 0;
};

class PlainSource final : public ByteSource
{
public:
    PlainSource(std::unique_ptr<RawInput> input, Prefix prefix, std::string path,
                std::uint64_t storedSize)
        : ByteSource(std::move(path), false, storedSize)
        , m_input(std::move(input))
        , m_prefix(prefix)
    {}

    Expected<std::size_t> read(char* buffer, std::size_t capacity) override
    {
        std::size_t copied = 0;
        while (m_prefixOffset < m_prefix.size && copied < capacity)
            buffer[copied++] = m_prefix.bytes[m_prefixOffset++];
        if (copied < capacity) {
            auto got = m_input->read(buffer + copied, capacity - copied);
            if (!got)
                return got.error();
            copied += *got;
        }
        m_consumed += copied;
        m_produced += copied;
        return copied;
    }
    std::uint64_t storedBytesConsumed() const override { return m_consumed; }

private:
    std::unique_ptr<RawInput> m_input;
    Prefix m_prefix;
    std::size_t m_prefixOffset = 0;
    std::uint64_t m_consumed = 0;
};

class GzipSource final : public ByteSource
{
public:
    GzipSource(std::unique_ptr<RawInput> input, Prefix prefix, std::string path,
               std::uint64_t storedSize, ByteSourceLimits limits)
        : ByteSource(std::move(path), true, storedSize)
        , m_input(std::move(input))
        , m_limits(limits)
        , m_inBuffer(1 << 18)
    {
        std::memcpy(m_inBuffer.data(), prefix.bytes, prefix.size);
        m_stream.next_in = reinterpret_cast<Bytef*>(m_inBuffer.data());
        m_stream.avail_in = uInt(prefix.size);
        m_consumed = prefix.size;
        // 16 + MAX_WBITS: expect a gzip header and trailer (CRC and length are checked).
        m_initStatus = inflateInit2(&m_stream, 16 + MAX_WBITS);
    }
    ~GzipSource() override { inflateEnd(&m_stream); }
    GzipSource(const GzipSource&) = delete;
    GzipSource& operator=(const GzipSource&) = delete;

    Expected<std::size_t> read(char* buffer, std::size_t capacity) override;
    /// Compressed bytes inflate has actually used (not merely buffered).
    std::uint64_t storedBytesConsumed() const override { return m_consumed - m_stream.avail_in; }

private:
    Error fail(ErrorCode code, const std::string& why) const
    {
        return makeError(code, path(), 0, 0, why);
    }
    Expected<bool> refill();
    Status checkLimits() const;

    std::unique_ptr<RawInput> m_input;
    ByteSourceLimits m_limits;
    std::vector<char> m_inBuffer;
    z_stream m_stream{};
    int m_initStatus = Z_OK;
    std::uint64_t m_consumed = 0;
    bool m_inputEnded = false;
    bool m_streamEnded = false; ///< The current member's trailer was read.
    bool m_finished = false;
};

Expected<bool> GzipSource::refill()
{
    if (m_inputEnded)
        return false;
    auto got = m_input->read(m_inBuffer.data(), m_inBuffer.size());
    if (!got)
        return got.error();
    if (*got == 0) {
        m_inputEnded = true;
        return false;
    }
    m_consumed += *got;
    m_stream.next_in = reinterpret_cast<Bytef*>(m_inBuffer.data());
    m_stream.avail_in = uInt(*got);
    return true;
}

Status GzipSource::checkLimits() const
{
    if (m_produced > m_limits.maxUncompressedBytes) {
        return fail(ErrorCode::Limit, "decompressed size exceeds the limit of " +
                                          std::to_string(m_limits.maxUncompressedBytes) +
                                          " bytes; refusing to continue");
    }
    const std::uint64_t used = storedBytesConsumed();
    if (m_produced > m_limits.ratioCheckAfterBytes && used > 0) {
        const double ratio = double(m_produced) / double(used);
        if (ratio > m_limits.maxCompressionRatio) {
            return fail(ErrorCode::Limit, "compression ratio above " +
                                              std::to_string(int(m_limits.maxCompressionRatio)) +
                                              ":1 (a decompression bomb?); refusing to continue");
        }
    }
    return {};
}

Expected<std::size_t> GzipSource::read(char* buffer, std::size_t capacity)
{
    if (m_initStatus != Z_OK)
        return fail(ErrorCode::Internal, "zlib could not be initialised");
    if (m_finished || capacity == 0)
        return std::size_t(0);
    m_stream.next_out = reinterpret_cast<Bytef*>(buffer);
    m_stream.avail_out = uInt(std::min<std::size_t>(capacity, 1u << 30));
    const uInt wanted = m_stream.avail_out;

    while (m_stream.avail_out == wanted) {
        if (m_streamEnded) {
            // Another gzip member may follow (concatenated .gz files are valid gzip).
            if (m_stream.avail_in == 0) {
                auto more = refill();
                if (!more)
                    return more.error();
                if (!*more) {
                    m_finished = true;
                    return std::size_t(0);
                }
            }
            inflateReset(&m_stream);
            m_streamEnded = false;
        }
        if (m_stream.avail_in == 0) {
            auto more = refill();
            if (!more)
                return more.error();
            if (!*more) {
                return fail(ErrorCode::Format, "truncated gzip data: the stream ends after " +
                                                   std::to_string(m_consumed) +
                                                   " compressed bytes without its end "
                                                   "marker");
            }
        }
        const int status = inflate(&m_stream, Z_NO_FLUSH);
        if (status == Z_STREAM_END) {
            m_streamEnded = true;
        } else if (status == Z_DATA_ERROR || status == Z_NEED_DICT) {
            const std::string detail = m_stream.msg ? m_stream.msg : "invalid deflate data";
            return fail(ErrorCode::Format, "corrupt gzip data at compressed byte " +
                                               std::to_string(storedBytesConsumed()) + ": " +
                                               detail);
        } else if (status == Z_MEM_ERROR) {
            return fail(ErrorCode::Limit, "out of memory while decompressing");
        } else if (status != Z_OK && status != Z_BUF_ERROR) {
            return fail(ErrorCode::Format,
                        "gzip decoder failed (zlib status " + std::to_string(status) + ")");
        }
    }
    const std::size_t produced = wanted - m_stream.avail_out;
    m_produced += produced;
    if (auto limit = checkLimits(); !limit)
        return limit.error();
    return produced;
}

std::unique_ptr<ByteSource> makeSource(std::unique_ptr<RawInput> input, std::string path,
                                       std::uint64_t storedSize, const ByteSourceLimits& limits,
                                       Expected<std::size_t>& sniffStatus)
{
    Prefix prefix;
    // Two reads at most: a one-byte first read must not hide the magic number.
    while (prefix.size < 2) {
        sniffStatus = input->read(prefix.bytes + prefix.size, 2 - prefix.size);
        if (!sniffStatus || *sniffStatus == 0)
            break;
        prefix.size += *sniffStatus;
    }
    if (looksLikeGzip(prefix.bytes, prefix.size)) {
        return std::make_unique<GzipSource>(std::move(input), prefix, std::move(path), storedSize,
                                            limits);
    }
    return std::make_unique<PlainSource>(std::move(input), prefix, std::move(path), storedSize);
}

} // namespace

std::size_t initialBufferBytes(const ByteSource& source, std::size_t preferred)
{
    constexpr std::size_t kSmallest = 4096;
    const std::uint64_t stored = source.storedSizeBytes();
    // A .gz says little about its content's size; an empty size may mean "unknown".
    if (source.isCompressed() || stored == 0 || stored >= preferred)
        return preferred;
    return std::min(preferred, std::max(kSmallest, std::size_t(stored) + 1));
}

bool looksLikeGzip(const char* bytes, std::size_t size)
{
    return size >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
           static_cast<unsigned char>(bytes[1]) == 0x8b;
}

namespace {

/// Opens path for reading only when it is a regular file: a FIFO named as a dataset or project
/// would block in fopen until some writer appears, and a device never ends. O_NONBLOCK lets
/// the open return at once whatever the file is; fstat then decides on what was opened.
Expected<std::FILE*> openRegularFile(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return makeError(ErrorCode::Io, path, 0, 0,
                         std::string("cannot open file: ") + std::strerror(errno));
    struct stat info = {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        return makeError(
            ErrorCode::Io, path, 0, 0,
            S_ISDIR(info.st_mode)
                ? "is a folder, not a file"
                : "not a regular file (a pipe, socket or device); refusing to read it");
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    std::FILE* file = ::fdopen(fd, "rb");
    if (!file) {
        ::close(fd);
        return makeError(ErrorCode::Io, path, 0, 0,
                         std::string("cannot open file: ") + std::strerror(errno));
    }
    return file;
}

} // namespace

Expected<std::unique_ptr<ByteSource>> openByteSource(const std::string& path,
                                                     const ByteSourceLimits& limits)
{
    return openByteSource(path, limits, StoredBytesObserver());
}

Expected<std::unique_ptr<ByteSource>> openByteSource(const std::string& path,
                                                     const ByteSourceLimits& limits,
                                                     StoredBytesObserver observer)
{
    std::FILE* file = nullptr;
    if (auto opened = openRegularFile(path); opened)
        file = *opened;
    else
        return opened.error();
    std::uint64_t size = 0;
    if (std::fseek(file, 0, SEEK_END) == 0) {
        const long end = std::ftell(file);
        size = end > 0 ? std::uint64_t(end) : 0;
        std::fseek(file, 0, SEEK_SET);
    } else {
        std::fclose(file);
        return makeError(ErrorCode::Io, path, 0, 0, "not a regular file (cannot seek)");
    }
    Expected<std::size_t> sniff = std::size_t(0);
    auto source = makeSource(std::make_unique<FileInput>(file, path, std::move(observer)), path,
                             size, limits, sniff);
    if (!sniff)
        return sniff.error();
    return source;
}

std::unique_ptr<ByteSource> memoryByteSource(std::string data, std::string name,
                                             const ByteSourceLimits& limits)
{
    const std::uint64_t size = data.size();
    Expected<std::size_t> sniff = std::size_t(0);
    return makeSource(std::make_unique<MemoryInput>(std::move(data)), std::move(name), size, limits,
                      sniff);
}

Expected<std::string> readAll(ByteSource& source, std::uint64_t maxBytes)
{
    std::string out;
    std::vector<char> chunk(1 << 16);
    for (;;) {
        auto got = source.read(chunk.data(), chunk.size());
        if (!got)
            return got.error();
        if (*got == 0)
            return out;
        if (out.size() + *got > maxBytes) {
            return makeError(ErrorCode::Limit, source.path(), 0, 0,
                             "file is larger than the " + std::to_string(maxBytes) +
                                 " bytes allowed for this kind of file");
        }
        out.append(chunk.data(), *got);
    }
}

} // namespace bs::io
