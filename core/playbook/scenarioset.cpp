#include "playbook/scenarioset.h"

#include "accel/sweepsamples.h"
#include "sim/scenariojson.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace bs::playbook {

namespace {

/// Run tag keys (lowercase) that are scenario knobs, with the factor into the knob's unit.
struct TagKnob
{
    const char* tag;
    const char* knob;
    double scale;
};

constexpr TagKnob kTagKnobs[] = {
    {"power_limit_w", "power_cap_w", 1.0},
    {"power_cap_w", "power_cap_w", 1.0},
    {"max_queue_delay_ms", "max_queue_delay_ms", 1.0},
    {"max_queue_delay_us", "max_queue_delay_ms", 1e-3},
    {"max_queue_delay_microseconds", "max_queue_delay_ms", 1e-3},
    {"max_batch", "max_batch", 1.0},
    {"max_batch_size", "max_batch", 1.0},
    {"precision", "precision", 1.0},
    {"dtype", "precision", 1.0},
    {"fusion_factor", "fusion_factor", 1.0},
    {"instances", "servers", 1.0},
    {"instance_count", "servers", 1.0},
    {"servers", "servers", 1.0},
    {"placement", "placement", 1.0},
};

const TagKnob* tagKnob(const std::string& tagKey)
{
    std::string key = tagKey;
    std::ranges::transform(key, key.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    for (const auto& entry : kTagKnobs) {
        if (key == entry.tag)
            return &entry;
    }
    return nullptr;
}

bool textKnob(const std::string& knob)
{
    return knob == "precision" || knob == "placement";
}

/// A tag value as the knob's JSON value; null when a numeric knob's value is not a number.
nlohmann::json tagValueAsKnob(const TagKnob& entry, const std::string& value)
{
    if (textKnob(entry.knob))
        return value;
    double number = 0.0;
    const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (ec != std::errc() || ptr != value.data() + value.size() || !std::isfinite(number))
        return nullptr;
    return number * entry.scale;
}

Status setModelKey(sim::Scenario& scenario, const std::string& key, const nlohmann::json& value)
{
    if (scenario.service.kind != sim::ServiceSpec::Kind::Accelerator)
        return makeError(ErrorCode::Value, "fix." + key +
                                               ": needs a scenario whose service is the "
                                               "accelerator model");
    scenario.service.acceleratorModel[key] = value;
    return {};
}

Status setPolicyKnob(sim::Scenario& scenario, const std::string& knob, double value)
{
    auto& policy = scenario.policy;
    if (knob == "max_queue_delay_ms") {
        policy.maxQueueDelayS = value / 1000.0;
        return {};
    }
    const int batch = int(std::lround(value));
    policy.maxBatch = batch;
    std::erase_if(policy.preferredBatchSizes, [batch](int b) { return b > batch; });
    policy.minBatch = std::min(policy.minBatch, batch);
    policy.initialBatch = std::min(policy.initialBatch, batch);
    return {};
}

Status setKnob(sim::Scenario& scenario, const FixChoice& change)
{
    const auto& knob = change.knob;
    if (textKnob(knob) != change.value.is_string() ||
        (!textKnob(knob) && !change.value.is_number()))
        return makeError(ErrorCode::Value, "fix.value: wrong type for knob '" + knob + "'");
    if (knob == "max_queue_delay_ms" || knob == "max_batch")
        return setPolicyKnob(scenario, knob, change.value.get<double>());
    if (knob == "servers") {
        scenario.servers.count = int(std::lround(change.value.get<double>()));
        return {};
    }
    if (knob == "placement") {
        nlohmann::json json = sim::scenarioToJson(scenario);
        json["servers"]["placement"] = change.value;
        auto parsed = sim::scenarioFromJson(json);
        if (!parsed)
            return parsed.error();
        scenario = std::move(*parsed);
        return {};
    }
    if (knob == "power_cap_w" || knob == "precision" || knob == "fusion_factor")
        return setModelKey(scenario, knob, change.value);
    return makeError(ErrorCode::Value, "fix.knob: unknown knob '" + knob + "'");
}

/// Lowers the request count and raises the replications to the playbook's limits.
void capScenario(sim::Scenario& scenario, const PlaybookOptions& options,
                 std::vector<std::string>& notes)
{
    if (scenario.requests > options.maxSimulatedRequests) {
        notes.push_back("measured requests per replication lowered from " +
                        std::to_string(scenario.requests) + " to " +
                        std::to_string(options.maxSimulatedRequests) +
                        " (playbook.options.max_simulated_requests)");
        scenario.requests = options.maxSimulatedRequests;
        scenario.warmupRequests = std::min(scenario.warmupRequests, scenario.requests / 2);
    }
    if (scenario.replications < options.minReplications) {
        notes.push_back("replications raised from " + std::to_string(scenario.replications) +
                        " to " + std::to_string(options.minReplications) +
                        " for confidence intervals");
        scenario.replications = options.minReplications;
    }
    scenario.output.records = false;
}

/// A table service from a sweep's measured service times (accel::selectSamples, Auto source).
Expected<sim::ServiceSpec> tableServiceFromSweep(const data::SweepTable& sweep,
                                                 const std::string& name)
{
    auto samples = accel::selectSamples(sweep, accel::ServiceTimeSource::Auto, 0, 2, name);
    if (!samples)
        return samples.error();
    sim::ServiceSpec service;
    service.kind = sim::ServiceSpec::Kind::Table;
    for (const auto& sample : samples->samples) {
        if (!service.tableBatch.empty() && double(sample.batch) <= service.tableBatch.back())
            continue;
        service.tableBatch.push_back(double(sample.batch));
        service.tableLatencyS.push_back(sample.serviceS);
    }
    return service;
}

std::uint64_t seedFromTags(const data::RunTags& tags)
{
    std::uint64_t seed = 0;
    const auto& text = tags.workloadSeed;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), seed);
    return ec == std::errc() && ptr == text.data() + text.size() ? seed : 1;
}

