#pragma once

#include "io/readercontext.h"

namespace bs::io {

/// Triton perf_analyzer CSV (`-f FILE`) -> data::SweepTable. Reads the plain and the
/// --verbose-csv layouts (GPU columns holding "uuid:value;" pairs: utilisation averaged, power
/// and memory summed over GPUs), "Concurrency" or "Request Rate" first, the DeepLearningExamples
/// variant with a leading "Batch" column, and several runs concatenated in one file (each with
/// its own header; points get series "run N"). Latencies are µs in the file, seconds in core.
/// Rows keep file order (perf_analyzer sorts them by throughput). Reader options:
/// {"batch_size": N} when the file has no Batch column (perf_analyzer -b N).
Expected<data::DatasetContent> readPerfAnalyzer(ByteSource& source, ReaderContext& context);

} // namespace bs::io
