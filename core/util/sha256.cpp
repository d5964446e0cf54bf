#include "util/sha256.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

namespace bs {

namespace {
constexpr std::uint32_t rotr(std::uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}
} // namespace

Sha256::Sha256()
    : m_state{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
              0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}
{}

void Sha256::compress(const std::uint8_t* block)
{
    std::array<std::uint32_t, 64> w{};
    for (int i = 0; i < 16; ++i) {
        w[i] = (std::uint32_t(block[4 * i]) << 24) | (std::uint32_t(block[4 * i + 1]) << 16) |
               (std::uint32_t(block[4 * i + 2]) << 8) | std::uint32_t(block[4 * i + 3]);
    }
    for (int i = 16; i < 64; ++i) {
        const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    auto [a, b, c, d, e, f, g, h] = m_state;
    for (int i = 0; i < 64; ++i) {
        const std::uint32_t s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
        const std::uint32_t choose = (e & f) ^ (~e & g);
        const std::uint32_t t1 = h + s1 + choose + kSha256RoundConstants[i] + w[i];
        const std::uint32_t s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
        const std::uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
        const std::uint32_t t2 = s0 + majority;
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    const std::array<std::uint32_t, 8> add = {a, b, c, d, e, f, g, h};
    for (int i = 0; i < 8; ++i)
        m_state[i] += add[i];
}

void Sha256::update(const void* data, std::size_t size)
{
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    m_totalBytes += size;
    while (size > 0) {
        const std::size_t take = std::min(size, m_buffer.size() - m_buffered);
        std::memcpy(m_buffer.data() + m_buffered, bytes, take);
        m_buffered += take;
        bytes += take;
        size -= take;
        if (m_buffered == m_buffer.size()) {
            compress(m_buffer.data());
            m_buffered = 0;
        }
    }
}

std::string Sha256::hexDigest()
{
    const std::uint64_t bitLength = m_totalBytes * 8;
    const std::uint8_t pad = 0x80;
    update(&pad, 1);
    const std::uint8_t zero = 0;
    while (m_buffered != 56)
        update(&zero, 1);
    std::array<std::uint8_t, 8> length{};
    for (int i = 0; i < 8; ++i)
        length[i] = std::uint8_t(bitLength >> (56 - 8 * i));
    update(length.data(), length.size());

    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(64);
    for (std::uint32_t word : m_state) {
        for (int shift = 28; shift >= 0; shift -= 4)
            out += kHex[(word >> shift) & 0xf];
    }
    return out;
}

Expected<std::string> sha256OfFile(const std::string& path, const CancelToken& cancel)
{
    // A FIFO would block the open until a writer appears; only regular files are hashed.
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
        return makeError(ErrorCode::Io, path, 0, 0,
                         "not a regular file (a pipe, socket, device or folder); not hashed");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorCode::Io, path, 0, 0, "cannot open file for hashing");
    Sha256 hash;
    std::vector<char> buffer(1 << 20);
    while (in) {
        if (cancel.isCancelled())
            return makeError(ErrorCode::Cancelled, path, 0, 0, "hashing cancelled");
        in.read(buffer.data(), std::streamsize(buffer.size()));
        hash.update(buffer.data(), std::size_t(in.gcount()));
    }
    if (in.bad())
        return makeError(ErrorCode::Io, path, 0, 0, "read error while hashing");
    return hash.hexDigest();
}

} // namespace bs
