#pragma once

#include "io/readercontext.h"

namespace bs::io {

/// Generic per-request CSV -> data::RequestTrace through a column mapping (reader options
/// {"columns": {...}}, suggested from the header when absent). Times are numbers in a unit or
/// calendar timestamps; calendar times become seconds after the first arrival, with
/// originEpochS holding that arrival's Unix time.
Expected<data::DatasetContent> readRequestTraceCsv(ByteSource& source, ReaderContext& context);

/// Azure LLM inference trace (AzurePublicDataset): TIMESTAMP,ContextTokens,GeneratedTokens with
/// 7 fractional digits and no final newline.
Expected<data::DatasetContent> readAzureLlmTrace(ByteSource& source, ReaderContext& context);

/// BurstGPT trace (HPMLL/BurstGPT): Timestamp (seconds from the trace's start), Model, Request
/// tokens, Response tokens, Total tokens, Log Type. The model becomes the stream; rows with 0
/// response tokens (failed requests) are still arrivals. Log Type is not kept.
Expected<data::DatasetContent> readBurstGptTrace(ByteSource& source, ReaderContext& context);

} // namespace bs::io
