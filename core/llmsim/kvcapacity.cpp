// KV-cache capacity from device memory, the model's shape and the engine's settings (README.md:
// "KV-cache capacity").
#include "llmsim/kvcapacity.h"

#include "util/numbertext.h"

#include <cmath>
#include <filesystem>

namespace bs::llmsim {

namespace {

constexpr double kGib = 1024.0 * 1024.0 * 1024.0;

bool isOneOf(const std::string& value, std::initializer_list<const char*> names)
{
    for (const char* name : names)
        if (value == name)
            return true;
    return false;
}

/// K and V heads each GPU holds: split across tensor-parallel ranks, replicated when there are
/// fewer KV heads than ranks (as vLLM does).
std::int64_t kvHeadsPerGpu(const ModelShape& shape, std::int32_t tensorParallel)
{
    return std::max<std::int64_t>(1, shape.kvHeads / tensorParallel);
}

std::string gib(double bytes)
{
    return significant(bytes / kGib, 4) + " GiB";
}

} // namespace

int weightBytesPerParameter(const KvMemorySpec& spec, const ModelShape& shape)
{
    const std::string dtype = spec.weightDtype == "auto" ? shape.dtype : spec.weightDtype;
    if (isOneOf(dtype, {"fp8", "float8", "float8_e4m3fn"}))
        return 1;
    return 2; // bfloat16, float16, and float32 served as bfloat16
}

int kvBytesPerElement(const KvMemorySpec& spec, const ModelShape& shape)
{
    if (isOneOf(spec.kvCacheDtype, {"fp8", "fp8_e4m3", "fp8_e5m2"}))
        return 1;
    (void)shape;
    return 2; // "auto": the activations' dtype, bfloat16 or float16
}

std::int64_t kvBytesPerTokenPerGpu(const KvMemorySpec& spec, const ModelShape& shape)
{
    return 2LL * shape.layers * kvHeadsPerGpu(shape, spec.tensorParallel) * shape.headDim *
           kvBytesPerElement(spec, shape);
}

Expected<KvCapacity> kvCapacity(const ModelShape& shape, const KvMemorySpec& spec,
                                std::int32_t blockSize)
{
    const std::int32_t tp = spec.tensorParallel;
    if (tp < 1 || shape.attentionHeads % tp != 0)
        return makeError(ErrorCode::Value, spec.modelConfig, 0, 0,
                         "engine.kv_memory.tensor_parallel: " + std::to_string(tp) +
                             " does not divide the model's " +
                             std::to_string(shape.attentionHeads) + " attention heads");
    KvCapacity out;
    out.parameters = parameterCount(shape);
    out.weightBytesPerParameter = weightBytesPerParameter(spec, shape);
    out.kvBytesPerElement = kvBytesPerElement(spec, shape);
    out.usableBytesPerGpu = spec.gpuMemoryUtilization * spec.deviceMemoryGib * kGib;
    out.weightBytesPerGpu = double(out.parameters) * out.weightBytesPerParameter / tp;
    out.reserveBytesPerGpu = spec.runtimeReserveGib * kGib;
    out.kvBytesPerGpu = out.usableBytesPerGpu - out.weightBytesPerGpu - out.reserveBytesPerGpu;
    out.kvBytesPerTokenPerGpu = kvBytesPerTokenPerGpu(spec, shape);
    const double blockBytes = double(blockSize) * double(out.kvBytesPerTokenPerGpu);
    out.numGpuBlocks =
        out.kvBytesPerGpu > 0 ? std::int64_t(std::floor(out.kvBytesPerGpu / blockBytes)) : 0;
    // The LLM region refuses a cell on this message's start (analysis::isRefusal in
    // llmregion.cpp): keep "engine.kv_memory: the weights" as it is.
    if (out.numGpuBlocks < 1)
        return makeError(
            ErrorCode::Value, spec.modelConfig, 0, 0,
            "engine.kv_memory: the weights (" + gib(out.weightBytesPerGpu) +
                " per GPU) and the runtime reserve (" + gib(out.reserveBytesPerGpu) +
                ") leave no room for a KV block in " + significant(spec.gpuMemoryUtilization, 3) +
                " x " + significant(spec.deviceMemoryGib, 4) +
                " GiB (more GPUs, a smaller dtype or a larger gpu_memory_utilization)");
    out.kvTokens = out.numGpuBlocks * blockSize;
    return out;
}

Expected<KvCapacity> kvCapacity(const KvMemorySpec& spec, std::int32_t blockSize,
                                const std::string& baseDirectory)
{
    std::filesystem::path config(spec.modelConfig);
    if (config.is_relative() && !baseDirectory.empty() && !isBuiltinModelConfig(spec.modelConfig))
        config = std::filesystem::path(baseDirectory) / config;
    auto shape = readHfConfig(config.string());
    if (!shape)
        return shape.error();
    return kvCapacity(*shape, spec, blockSize);
}

double inferredReserveBytes(const ModelShape& shape, const KvMemorySpec& spec,
                            std::int32_t blockSize, std::int64_t measuredBlocks)
{
    KvMemorySpec noReserve = spec;
    noReserve.runtimeReserveGib = 0.0;
    const auto capacity = kvCapacity(shape, noReserve, blockSize);
    if (!capacity)
        return std::nan("");
    return capacity->usableBytesPerGpu - capacity->weightBytesPerGpu -
           double(measuredBlocks) * blockSize * double(capacity->kvBytesPerTokenPerGpu);
}

} // namespace bs::llmsim
