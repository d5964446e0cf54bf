#pragma once

#include "util/canceltoken.h"
#include "util/expected.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace bs {

/// Streaming SHA-256 (FIPS 180-4). Used for dataset provenance: a memo names every input file
/// by its hash so a reviewer can check they reproduce from the same bytes.
class Sha256
{
public:
    Sha256();
    void update(const void* data, std::size_t size);
    void update(std::string_view text) { update(text.data(), text.size()); }
    /// Finishes the hash and returns 64 lowercase hex digits. The object must not be reused.
    std::string hexDigest();

private:
    void compress(const std::uint8_t* block);

    std::array<std::uint32_t, 8> m_state{};
    std::array<std::uint8_t, 64> m_buffer{};
    std::size_t m_buffered = 0;
    std::uint64_t m_totalBytes = 0;
};

/// SHA-256 of a file's bytes as they are on disk (a .gz file hashes its compressed bytes).
Expected<std::string> sha256OfFile(const std::string& path,
                                   const CancelToken& cancel = CancelToken());

} // namespace bs
