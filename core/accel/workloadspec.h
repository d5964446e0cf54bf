#pragma once

#include "accel/precision.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>

namespace bs::accel {

/// The runtime's own device memory when a workload does not say (workspace_mib): 1 GiB, the
/// same reserve the LLM KV-cache sizing assumes. An assumption, stated wherever it is used.
inline constexpr double kDefaultWorkspaceBytes = 1024.0 * 1024.0 * 1024.0;

/// What the model needs to know about one inference of a workload ("item" = one sample of a
/// batch: an image, a sequence, one decode step of one sequence). Counts are precision-free
/// (elements, not bytes) so the precision can change the bytes moved.
struct WorkloadSpec
{
    std::string name = "custom";
    std::string description;
    double flopsPerItem = 0.0;              ///< Math per item (2 per multiply-add).
    double weightElements = 0.0;            ///< Read once per batch, whatever the batch size.
    double activationElementsPerItem = 0.0; ///< Moved to/from memory per item (incl. KV cache).
    /// Activation elements of one item alive at once at the peak (a layer's tensors, a KV
    /// cache): what the memory check counts. 0 = unknown: the traffic above, an upper bound.
    double residentActivationElementsPerItem = 0.0;
    double kernels = 0.0; ///< Kernel launches per batch, unfused.
    /// Elements of one item's input as the host sends it (0 = unknown): sizes input copies.
    double inputElementsPerItem = 0.0;
    double hostOverheadS = 0.0; ///< Fixed host/runtime time per batch, besides launches.
    /// Device memory the runtime holds besides weights and activations: CUDA context, library
    /// workspaces (cuBLAS, cuDNN), the allocator's reserve. An assumption unless measured.
    double workspaceBytes = kDefaultWorkspaceBytes;
    /// β: fusing φ kernels into one multiplies activation bytes per item by φ^β (recomputation
    /// and spills when a fused kernel no longer fits on chip). 0 = fusion is free in bytes.
    double fusionTrafficExponent = 0.0;
    Precision defaultPrecision = Precision::Bf16;
    std::map<std::string, std::string> sources;

    friend bool operator==(const WorkloadSpec&, const WorkloadSpec&) = default;
};

/// Reads a workload object (preset file or inline). Keys: name, description, flops_per_item,
/// weight_elements, activation_elements_per_item, kernels, host_overhead_us, workspace_mib
/// (default 1024), fusion_traffic_exponent, default_precision, sources.
Expected<WorkloadSpec> workloadFromJson(const nlohmann::json& object, const std::string& where,
                                        const std::string& path);

nlohmann::json toJson(const WorkloadSpec& spec);

} // namespace bs::accel
