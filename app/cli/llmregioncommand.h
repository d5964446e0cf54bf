#pragma once

#include "analysis/llmregion.h"
#include "commandline.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace bs::cli {

/// The options only an LLM region takes (REGION.md, "LLM servers"), for region's option list.
std::vector<OptionSpec> llmRegionOptions();

/// The first LLM-only option given, or empty (a queueing scenario refuses them).
std::string firstLlmRegionOption(const ParsedArgs& args);

/// `region` on an LLM scenario (`json`, read from `path`): the grid over max_num_seqs x
/// max_num_batched_tokens, printed as a table or JSON, --out writes the LLM curve pack.
int runLlmRegion(const nlohmann::json& json, const std::string& path, const ParsedArgs& args,
                 CliIo& io);

/// Writes the curve pack (--out; a shard: its llm-region.json) and prints the summary, or the
/// JSON with --json or for a shard; shared by region and merge.
int finishLlmRegion(const analysis::LlmRegionResult& result, const ParsedArgs& args, CliIo& io);

/// The human summary: counts, the grid (rows max_num_seqs, columns the token budget; ok or
/// the binding constraint, ? not confident, * recommended), the recommendation with headroom.
std::string formatLlmRegionSummary(const analysis::LlmRegionResult& result);

} // namespace bs::cli