double peakThroughput(const data::SweepTable& sweep)
{
    double peak = 0.0;
    for (const auto& point : sweep.points)
        peak = std::max(peak, point.throughputPerS.value_or(0.0));
    return peak;
}

/// A scenario for a project that has none: the candidate's measured service under Poisson
/// traffic.
Expected<sim::Scenario> derivedScenario(const PlaybookInputs& inputs)
{
    const auto& side = inputs.candidate;
    if (!side.sweep)
        return makeError(ErrorCode::Value,
                         "no scenario in the project and no candidate sweep to derive one from");
    auto service = tableServiceFromSweep(*side.sweep, side.sweepName);
    if (!service)
        return service.error();
    sim::Scenario scenario;
    scenario.name = "Derived from " + side.sweepName;
    scenario.seed = seedFromTags(side.primaryTags());
    scenario.requests = 50000;
    scenario.warmupRequests = 5000;
    scenario.replications = 3;
    sim::StreamSpec stream;
    double rate = 0.6 * peakThroughput(*side.sweep);
    if (side.requests && side.requests->size() > 1) {
        const auto& arrivals = side.requests->arrivalS;
        const auto [lo, hi] = std::ranges::minmax_element(arrivals);
        if (*hi > *lo)
            rate = double(arrivals.size() - 1) / (*hi - *lo);
    }
    stream.arrivals.ratePerS = rate;
    scenario.streams.push_back(stream);
    scenario.policy.maxBatch = int(std::lround(service->tableBatch.back()));
    scenario.policy.maxQueueDelayS = 0.002;
    scenario.service = std::move(*service);
    // Round trip through the reader: the same validation as a file gets.
    return sim::scenarioFromJson(sim::scenarioToJson(scenario));
}

void buildKnobBaseline(const PlaybookState& state, ScenarioSet& set)
{
    sim::Scenario baseline = *set.candidate;
    for (const auto& knob : set.knobs) {
        const auto* entry = tagKnob(knob.tagKey);
        const nlohmann::json value = tagValueAsKnob(*entry, knob.baseline);
        auto changed = applyKnob(baseline, {knob.knob, value, {}});
        if (!changed) {
            set.notes.push_back("baseline knob " + knob.knob + " = " + knob.baseline +
                                " not applied: " + changed.error().message);
            continue;
        }
        baseline = std::move(*changed);
    }
    capScenario(baseline, state.options, set.notes);
    baseline.name = "Baseline: " + baseline.name;
    set.baseline = std::move(baseline);
}

