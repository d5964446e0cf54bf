#include "accel/precision.h"

namespace bs::accel {

const char* precisionName(Precision precision)
{
    switch (precision) {
    case Precision::Fp32:
        return "fp32";
    case Precision::Tf32:
        return "tf32";
    case Precision::Bf16:
        return "bf16";
    case Precision::Fp16:
        return "fp16";
    case Precision::Fp8:
        return "fp8";
    case Precision::Int8:
        return "int8";
    }
    return "fp32";
}

std::optional<Precision> parsePrecision(std::string_view name)
{
    for (Precision p : kAllPrecisions) {
        if (name == precisionName(p))
            return p;
    }
    return std::nullopt;
}

double bytesPerElement(Precision precision)
{
    switch (precision) {
    case Precision::Fp32:
    case Precision::Tf32:
        return 4.0;
    case Precision::Bf16:
    case Precision::Fp16:
        return 2.0;
    case Precision::Fp8:
    case Precision::Int8:
        return 1.0;
    }
    return 4.0;
}

std::string precisionList()
{
    std::string list;
    for (Precision p : kAllPrecisions)
        list += (list.empty() ? "" : ", ") + std::string(precisionName(p));
    return list;
}

} // namespace bs::accel
