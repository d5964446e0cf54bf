// Reading an LLM region result back (llmregionpack.h: llmRegionFromJson), for merging shards.
#include "analysis/llmregionpack.h"
#include "analysis/llmregionparts.h"
#include "io/jsonfields.h"
#include "llmsim/llmscenariojson.h"

#include <cmath>

namespace bs::analysis {

namespace {

using io::JsonFields;
using io::NumberRule;
using nlohmann::json;

/// [value, ci_low, ci_high] with null for NaN.
sim::Estimate estimateFrom(JsonFields& f, const json& metrics, const char* key)
{
    const auto wrong = [&] {
        f.fail(key, "must be [value, ci_low, ci_high] with numbers or null");
        return sim::Estimate();
    };
    if (!metrics.contains(key)) {
        // Packs written before the ITL and E2E limits existed carry neither metric; their
        // specs have no such limit, so nothing is judged on the missing value.
        for (const char* later : {"itl_p99_ms", "e2e_p99_ms"})
            if (std::string_view(key) == later)
                return sim::Estimate();
        return wrong();
    }
    const json& a = metrics[key];
    if (!a.is_array() || a.size() != 3)
        return wrong();
    double v[3];
    for (std::size_t i = 0; i < 3; ++i) {
        if (a[i].is_null())
            v[i] = sim::kNaN;
        else if (a[i].is_number())
            v[i] = a[i].get<double>();
        else
            return wrong();
    }
    return {v[0], v[1], v[2]};
}

Expected<LlmRegionCell> cellFrom(const LlmRegionSpec& spec, const json& object,
                                 const std::string& where, const std::string& path)
{
    if (!object.is_object())
        return makeError(ErrorCode::Value, path, 0, 0, where + ": must be an object");
    JsonFields f(object, where, path);
    const auto index = f.integer("index", NumberRule::count(0));
    const std::string status = f.choice("status", {"feasible", "infeasible", "refused"});
    const std::string note = f.stringOr("note", "");
    const auto replications = f.integer("replications", NumberRule::count(1));
    const auto requests = f.integerOr("requests", 0, NumberRule::count(0));
    if (!f.ok())
        return f.finishReadingSome().error();
    if (std::size_t(index) >= llmCellCount(spec))
        return makeError(ErrorCode::Value, path, 0, 0,
                         where + ".index: " + std::to_string(index) + " is outside the grid of " +
                             std::to_string(llmCellCount(spec)) + " cells");
    LlmRegionCell cell = llmCellAt(spec, std::size_t(index));
    cell.replications = std::int32_t(replications);
    cell.requests = std::uint64_t(requests);
    if (status == "refused") {
        cell.status = LlmCellStatus::Refused;
        cell.note = note;
    } else if (const json* metrics = f.object("metrics", true)) {
        JsonFields m(*metrics, f.child("metrics"), path);
        for (const auto& [key, field] : llmMetricFields())
            cell.metrics.*field = estimateFrom(m, *metrics, key);
        f.adopt(m.finishReadingSome());
        cell.status = LlmCellStatus::Infeasible; // judged again from the metrics
    }
    if (auto done = f.finishReadingSome(); !done)
        return done.error();
    judgeLlmCell(spec, cell);
    return cell;
}

} // namespace

bool isLlmRegionJson(const json& document)
{
    return document.is_object() && document.contains("kind") && document["kind"].is_string() &&
           document["kind"].get<std::string>() == "batchscope.llmregion.result";
}

Expected<LlmRegionResult> llmRegionFromJson(const json& document, const std::string& path)
{
    if (!isLlmRegionJson(document))
        return makeError(ErrorCode::Value, path, 0, 0,
                         "kind: not an LLM region result (batchscope.llmregion.result)");
    JsonFields f(document, "llmregion", path);
    f.choice("kind", {"batchscope.llmregion.result"});
    f.integer("schema", NumberRule::range(2, 2));
    f.object("scenario", true);
    LlmRegionResult result;
    result.spec = readLlmRegionSpec(f, document);
    result.baseDirectory = f.stringOr("base_directory", "");
    if (const json* shard = f.object("shard")) {
        JsonFields s(*shard, f.child("shard"), path);
        result.shardCount = std::size_t(s.integer("count", NumberRule::count(1)));
        result.shardIndex = std::size_t(s.integer("index", NumberRule::count(0)));
        f.adopt(s.finish());
        if (f.ok() && result.shardIndex >= result.shardCount)
            f.fail("shard", "index must be below count");
    }
    if (f.ok())
        if (auto valid = validate(result.spec); !valid)
            f.fail("axes", valid.error().message);
    const json* cells = f.array("cells", true);
    if (auto status = f.finishReadingSome(); !status)
        return status.error();
    for (std::size_t i = 0; i < cells->size(); ++i) {
        auto cell = cellFrom(result.spec, (*cells)[i], "cells[" + std::to_string(i) + "]", path);
        if (!cell)
            return cell.error();
        result.cells.push_back(std::move(*cell));
    }
    return result;
}

} // namespace bs::analysis
