// Fuzzes the byte source (core/io/bytesource.cpp): plain or gzip by the magic bytes, concatenated
// members, truncated and corrupt streams, and the decompression limits. The same input is read
// twice, in odd small chunks and in big ones: both must give the same bytes (or the same kind of
// error), plain input must come back unchanged, and the byte counters must add up.
#include "fuzzsupport.h"
#include "io/bytesource.h"

#include <array>

namespace {

using namespace bs;

struct Outcome
{
    bool ok = true;
    ErrorCode code = ErrorCode::Internal;
    std::string bytes;
};

io::ByteSourceLimits testLimits()
{
    io::ByteSourceLimits limits;
    limits.maxUncompressedBytes = std::uint64_t(1) << 20;
    limits.ratioCheckAfterBytes = std::uint64_t(64) << 10;
    limits.maxCompressionRatio = 200.0;
    return limits;
}

Outcome readAllChunks(const std::string& input, const io::ByteSourceLimits& limits, bool small)
{
    static constexpr std::array<std::size_t, 6> pattern = {1, 7, 3, 4096, 2, 65536};
    auto source = io::memoryByteSource(input, fuzz::kInputName, limits);
    fuzz::require(source->storedSizeBytes() == input.size(), "stored size differs from the input");
    fuzz::require(source->isCompressed() == io::looksLikeGzip(input.data(), input.size()),
                  "gzip decided by something other than the magic bytes");
    Outcome outcome;
    std::string buffer(65536, '\0');
    for (std::size_t step = 0;; ++step) {
        const std::size_t capacity = small ? pattern[step % pattern.size()] : buffer.size();
        auto got = source->read(buffer.data(), capacity);
        if (!got) {
            fuzz::checkError(got.error());
            return {false, got.error().code, std::move(outcome.bytes)};
        }
        fuzz::require(*got <= capacity, "read more than asked");
        if (*got == 0)
            break;
        outcome.bytes.append(buffer.data(), *got);
        fuzz::require(source->bytesProduced() == outcome.bytes.size(), "bytesProduced is off");
        fuzz::require(source->storedBytesConsumed() <= input.size(), "consumed past the input");
        fuzz::require(outcome.bytes.size() <= limits.maxUncompressedBytes,
                      "handed out more than the size limit");
    }
    auto after = source->read(buffer.data(), 16);
    fuzz::require(after.hasValue() && *after == 0, "a read after the end did not return 0");
    if (!source->isCompressed())
        fuzz::require(outcome.bytes == input, "plain input came back changed");
    return outcome;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string input(reinterpret_cast<const char*>(data), size);
    const auto limits = testLimits();
    const Outcome small = readAllChunks(input, limits, true);
    const Outcome big = readAllChunks(input, limits, false);
    // The ratio check looks at the running ratio after each read, so chunk size may decide
    // whether a borderline stream trips it; anything else must not depend on it.
    if (small.code != ErrorCode::Limit && big.code != ErrorCode::Limit) {
        fuzz::require(small.ok == big.ok, "chunk size changed success");
        if (small.ok)
            fuzz::require(small.bytes == big.bytes, "chunk size changed the bytes");
        else
            fuzz::require(small.code == big.code, "chunk size changed the error");
    }
    auto source = io::memoryByteSource(input, fuzz::kInputName, limits);
    auto all = io::readAll(*source, std::uint64_t(256) << 10);
    if (!all)
        fuzz::checkError(all.error());
    else if (big.ok)
        fuzz::require(*all == big.bytes, "readAll differs from chunked reads");
    return 0;
}
