#include "sim/acceleratorservicemodel.h"

namespace bs::sim {

namespace {

class ThermalServerState final : public ServerState
{
public:
    explicit ThermalServerState(accel::ThermalState state)
        : thermal(state)
    {}
    accel::ThermalState thermal;
};

} // namespace

AcceleratorServiceModel::AcceleratorServiceModel(accel::Model model)
    : m_model(std::move(model))
{}

double AcceleratorServiceModel::meanServiceS(int batch) const
{
    return m_model.predict(batch).serviceS;
}

double AcceleratorServiceModel::sustainedServiceS(int batch) const
{
    return m_model.sustained(batch).serviceS;
}

std::unique_ptr<ServerState> AcceleratorServiceModel::makeServerState() const
{
    return std::make_unique<ThermalServerState>(m_model.initialThermalState(0.0));
}

BatchService AcceleratorServiceModel::serve(int batch, ServerState* state, double startS,
                                            Rng&) const
{
    auto& thermal = static_cast<ThermalServerState*>(state)->thermal;
    const accel::BatchCost cost = m_model.serveBatch(batch, thermal, startS);
    return {cost.serviceS, cost.energyJ, cost.temperatureC};
}

double AcceleratorServiceModel::idlePowerW() const
{
    return m_model.params().effectivePowerIdleW();
}

} // namespace bs::sim
