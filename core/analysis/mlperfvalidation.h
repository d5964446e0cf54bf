#pragma once

#include "analysis/mlperfserver.h"
#include "sim/result.h"

#include <string>
#include <vector>

namespace bs::analysis {

/// Where one system's results sit in an MLPerf submission (NVIDIA's layout):
/// <root>/results/<system>/<benchmark>/{Offline,Server}/performance/run_N/mlperf_log_summary.txt,
/// <root>/configs/<benchmark>/{Offline,Server}/config.json, <root>/systems/<system>.json.
struct MlperfSubmissionQuery
{
    std::string root;          ///< The submitter's folder, e.g. closed/NVIDIA.
    std::string system;        ///< Results folder name, e.g. T4x8_TRT.
    std::string benchmark;     ///< e.g. resnet50.
    std::string harnessSystem; ///< Key in the harness configs; empty: system up to its first '_'.
};

/// One measured Server run, as its summary states it.
struct MlperfMeasuredRun
{
    std::string path;
    double p50S = 0.0;
    double p90S = 0.0;
    double p99S = 0.0;
    double meanS = 0.0;
    double targetQps = 0.0;
};

struct MlperfServerValidation
{
    MlperfServerScenario built;
    sim::Result predicted;
    std::vector<MlperfMeasuredRun> measured; ///< Every Server performance run found.
    std::string offlinePath;
    double offlineSamplesPerS = 0.0;
    int devices = 0;
};

/// Builds the Server scenario from the submission's Offline result and harness settings
/// (buildMlperfServerScenario), simulates it, and reads every Server run to compare with.
/// `model` names the accelerator and workload presets; its precision is replaced by the
/// harness's. Errors name the file that is missing or unreadable.
Expected<MlperfServerValidation> validateMlperfServer(const MlperfSubmissionQuery& query,
                                                      accel::ModelParams model,
                                                      std::uint64_t requests, int replications);

} // namespace bs::analysis
