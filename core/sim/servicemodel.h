#pragma once

#include "sim/rng.h"
#include "sim/scenario.h"
#include "util/expected.h"

#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace bs::sim {

/// Mutable per-server state of a service model (the accelerator's temperature and clock).
/// Each server owns one; it is only touched by the replication that owns the server.
class ServerState
{
public:
    virtual ~ServerState() = default;
};

/// The cost of one batch.
struct BatchService
{
    double serviceS = 0.0;
    /// Energy the batch used (J), when the model knows it (accelerator); NaN otherwise, and the
    /// scenario's power section is used instead.
    double energyJ = std::numeric_limits<double>::quiet_NaN();
    /// Device temperature (°C) at the end of the batch, when the model tracks one (accelerator;
    /// the RC model heats monotonically while busy, so the end is the batch's hottest moment).
    double temperatureC = std::numeric_limits<double>::quiet_NaN();
};

/// Service time of a batch as a function of its size, plus optional per-server state. A model
/// is immutable and shared by all replications and threads; everything that changes lives in
/// ServerState and in the caller's Rng.
class ServiceModel
{
public:
    virtual ~ServiceModel() = default;

    /// Mean service time (s) of a batch of `batch` requests on a fresh server.
    virtual double meanServiceS(int batch) const = 0;
    /// Service time (s) of `batch` when such batches run back to back for a long time; a
    /// throttling accelerator is slower than meanServiceS. Used for the capacity check.
    virtual double sustainedServiceS(int batch) const { return meanServiceS(batch); }
    /// New per-server state; nullptr when the model keeps none.
    virtual std::unique_ptr<ServerState> makeServerState() const { return nullptr; }
    /// Serves a batch starting at startS; random variability comes from `rng`.
    virtual BatchService serve(int batch, ServerState* state, double startS, Rng& rng) const = 0;
    /// Idle power (W) the model knows, NaN when it knows none.
    virtual double idlePowerW() const { return std::numeric_limits<double>::quiet_NaN(); }
};

/// Builds the model of `service` for batches 1..maxBatch. Notes about the model (a table
/// extrapolated beyond its measured sizes) are appended to `warnings`.
Expected<std::shared_ptr<const ServiceModel>>
makeServiceModel(const ServiceSpec& service, int maxBatch, std::vector<std::string>& warnings);

} // namespace bs::sim
