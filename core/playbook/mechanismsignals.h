#pragma once

#include "playbook/steps.h"

#include <optional>
#include <vector>

namespace bs::playbook {

/// The five hypotheses of step 3 with their signals filled in (not yet scored or ranked).
///
/// Signals (weight): a value in [0, 1] when its data is there, NaN with the missing data named
/// otherwise.
///  - thermal: clock drop at high temperature in the candidate's power log (3); candidate power
///    at the cap at the divergent batch sizes (2); divergence only above some batch size (1);
///    the model's power cap or throttling binding there (1).
///  - scheduling: share of the candidate's p99 excess spent waiting in the queue (3); queue
///    wait change over p99 change (2); launch overhead and host gaps in the step-time change
///    (1); a batching-policy knob differs between the runs (1).
///  - compute / memory: the model's bound at the divergent batch sizes, times the part of the
///    change not explained by queueing (2); GEMM (compute) or elementwise + memcpy (memory)
///    share of the device-time change in kernel traces (2).
///  - precision: precision or sparsity differs between the runs (2); the quality delta against
///    its tolerance (2); mapping-fallback share growth in kernel traces (1).
std::vector<Hypothesis> assessHypotheses(const PlaybookContext& context,
                                         const LocateFindings& locate);

/// The accelerator model of the candidate: the candidate scenario's accelerator service, else
/// the project model.
std::optional<accel::Model> candidateModel(const PlaybookContext& context);

/// The candidate's power limit in W: run tag power_limit_w / power_cap_w, else the candidate
/// model's cap.
std::optional<double> candidatePowerCapW(const PlaybookContext& context);

} // namespace bs::playbook
