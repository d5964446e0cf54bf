#pragma once

#include "llmsim/llmscenario.h"
#include "llmsim/modelshape.h"
#include "util/expected.h"

#include <cstdint>
#include <string>

namespace bs::llmsim {

/// How many KV-cache blocks an engine gets, as vLLM sizes its cache at start-up: of
/// gpu_memory_utilization × device memory, the weights and the runtime's reserve (CUDA context,
/// the profiling pass's peak activations, graphs) are taken; the rest holds KV blocks.
struct KvCapacity
{
    std::int64_t numGpuBlocks = 0;
    std::int64_t kvTokens = 0; ///< numGpuBlocks × block size.
    std::int64_t parameters = 0;
    double usableBytesPerGpu = 0.0; ///< gpu_memory_utilization × device memory.
    double weightBytesPerGpu = 0.0;
    double reserveBytesPerGpu = 0.0;
    double kvBytesPerGpu = 0.0;
    std::int64_t kvBytesPerTokenPerGpu = 0;
    int weightBytesPerParameter = 0;
    int kvBytesPerElement = 0;
};

/// Bytes per weight and per KV element of a spec's dtypes ("auto": the config's torch_dtype,
/// float32 served as bfloat16 as vLLM does; the KV cache follows the weights unless fp8).
int weightBytesPerParameter(const KvMemorySpec& spec, const ModelShape& shape);
int kvBytesPerElement(const KvMemorySpec& spec, const ModelShape& shape);
/// 2 × layers × KV heads per GPU × head_dim × bytes per element: KV heads are split across
/// the spec's tensor-parallel ranks and replicated when there are fewer heads than ranks.
std::int64_t kvBytesPerTokenPerGpu(const KvMemorySpec& spec, const ModelShape& shape);

/// The capacity of one engine replica. Errors: tensor parallelism that does not divide the
/// heads, or weights and reserve that leave no room for one block.
Expected<KvCapacity> kvCapacity(const ModelShape& shape, const KvMemorySpec& spec,
                                std::int32_t blockSize);
/// The same, reading spec.modelConfig (relative paths against `baseDirectory`).
Expected<KvCapacity> kvCapacity(const KvMemorySpec& spec, std::int32_t blockSize,
                                const std::string& baseDirectory);

/// The runtime reserve (bytes per GPU) that makes the model give `measuredBlocks`: what a real
/// engine's start-up log ("# GPU blocks: N") says its runtime took, to calibrate the reserve
/// for other settings of the same model, engine and device.
double inferredReserveBytes(const ModelShape& shape, const KvMemorySpec& spec,
                            std::int32_t blockSize, std::int64_t measuredBlocks);

} // namespace bs::llmsim
