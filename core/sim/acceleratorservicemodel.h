#pragma once

#include "accel/model.h"
#include "sim/servicemodel.h"

namespace bs::sim {

/// Service times and energy from the accelerator model (core/accel): each server owns a
/// ThermalState, so a server that has been busy for a while is hotter and may throttle, and one
/// that idled has cooled. serveBatch() is deterministic, and the thermal state follows the
/// service time it returns, so no variability is applied on top.
class AcceleratorServiceModel final : public ServiceModel
{
public:
    explicit AcceleratorServiceModel(accel::Model model);

    double meanServiceS(int batch) const override;
    /// Back-to-back batches until the temperature settles (throttled or not).
    double sustainedServiceS(int batch) const override;
    std::unique_ptr<ServerState> makeServerState() const override;
    BatchService serve(int batch, ServerState* state, double startS, Rng& rng) const override;
    double idlePowerW() const override;

private:
    accel::Model m_model;
};

} // namespace bs::sim
