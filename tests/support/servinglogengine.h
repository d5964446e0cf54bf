#pragma once

#include "llmsim/llmscenario.h"

namespace bs::test {

/// The engine of tests/data/llm/servinglog as its meta.json writes it (engine_kwargs and
/// kv_cache): vllm_v1, 4 seats, a 64-token step budget, 8 KV blocks of 16 tokens.
inline llmsim::EngineConfig servingLogEngine()
{
    llmsim::EngineConfig e;
    e.policy = "vllm_v1";
    e.maxNumSeqs = 4;
    e.maxNumBatchedTokens = 64;
    e.numGpuBlocks = 8;
    e.blockSize = 16;
    return e;
}

} // namespace bs::test
