#pragma once

#include "playbook/steps.h"

#include <vector>

namespace bs::playbook {

/// Step 2's metrics from each source, baseline against candidate. Values in display units
/// (ms, inferences/s, J, µs, kernels). Each function returns only what both sides measured.

/// Completion and tail from two sweeps: p99 latency, throughput and energy per inference per
/// batch size (slices), persistence across batch sizes.
std::vector<StageMetric> sweepStageMetrics(const data::SweepTable& baseline,
                                           const data::SweepTable& candidate,
                                           double practicalDelta);

/// Runtime queue (queue wait p99), core placement (per-stream p99) and completion and tail
/// (latency p99) from two request-trace analyses with the same window length; slices are the
/// time windows (or streams), persistence across them.
std::vector<StageMetric> requestStageMetrics(const analysis::RequestAnalysis& baseline,
                                             const analysis::RequestAnalysis& candidate,
                                             double practicalDelta);

/// Compile plan (kernels, device busy time and launch overhead per step) and core placement
/// (device imbalance per step) from two kernel-trace analyses; slices are consecutive groups
/// of steps (time windows).
std::vector<StageMetric> kernelStageMetrics(const analysis::KernelAnalysis& baseline,
                                            const analysis::KernelAnalysis& candidate,
                                            double practicalDelta);

/// Runtime queue (queue wait p99), core placement (busiest server's utilisation, several
/// servers only) and completion and tail (p99 latency, throughput) from two simulations of the
/// same traffic. Intervals come from independent replications, so a significant difference
/// holds across them: that is its persistence test.
std::vector<StageMetric> simulatedStageMetrics(const sim::Result& baseline,
                                               const sim::Result& candidate, double practicalDelta);

/// Compile plan from the accelerator models of the baseline and candidate scenarios: the
/// predicted batch service time (kernels + launches, at the clock the power cap allows) per
/// batch size, persistence across batch sizes. A prediction, without interval: only a change of
/// twice the practical threshold counts.
std::vector<StageMetric> modelStageMetrics(const accel::Model& baseline,
                                           const accel::Model& candidate,
                                           const std::vector<int>& batches, double practicalDelta);

} // namespace bs::playbook