void buildSweepScenarios(const PlaybookInputs& inputs, ScenarioSet& set)
{
    auto baselineService = tableServiceFromSweep(*inputs.baseline.sweep, inputs.baseline.sweepName);
    auto candidateService =
        tableServiceFromSweep(*inputs.candidate.sweep, inputs.candidate.sweepName);
    if (!baselineService || !candidateService) {
        set.route = "candidate only";
        set.notes.push_back("no baseline scenario: " + (baselineService
                                                            ? candidateService.error().message
                                                            : baselineService.error().message));
        return;
    }
    set.route = "sweeps";
    sim::Scenario baseline = *set.candidate;
    baseline.service = std::move(*baselineService);
    baseline.name = "Baseline: " + set.candidate->name;
    set.candidate->service = std::move(*candidateService);
    set.baseline = std::move(baseline);
    set.notes.push_back("service times from each side's measured sweep (deterministic); the "
                        "scenario's own service model is not used");
}

std::vector<KnobDifference> knobDifferences(const PlaybookInputs& inputs)
{
    std::vector<KnobDifference> out;
    const auto differences =
        data::differingTags(inputs.baseline.primaryTags(), inputs.candidate.primaryTags());
    for (const auto& difference : differences) {
        const auto* entry = tagKnob(difference.key);
        if (!entry || difference.baseline.empty() || difference.candidate.empty())
            continue;
        if (tagValueAsKnob(*entry, difference.baseline).is_null())
            continue;
        out.push_back({difference.key, entry->knob, difference.baseline, difference.candidate});
    }
    return out;
}

} // namespace

ScenarioSet deriveScenarios(const PlaybookInputs& inputs, const PlaybookState& state)
{
    ScenarioSet set;
    Expected<sim::Scenario> candidate = makeError(ErrorCode::Value, "no scenario");
    if (inputs.scenarioJson)
        candidate = sim::scenarioFromJson(*inputs.scenarioJson, "project.scenarios");
    else
        candidate = derivedScenario(inputs);
    if (!candidate) {
        set.error = candidate.error().message;
        return set;
    }
    if (!inputs.scenarioJson) {
        set.derived = true;
        set.notes.push_back("the project has no scenario; " + candidate->name);
    }
    capScenario(*candidate, state.options, set.notes);
    set.candidate = std::move(*candidate);
    set.knobs = knobDifferences(inputs);
    if (!set.knobs.empty()) {
        set.route = "knobs";
        buildKnobBaseline(state, set);
    } else if (inputs.baseline.sweep && inputs.candidate.sweep) {
        buildSweepScenarios(inputs, set);
    } else {
        set.route = "candidate only";
    }
    return set;
}

bool ScenarioSet::policyOnlyDifference() const
{
    return route == "knobs" && !knobs.empty() &&
           std::ranges::all_of(
               knobs, [](const KnobDifference& k) { return knobCategoryRank(k.knob) == 0; });
}

Expected<sim::Scenario> applyKnob(const sim::Scenario& scenario, const FixChoice& change)
{
    sim::Scenario changed = scenario;
    if (auto status = setKnob(changed, change); !status)
        return status.error();
    auto validated = sim::scenarioFromJson(sim::scenarioToJson(changed), "fix");
    if (!validated)
        return makeError(ErrorCode::Value, "fix " + change.knob + " = " + change.value.dump() +
                                               ": " + validated.error().message);
    return validated;
}

nlohmann::json knobValue(const sim::Scenario& scenario, const std::string& knob)
{
    if (knob == "max_queue_delay_ms")
        return scenario.policy.maxQueueDelayS * 1000.0;
    if (knob == "max_batch")
        return scenario.policy.maxBatch;
    if (knob == "servers")
        return scenario.servers.count;
    if (knob == "placement")
        return sim::scenarioToJson(scenario)["servers"]["placement"];
    if (scenario.service.kind != sim::ServiceSpec::Kind::Accelerator)
        return nullptr;
    const auto& model = scenario.service.acceleratorModel;
    const auto found = model.find(knob);
    return found == model.end() ? nlohmann::json(nullptr) : *found;
}

const char* knobCategory(const std::string& knob)
{
    switch (knobCategoryRank(knob)) {
    case 0:
        return "policy knob";
    case 1:
        return "mapping";
    case 2:
        return "config value";
    default:
        return "capacity action";
    }
}

int knobCategoryRank(const std::string& knob)
{
    if (knob == "max_queue_delay_ms" || knob == "max_batch")
        return 0;
    if (knob == "placement")
        return 1;
    // More (or fewer) servers is more hardware, not a setting of the one under review.
    if (knob == "servers")
        return 3;
    return 2;
}

std::string knobForTag(const std::string& tagKey)
{
    const auto* entry = tagKnob(tagKey);
    return entry ? entry->knob : "";
}

} // namespace bs::playbook
