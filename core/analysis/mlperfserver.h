#pragma once

#include "accel/modelparams.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace bs::analysis {

/// The batching settings of one MLPerf scenario as the submitter's harness ran it (NVIDIA
/// `configs/<benchmark>/<scenario>/config.json`, one object per system).
struct HarnessScenarioSettings
{
    int batch = 1;            ///< gpu_batch_size.
    int inferenceStreams = 1; ///< gpu_inference_streams: batches computing at once per GPU.
    int copyStreams = 1;      ///< gpu_copy_streams.
    double dequeTimeoutS = 0; ///< deque_timeout_us: how long a batch waits to fill (Server).
    bool cudaGraphs = false;  ///< use_graphs: a batch's kernels go in one graph launch.
    std::string precision;    ///< "int8", "fp16", ...
    std::string inputDtype;   ///< input_dtype: what the host copies to the device.
    double targetQps = 0.0;   ///< server_target_qps (Server only).
};

/// Reads `system` (for example "T4x8") from an NVIDIA harness config.json. Errors name the
/// file and the key.
Expected<HarnessScenarioSettings> readNvidiaHarnessConfig(const std::string& path,
                                                          const std::string& system);

/// What the Server prediction is built from: the Offline result and the harness settings
/// alone, never the Server result it is compared with.
struct MlperfServerInputs
{
    accel::ModelParams model; ///< Preset accelerator and workload, at the harness precision.
    int devices = 1;          ///< accelerators_per_node × number_of_nodes.
    HarnessScenarioSettings offline;
    HarnessScenarioSettings server;
    double offlineSamplesPerS = 0.0; ///< The Offline result, all devices together.
    double serverQps = 0.0;          ///< LoadGen's target_qps in the Server run.
};

struct MlperfServerScenario
{
    nlohmann::json scenario;              ///< For sim::scenarioFromJson.
    double kernelScale = 1.0;             ///< Measured / preset kernel time at the Offline batch.
    double preComputeS = 0.0;             ///< Host work and launches of a Server batch.
    double copyPerItemS = 0.0;            ///< One item's input copy to the device; 0 = unknown.
    std::vector<std::string> assumptions; ///< Every setting assumed, in words, for the user.
};

/// The Server scenario: Poisson arrivals at target_qps into one queue shared by the devices,
/// a dynamic batcher with the harness batch size and deque timeout, each device running
/// gpu_inference_streams batches at once (processor sharing), a batch's host work and launches
/// before it computes, and kernel times from the accelerator model scaled so that the Offline
/// run's throughput is reproduced. Method and limits: core/accel/README.md, "Predicting a
/// Server run from its Offline result".
Expected<MlperfServerScenario> buildMlperfServerScenario(const MlperfServerInputs& inputs,
                                                         std::uint64_t requests, int replications);

} // namespace bs::analysis
