#pragma once

#include "util/expected.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace bs::io {

/// Protective limits for decompression, so a hostile .gz cannot exhaust memory or disk time.
struct ByteSourceLimits
{
    /// Decompressing past this many bytes is an error (default 64 GiB).
    std::uint64_t maxUncompressedBytes = std::uint64_t(64) << 30;
    /// Once more than ratioCheckAfterBytes have come out, output/input above this is an error.
    double maxCompressionRatio = 200.0;
    std::uint64_t ratioCheckAfterBytes = std::uint64_t(64) << 20;
};

/// A stream of bytes from a file or memory, plain or gzip, decided by the content's magic bytes
/// (1f 8b), never by the file name. Reading is streaming: a .gz is inflated chunk by chunk and
/// never held whole in memory. Concatenated gzip members are read as one stream.
class ByteSource
{
public:
    virtual ~ByteSource() = default;

    /// Reads up to `capacity` bytes into `buffer`; returns the count, 0 at the end of the data.
    /// Errors (truncated or corrupt gzip, I/O failure, a limit) name the path.
    virtual Expected<std::size_t> read(char* buffer, std::size_t capacity) = 0;

    const std::string& path() const { return m_path; }
    bool isCompressed() const { return m_compressed; }
    /// Size of the underlying file or buffer as stored (compressed bytes for .gz).
    std::uint64_t storedSizeBytes() const { return m_storedSize; }
    /// Stored bytes consumed so far: the basis for byte-based progress.
    virtual std::uint64_t storedBytesConsumed() const = 0;
    /// Bytes handed out so far (uncompressed).
    std::uint64_t bytesProduced() const { return m_produced; }

protected:
    ByteSource(std::string path, bool compressed, std::uint64_t storedSize)
        : m_path(std::move(path))
        , m_compressed(compressed)
        , m_storedSize(storedSize)
    {}
    std::uint64_t m_produced = 0;

private:
    std::string m_path;
    bool m_compressed;
    std::uint64_t m_storedSize;
};

/// Opens a file; gzip is detected from its first two bytes.
Expected<std::unique_ptr<ByteSource>> openByteSource(const std::string& path,
                                                     const ByteSourceLimits& limits = {});

/// Sees every stored byte read from a file, in order (compressed bytes for .gz).
using StoredBytesObserver = std::function<void(const char* bytes, std::size_t size)>;

/// Like openByteSource, and also hands every stored byte read from the file to `observer`
/// (on the reading thread), so provenance gets the file's SHA-256 in the same pass. The
/// observer has seen the whole file once the source has been read to its end.
Expected<std::unique_ptr<ByteSource>> openByteSource(const std::string& path,
                                                     const ByteSourceLimits& limits,
                                                     StoredBytesObserver observer);

/// A source over bytes already in memory (tests, fuzzing, embedded resources). `name` stands in
/// for the path in errors.
std::unique_ptr<ByteSource> memoryByteSource(std::string data, std::string name,
                                             const ByteSourceLimits& limits = {});

/// Reads a whole source into a string, failing with ErrorCode::Limit past maxBytes. For small
/// inputs only (project files, scenarios); big readers stream.
Expected<std::string> readAll(ByteSource& source, std::uint64_t maxBytes);

/// Size for a reader's first buffer: `preferred`, or less when the source is a plain file or
/// buffer smaller than that (room for all of it and one more byte, at least 4 KiB), so reading
/// a 2 KiB file does not allocate and clear megabytes. Readers grow the buffer as they need.
std::size_t initialBufferBytes(const ByteSource& source, std::size_t preferred);

/// True when `bytes` start with the gzip magic number.
bool looksLikeGzip(const char* bytes, std::size_t size);

} // namespace bs::io
