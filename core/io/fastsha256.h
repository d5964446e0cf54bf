#pragma once

#include "util/sha256.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace bs::io {

/// SHA-256 for provenance at I/O speed: on x86-64 CPUs with the SHA extensions it hashes at
/// about 1.5-2 GB/s (the portable bs::Sha256 runs at ~100 MB/s, slower than the readers it
/// shadows); elsewhere it is bs::Sha256. Same digests either way (tests compare them).
class FastSha256
{
public:
    FastSha256();
    void update(const void* data, std::size_t size);
    /// Finishes the hash and returns 64 lowercase hex digits. The object must not be reused.
    std::string hexDigest();
    /// True when the hardware path is used on this CPU.
    static bool hardwareAvailable();

private:
    bool m_hardware;
    Sha256 m_portable;
    std::array<std::uint32_t, 8> m_state{};
    std::array<std::uint8_t, 64> m_buffer{};
    std::size_t m_buffered = 0;
    std::uint64_t m_totalBytes = 0;
};

} // namespace bs::io
