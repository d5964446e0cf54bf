#pragma once

#include "io/readercontext.h"

namespace bs::io {

/// Triton Model Analyzer metrics CSV -> data::SweepTable, in its three layouts:
/// - metrics-model-inference.csv (Model, Batch, Concurrency or Request Rate, Model Config Path,
///   ..., Throughput (infer/sec), p99 Latency (ms)); when a metrics-model-gpu.csv sits beside
///   it (same name with "inference" replaced by "gpu"), its GPU memory, utilisation and power
///   are joined on model, config, batch and load (summed over GPUs; utilisation averaged);
/// - metrics-model-gpu.csv alone (power, utilisation, memory per operating point);
/// - metrics-server-only.csv (the server's idle GPU figures; one point per GPU, batch 1).
/// Points carry the model config as their series. ms -> s, MB -> bytes (10^6), % -> fraction.
/// Reader options: {"gpu_metrics": "path" | false} to name or skip the sibling file.
Expected<data::DatasetContent> readModelAnalyzer(ByteSource& source, ReaderContext& context);

} // namespace bs::io
