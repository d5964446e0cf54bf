#pragma once

#include "io/readercontext.h"

namespace bs::io {

/// A Triton Model Analyzer checkpoint (`checkpoints/N.ckpt`, the JSON it writes after every
/// measurement): one sweep point per perf_analyzer measurement, series = "model/configuration"
/// (as the CSV reader names Model Analyzer's report rows), with what its CSV reports leave
/// out — perf_analyzer's server breakdown (queue, compute input / infer / output), the client
/// time outside the server (send/recv + response wait − server time), mean, p90, p95 and p99
/// latency — and the GPU's average power, utilisation and memory. Each configuration's Triton
/// settings (instance groups, max batch size with dynamic batching, preferred sizes, queue
/// delay) and perf_analyzer's --request-distribution are kept in the table's metadata
/// (data/tritonsettings.h), so a prediction runs each configuration as it was deployed.
/// Instance groups on the GPU without a `gpus` list count once per GPU the checkpoint lists.
/// A multi-model measurement is refused (its CSV report reads it). Errors name the file and the
/// configuration and measurement.
Expected<data::DatasetContent> readModelAnalyzerCheckpoint(ByteSource& source,
                                                           ReaderContext& context);

} // namespace bs::io
