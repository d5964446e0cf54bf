#pragma once

#include "io/readercontext.h"

namespace bs::io {

/// Chrome trace event JSON and PyTorch Kineto traces (.json or .json.gz) -> data::KernelTrace.
/// Parsed with a streaming pull parser over the byte source (never a document in memory):
/// the object form {"traceEvents": [...], ...} and the array form [...] (whose closing bracket
/// Chrome allows to be missing). Keeps ph X, B/E pairs, i/I, s/f; M events become metadata
/// (process and thread names); other top-level keys (deviceProperties, distributedInfo, ...)
/// are kept as metadata text. Current and older Kineto categories are normalised; fractional
/// microseconds are kept; times are seconds from the earliest event (originUs holds its
/// timestamp). Names are interned. Device, stream, correlation and External id come from args.
Expected<data::DatasetContent> readKinetoTrace(ByteSource& source, ReaderContext& context);

} // namespace bs::io
