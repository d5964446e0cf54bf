#include "analysis/kernelclass.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <string>

namespace bs::analysis {

namespace {

std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

bool containsAny(const std::string& text, std::initializer_list<std::string_view> needles)
{
    return std::any_of(needles.begin(), needles.end(),
                       [&](std::string_view n) { return text.find(n) != std::string::npos; });
}

/// Tensile (rocBLAS/hipBLASLt) names MFMA kernels with an "_MI<m>x<n>" tile field.
bool hasTensileMatrixInstruction(const std::string& text)
{
    for (std::size_t at = text.find("_mi"); at != std::string::npos;
         at = text.find("_mi", at + 1)) {
        if (at + 3 < text.size() && std::isdigit(static_cast<unsigned char>(text[at + 3])))
            return true;
    }
    return false;
}

} // namespace

const char* kernelClassName(KernelClass c)
{
    switch (c) {
    case KernelClass::Gemm:
        return "gemm";
    case KernelClass::Elementwise:
        return "elementwise";
    case KernelClass::Memory:
        return "memcpy_memset";
    case KernelClass::Communication:
        return "communication";
    case KernelClass::Other:
        return "other";
    }
    return "other";
}

KernelClass classifyKernel(std::string_view name, data::EventCategory category)
{
    const std::string n = lower(name);
    if (containsAny(n, {"nccl", "rccl", "msccl", "allreduce", "all_reduce", "allgather",
                        "all_gather", "reducescatter", "reduce_scatter", "alltoall", "all_to_all",
                        "sendrecv", "cross_device_reduce"}))
        return KernelClass::Communication;
    if (category == data::EventCategory::Memcpy || category == data::EventCategory::Memset ||
        containsAny(n, {"memcpy", "memset"}))
        return KernelClass::Memory;
    if (containsAny(n, {"gemm",          "gemv",  "matmul",    "bmm",   "cutlass", "cublas",
                        "xmma",          "hmma",  "wmma",      "mfma",  "scudnn",  "cijk_",
                        "implicit_gemm", "fprop", "dgrad",     "wgrad", "conv2d",  "convolution",
                        "winograd",      "fft",   "attention", "attn",  "fmha",    "flash_"}))
        return KernelClass::Gemm;
    if (containsAny(n, {"elementwise", "vectorized",
                        "unrolled",    "reduce",
                        "softmax",     "norm",
                        "pool",        "fill",
                        "copy",        "cat_",
                        "index",       "scatter",
                        "gather",      "transpose",
                        "nchwtonhwc",  "nhwctonchw",
                        "dropout",     "relu",
                        "gelu",        "silu",
                        "embedding",   "multi_tensor_apply",
                        "epilogue",    "adam",
                        "sgd"}))
        return KernelClass::Elementwise;
    return KernelClass::Other;
}

bool expectsTensorCores(std::string_view name)
{
    return containsAny(lower(name), {"gemm", "gemv", "matmul", "bmm", "scudnn", "cijk_", "fprop",
                                     "dgrad", "wgrad", "conv2d", "convolution"});
}

bool hasTensorCoreMarker(std::string_view name)
{
    const std::string n = lower(name);
    return containsAny(n, {"xmma",     "hmma",     "imma",    "wmma",  "gmma",  "mma_",
                           "tensorop", "tf32",     "bf16",    "fp16",  "f16",   "h16",
                           "1688",     "16816",    "sm80_",   "sm86_", "sm89_", "sm90_",
                           "ampere_h", "turing_h", "volta_h", "mfma"}) ||
           hasTensileMatrixInstruction(n);
}

} // namespace bs::analysis
