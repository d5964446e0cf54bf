#include "accel/workloadspec.h"

#include "accel/specjson.h"
#include "io/jsonfields.h"

namespace bs::accel {

namespace {
constexpr double kMicro = 1e-6;
constexpr double kMib = 1024.0 * 1024.0;
using io::NumberRule;
} // namespace

Expected<WorkloadSpec> workloadFromJson(const nlohmann::json& object, const std::string& where,
                                        const std::string& path)
{
    io::JsonFields fields(object, where, path);
    WorkloadSpec spec;
    spec.name = fields.stringOr("name", spec.name);
    spec.description = fields.stringOr("description", "");
    spec.flopsPerItem = fields.number("flops_per_item", NumberRule::positive());
    spec.weightElements = fields.number("weight_elements", NumberRule::nonNegative());
    spec.activationElementsPerItem =
        fields.number("activation_elements_per_item", NumberRule::nonNegative());
    spec.residentActivationElementsPerItem =
        fields.numberOr("resident_activation_elements_per_item", 0.0, NumberRule::nonNegative());
    spec.kernels = fields.numberOr("kernels", 0.0, NumberRule::nonNegative());
    spec.inputElementsPerItem =
        fields.numberOr("input_elements_per_item", 0.0, NumberRule::nonNegative());
    spec.hostOverheadS =
        fields.numberOr("host_overhead_us", 0.0, NumberRule::nonNegative()) * kMicro;
    spec.workspaceBytes =
        fields.numberOr("workspace_mib", kDefaultWorkspaceBytes / kMib, NumberRule::nonNegative()) *
        kMib;
    spec.fusionTrafficExponent =
        fields.numberOr("fusion_traffic_exponent", 0.0, NumberRule::range(-1.0, 1.0));
    const std::string precision =
        fields.choice("default_precision", {"fp32", "tf32", "bf16", "fp16", "fp8", "int8"}, "bf16");
    spec.defaultPrecision = parsePrecision(precision).value_or(Precision::Bf16);
    spec.sources = readSources(fields);
    if (auto status = fields.finish(); !status)
        return status.error();
    return spec;
}

nlohmann::json toJson(const WorkloadSpec& spec)
{
    nlohmann::json out = {
        {"name", spec.name},
        {"description", spec.description},
        {"flops_per_item", spec.flopsPerItem},
        {"weight_elements", spec.weightElements},
        {"activation_elements_per_item", spec.activationElementsPerItem},
        {"kernels", spec.kernels},
        {"host_overhead_us", spec.hostOverheadS / kMicro},
        {"workspace_mib", spec.workspaceBytes / kMib},
        {"fusion_traffic_exponent", spec.fusionTrafficExponent},
        {"default_precision", precisionName(spec.defaultPrecision)},
    };
    if (spec.residentActivationElementsPerItem > 0.0)
        out["resident_activation_elements_per_item"] = spec.residentActivationElementsPerItem;
    if (spec.inputElementsPerItem > 0.0)
        out["input_elements_per_item"] = spec.inputElementsPerItem;
    writeSources(out, spec.sources);
    return out;
}

} // namespace bs::accel
