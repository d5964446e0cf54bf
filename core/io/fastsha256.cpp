#include "io/fastsha256.h"

#include <cstring>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define BS_HAVE_SHA_NI 1
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace bs::io {

namespace {

#if defined(BS_HAVE_SHA_NI)

/// Compresses `blocks` 64-byte blocks with the x86 SHA extensions (the sequence of Intel's
/// "Intel SHA Extensions" paper: two rounds per sha256rnds2, message schedule by msg1/msg2).
__attribute__((target("sha,sse4.1"))) void
compressHardware(std::uint32_t* state, const std::uint8_t* data, std::size_t blocks)
{
    const __m128i mask = _mm_set_epi64x(0x0c0d0e0f08090a0bll, 0x0405060700010203ll);
    __m128i tmp = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state));
    __m128i state1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4));
    tmp = _mm_shuffle_epi32(tmp, 0xB1);               // CDAB
    state1 = _mm_shuffle_epi32(state1, 0x1B);         // EFGH
    __m128i state0 = _mm_alignr_epi8(tmp, state1, 8); // ABEF
    state1 = _mm_blend_epi16(state1, tmp, 0xF0);      // CDGH
    for (; blocks > 0; --blocks, data += 64) {
        const __m128i abefSave = state0;
        const __m128i cdghSave = state1;
        __m128i m[4];
        for (int i = 0; i < 4; ++i) {
            m[i] = _mm_shuffle_epi8(
                _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * i)), mask);
        }
#pragma GCC unroll 16
        for (int g = 0; g < 16; ++g) {
            __m128i msg = _mm_add_epi32(m[g % 4], _mm_load_si128(reinterpret_cast<const __m128i*>(
                                                      kSha256RoundConstants + 4 * g)));
            state1 = _mm_sha256rnds2_epu32(state1, state0, msg);
            if (g >= 3 && g <= 14) {
                const __m128i t = _mm_alignr_epi8(m[g % 4], m[(g + 3) % 4], 4);
                m[(g + 1) % 4] = _mm_sha256msg2_epu32(_mm_add_epi32(m[(g + 1) % 4], t), m[g % 4]);
            }
            msg = _mm_shuffle_epi32(msg, 0x0E);
            state0 = _mm_sha256rnds2_epu32(state0, state1, msg);
            if (g >= 1 && g <= 12)
                m[(g + 3) % 4] = _mm_sha256msg1_epu32(m[(g + 3) % 4], m[g % 4]);
        }
        state0 = _mm_add_epi32(state0, abefSave);
        state1 = _mm_add_epi32(state1, cdghSave);
    }
    tmp = _mm_shuffle_epi32(state0, 0x1B);       // FEBA
    state1 = _mm_shuffle_epi32(state1, 0xB1);    // DCHG
    state0 = _mm_blend_epi16(tmp, state1, 0xF0); // DCBA
    state1 = _mm_alignr_epi8(state1, tmp, 8);    // HGFE
    _mm_storeu_si128(reinterpret_cast<__m128i*>(state), state0);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), state1);
}

bool detectHardware()
{
    // CPUID directly: clang 14 (the fuzz build) does not know __builtin_cpu_supports("sha").
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
        return false;
    const bool sse41 = (ecx & bit_SSE4_1) != 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
        return false;
    const bool sha = (ebx & (1u << 29)) != 0; // CPUID.(EAX=7,ECX=0):EBX.SHA[bit 29]
    return sse41 && sha;
}

#else

void compressHardware(std::uint32_t*, const std::uint8_t*, std::size_t) {}
bool detectHardware()
{
    return false;
}

#endif

} // namespace

bool FastSha256::hardwareAvailable()
{
    static const bool available = detectHardware();
    return available;
}

FastSha256::FastSha256()
    : m_hardware(hardwareAvailable())
    , m_state{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
              0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}
{}

void FastSha256::update(const void* data, std::size_t size)
{
    if (!m_hardware) {
        m_portable.update(data, size);
        return;
    }
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    m_totalBytes += size;
    if (m_buffered > 0) {
        const std::size_t take = std::min(size, 64 - m_buffered);
        std::memcpy(m_buffer.data() + m_buffered, bytes, take);
        m_buffered += take;
        bytes += take;
        size -= take;
        if (m_buffered < 64)
            return;
        compressHardware(m_state.data(), m_buffer.data(), 1);
        m_buffered = 0;
    }
    compressHardware(m_state.data(), bytes, size / 64);
    bytes += size / 64 * 64;
    m_buffered = size % 64;
    std::memcpy(m_buffer.data(), bytes, m_buffered);
}

std::string FastSha256::hexDigest()
{
    if (!m_hardware)
        return m_portable.hexDigest();
    // Padding: 0x80, zeros, then the length in bits, big-endian (FIPS 180-4 5.1.1).
    const std::uint64_t bits = m_totalBytes * 8;
    std::uint8_t pad[72] = {0x80};
    const std::size_t padLength = (m_buffered < 56 ? 56 : 120) - m_buffered;
    for (int i = 0; i < 8; ++i)
        pad[padLength + std::size_t(i)] = std::uint8_t(bits >> (56 - 8 * i));
    update(pad, padLength + 8);
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (std::uint32_t word : m_state) {
        for (int shift = 28; shift >= 0; shift -= 4)
            out += hex[(word >> shift) & 0xf];
    }
    return out;
}

} // namespace bs::io
