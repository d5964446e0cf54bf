#include "playbook/playbookstate.h"

#include "io/jsonfields.h"

#include <algorithm>

namespace bs::playbook {

const AcceptedDifference* PlaybookState::acceptance(const std::string& key) const
{
    for (const auto& entry : accepted) {
        if (entry.key == key)
            return &entry;
    }
    return nullptr;
}

void PlaybookState::accept(const std::string& key, std::string reason)
{
    for (auto& entry : accepted) {
        if (entry.key == key) {
            entry.reason = std::move(reason);
            return;
        }
    }
    accepted.push_back({key, std::move(reason)});
}

bool PlaybookState::revoke(const std::string& key)
{
    const auto before = accepted.size();
    std::erase_if(accepted, [&key](const AcceptedDifference& entry) { return entry.key == key; });
    return accepted.size() != before;
}

namespace {

const std::vector<std::string>& knownKnobs()
{
    static const std::vector<std::string> knobs = {"max_queue_delay_ms", "max_batch",   "servers",
                                                   "placement",          "power_cap_w", "precision",
                                                   "fusion_factor"};
    return knobs;
}

nlohmann::json qualityToJson(const QualityEvidence& quality)
{
    nlohmann::json out = {{"metric", quality.metric},
                          {"baseline", quality.baseline},
                          {"candidate", quality.candidate},
                          {"tolerance", quality.tolerance},
                          {"fallback_tested", quality.fallbackTested},
                          {"source", quality.source}};
    if (quality.fixed)
        out["fixed"] = *quality.fixed;
    return out;
}

nlohmann::json optionsToJson(const PlaybookOptions& options)
{
    return {{"scenario_index", options.scenarioIndex},
            {"max_simulated_requests", options.maxSimulatedRequests},
            {"min_replications", options.minReplications},
            {"practical_delta", options.practicalDelta},
            {"throughput_tolerance", options.throughputTolerance},
            {"p99_tolerance", options.p99Tolerance},
            {"energy_tolerance", options.energyTolerance}};
}

QualityEvidence readQuality(io::JsonFields& f)
{
    QualityEvidence quality;
    quality.metric = f.string("metric");
    quality.baseline = f.number("baseline");
    quality.candidate = f.number("candidate");
    quality.fixed = f.optionalNumber("fixed");
    quality.tolerance = f.number("tolerance", io::NumberRule::nonNegative());
    quality.fallbackTested = f.boolean("fallback_tested", false);
    quality.source = f.stringOr("source", {});
    return quality;
}

FixChoice readFix(io::JsonFields& f, const nlohmann::json& object)
{
    FixChoice fix;
    fix.knob = f.string("knob");
    if (f.ok() && std::ranges::find(knownKnobs(), fix.knob) == knownKnobs().end()) {
        std::string known;
        for (const auto& knob : knownKnobs())
            known += (known.empty() ? "" : ", ") + knob;
        f.fail("knob", "unknown knob '" + fix.knob + "'; expected one of: " + known);
    }
    const bool textual = fix.knob == "placement" || fix.knob == "precision";
    if (textual)
        fix.value = f.string("value");
    else if (f.number("value", io::NumberRule::positive()) > 0.0)
        fix.value = object.at("value"); // keep integers as integers
    fix.reason = f.stringOr("reason", {});
    return fix;
}

PlaybookOptions readOptions(io::JsonFields& f)
{
    PlaybookOptions options;
    options.scenarioIndex =
        int(f.integerOr("scenario_index", options.scenarioIndex, {0.0, 1e6, false, true}));
    options.maxSimulatedRequests = std::uint64_t(
        f.integerOr("max_simulated_requests", std::int64_t(options.maxSimulatedRequests),
                    io::NumberRule::count(1000)));
    options.minReplications =
        int(f.integerOr("min_replications", options.minReplications, {2.0, 1000.0, false, true}));
    auto fraction = [&f](const char* key, double fallback) {
        return f.numberOr(key, fallback, io::NumberRule::range(0.0, 1.0));
    };
    options.practicalDelta = fraction("practical_delta", options.practicalDelta);
    options.throughputTolerance = fraction("throughput_tolerance", options.throughputTolerance);
    options.p99Tolerance = fraction("p99_tolerance", options.p99Tolerance);
    options.energyTolerance = fraction("energy_tolerance", options.energyTolerance);
    return options;
}

/// Runs `read` on the sub-object at `key` (when present) and adopts its error.
template <typename Read>
void readChild(io::JsonFields& parent, const char* key, Read read)
{
    const auto* object = parent.object(key);
    if (!object)
        return;
    io::JsonFields child(*object, parent.child(key), parent.path());
    read(child, *object);
    parent.adopt(child.finish());
}

} // namespace

nlohmann::json toJson(const PlaybookState& state)
{
    nlohmann::json accepted = nlohmann::json::array();
    for (const auto& entry : state.accepted)
        accepted.push_back({{"key", entry.key}, {"reason", entry.reason}});
    nlohmann::json out = {{"version", kPlaybookStateVersion},
                          {"accepted_differences", std::move(accepted)},
                          {"production_evidence", state.productionEvidence},
                          {"options", optionsToJson(state.options)}};
    if (state.quality)
        out["quality"] = qualityToJson(*state.quality);
    if (state.fix)
        out["fix"] = {
            {"knob", state.fix->knob}, {"value", state.fix->value}, {"reason", state.fix->reason}};
    return out;
}

Expected<PlaybookState> playbookStateFromJson(const nlohmann::json& json, const std::string& path)
{
    PlaybookState state;
    if (json.is_object() && json.empty())
        return state;
    io::JsonFields top(json, "playbook", path);
    const auto version = top.integerOr("version", kPlaybookStateVersion, io::NumberRule::count(1));
    if (top.ok() && version > kPlaybookStateVersion)
        top.fail("version",
                 "written by a newer BatchScope (playbook version " + std::to_string(version) +
                     ", this one reads " + std::to_string(kPlaybookStateVersion) + ")",
                 ErrorCode::Unsupported);
    if (const auto* accepted = top.array("accepted_differences")) {
        for (std::size_t i = 0; i < accepted->size() && top.ok(); ++i) {
            io::JsonFields entry(
                (*accepted)[i], top.child("accepted_differences[" + std::to_string(i) + "]"), path);
            AcceptedDifference difference{entry.string("key"), entry.string("reason")};
            if (entry.ok() && difference.reason.empty())
                entry.fail("reason", "an accepted difference needs a reason");
            top.adopt(entry.finish());
            state.accepted.push_back(std::move(difference));
        }
    }
    readChild(top, "quality", [&state](io::JsonFields& f, const nlohmann::json&) {
        state.quality = readQuality(f);
    });
    readChild(top, "fix", [&state](io::JsonFields& f, const nlohmann::json& object) {
        state.fix = readFix(f, object);
    });
    readChild(top, "options", [&state](io::JsonFields& f, const nlohmann::json&) {
        state.options = readOptions(f);
    });
    state.productionEvidence = top.stringOr("production_evidence", {});
    if (auto status = top.finish(); !status)
        return status.error();
    return state;
}

} // namespace bs::playbook
