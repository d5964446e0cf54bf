#pragma once

#include "data/kerneltrace.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace bs::analysis {

/// What a device activity spends its time on, decided from its name (see classifyKernel).
enum class KernelClass : std::uint8_t
{
    Gemm,          ///< GEMM, convolution, attention, FFT: compute-bound math.
    Elementwise,   ///< Elementwise, reductions, normalisation, layout changes: memory-bound.
    Memory,        ///< memcpy / memset (copy engines or copy kernels).
    Communication, ///< Collectives and peer transfers (NCCL, RCCL, custom all-reduce).
    Other,         ///< None of the patterns matched.
};

inline constexpr std::size_t kKernelClassCount = 5;

/// "gemm", "elementwise", "memcpy_memset", "communication", "other".
const char* kernelClassName(KernelClass c);

/// Classifies a device event by its category and name, case-insensitively, in this order:
/// 1. communication: nccl, rccl, msccl, allreduce/all_reduce, allgather/all_gather,
///    reducescatter/reduce_scatter, alltoall/all_to_all, sendrecv, cross_device_reduce;
/// 2. memcpy_memset: the Memcpy/Memset categories, or memcpy/memset in the name;
/// 3. gemm: gemm, gemv, matmul, bmm, cutlass, cublas, xmma, hmma, wmma, mfma, scudnn, cijk_
///    (rocBLAS/Tensile), implicit_gemm, fprop, dgrad, wgrad, conv2d, convolution, winograd,
///    fft, attention, attn, fmha, flash_;
/// 4. elementwise: elementwise, vectorized, unrolled, reduce, softmax, norm, pool, fill, copy,
///    cat_, index, scatter, gather, transpose, nchwtonhwc, nhwctonchw, dropout, relu, gelu,
///    silu, embedding, multi_tensor_apply, epilogue, adam, sgd;
/// 5. other.
KernelClass classifyKernel(std::string_view name, data::EventCategory category);

/// True for GEMM/convolution kernels that have a tensor-core (matrix-core) variant: names with
/// gemm, gemv, matmul, bmm, scudnn, cijk_, fprop, dgrad, wgrad, conv2d or convolution.
bool expectsTensorCores(std::string_view name);

/// True when the name shows a tensor-core (NVIDIA) or matrix-core (AMD MFMA) implementation:
/// xmma, hmma, imma, wmma, gmma, mma_, tensorop, tf32, bf16, fp16, f16, h16, 1688, 16816,
/// sm80_/sm86_/sm89_/sm90_, ampere_h, turing_h, volta_h, mfma, or Tensile's _MI<m>x<n> tile.
bool hasTensorCoreMarker(std::string_view name);

} // namespace bs::analysis
