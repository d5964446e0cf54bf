#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace bs::accel {

/// Number format a workload runs in. It selects the accelerator's peak rate and the bytes each
/// weight and activation element takes in memory.
enum class Precision
{
    Fp32,
    Tf32, ///< Tensor-core TF32 math on FP32 storage: FP32 bytes, TF32 peak.
    Bf16,
    Fp16,
    Fp8,
    Int8,
};

inline constexpr Precision kAllPrecisions[] = {Precision::Fp32, Precision::Tf32, Precision::Bf16,
                                               Precision::Fp16, Precision::Fp8,  Precision::Int8};

/// Lowercase name as used in JSON and on the command line ("bf16").
const char* precisionName(Precision precision);

/// The precision named `name`, or nothing for an unknown name.
std::optional<Precision> parsePrecision(std::string_view name);

/// Bytes one element occupies in memory (TF32 is stored as FP32: 4 bytes).
double bytesPerElement(Precision precision);

/// "fp32, tf32, bf16, fp16, fp8, int8", for messages.
std::string precisionList();

} // namespace bs::accel
