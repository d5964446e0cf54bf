#pragma once

#include "io/readercontext.h"

namespace bs::io {

/// Mooncake request trace (kvcache-ai/Mooncake, FAST'25): JSON Lines of {"timestamp",
/// "input_length", "output_length", "hash_ids"}, timestamps in milliseconds from the trace's
/// start. -> data::RequestTrace: arrivals in seconds, input and output token counts. hash_ids
/// (KV-cache block hashes) have no place in the data model and are not kept.
Expected<data::DatasetContent> readMooncakeTrace(ByteSource& source, ReaderContext& context);

/// Alibaba Qwen/Bailian usage trace (alibaba-edu/qwen-bailian-usagetraces-anon): JSON Lines of
/// {"chat_id", "parent_chat_id", "timestamp", "input_length", "output_length", "type", "turn",
/// "hash_ids"}, timestamps in seconds from the trace's start. -> data::RequestTrace: arrivals,
/// token counts and the request type (text, search, image, file) as the stream. Chat ids,
/// turns and hash_ids are not kept.
Expected<data::DatasetContent> readBailianTrace(ByteSource& source, ReaderContext& context);

} // namespace bs::io
