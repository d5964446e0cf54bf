#include "playbook/playbookinputs.h"

#include "playbook/evidence.h"
#include "playbook/evidencerelevance.h"

#include <algorithm>
#include <cctype>

namespace bs::playbook {

namespace {

std::string lower(std::string text)
{
    std::ranges::transform(text, text.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

/// The dataset's own tags, with the fields it leaves empty taken from the content's tags
/// (readers fill those from the file; the user edits the dataset's).
data::RunTags effectiveTags(const data::Dataset& dataset)
{
    data::RunTags content;
    if (auto sweep = dataset.sweep())
        content = sweep->tags;
    else if (auto trace = dataset.requestTrace())
        content = trace->tags;
    else if (auto kernels = dataset.kernelTrace())
        content = kernels->tags;
    else if (auto power = dataset.powerSeries())
        content = power->tags;
    data::RunTags tags = dataset.tags;
    auto fill = [](std::string& field, const std::string& fallback) {
        if (field.empty())
            field = fallback;
    };
    fill(tags.workloadSeed, content.workloadSeed);
    fill(tags.modelRevision, content.modelRevision);
    fill(tags.compiler, content.compiler);
    fill(tags.firmware, content.firmware);
    fill(tags.runtime, content.runtime);
    fill(tags.hardware, content.hardware);
    for (const auto& [key, value] : content.extra)
        tags.extra.try_emplace(key, value);
    return tags;
}

/// Takes the content into the first free slot of its kind; false when the slot was taken.
bool takeContent(SideInputs& side, const data::Dataset& dataset)
{
    auto take = [&dataset](auto& slot, std::string& name, std::string& id, auto content) {
        if (slot)
            return false;
        slot = std::move(content);
        name = dataset.name;
        id = dataset.id;
        return true;
    };
    if (auto sweep = dataset.sweep()) {
        const bool taken = take(side.sweep, side.sweepName, side.sweepId, sweep);
        if (taken)
            side.sweepSynthetic = data::isSynthetic(dataset.provenance);
        return taken;
    }
    if (auto trace = dataset.requestTrace())
        return take(side.requests, side.requestsName, side.requestsId, trace);
    if (auto kernels = dataset.kernelTrace())
        return take(side.kernels, side.kernelsName, side.kernelsId, kernels);
    if (auto power = dataset.powerSeries())
        return take(side.power, side.powerName, side.powerId, power);
    if (auto runs = dataset.llmRuns(); runs && !runs->runs.empty())
        return take(side.llmRuns, side.llmRunsName, side.llmRunsId, runs);
    return false;
}

SideInputs collectSide(const data::Project& project, data::DatasetRole role)
{
    SideInputs side;
    side.role = data::datasetRoleName(role);
    for (const auto& dataset : project.datasets) {
        if (dataset.role != role)
            continue;
        side.datasets.push_back({dataset.id, dataset.name, dataset.kind, effectiveTags(dataset)});
        if (!dataset.isLoaded())
            side.notLoaded.push_back(dataset.name);
        else if (!takeContent(side, dataset))
            side.unused.push_back(dataset.name);
    }
    return side;
}

void readScenario(const data::Project& project, int index, PlaybookInputs& inputs)
{
    const auto& scenarios = project.scenarios;
    if (!scenarios.is_array() || scenarios.empty()) {
        inputs.scenarioNote = "the project has no scenario";
        return;
    }
    if (index < 0 || std::size_t(index) >= scenarios.size()) {
        inputs.scenarioNote = "playbook.options.scenario_index " + std::to_string(index) +
                              " is past the project's " + std::to_string(scenarios.size()) +
                              " scenario(s)";
        return;
    }
    inputs.scenarioJson = withProjectModel(scenarios[std::size_t(index)], project.model);
    inputs.scenarioNote =
        "project scenario " + std::to_string(index + 1) + " of " + std::to_string(scenarios.size());
}

void readModel(const data::Project& project, PlaybookInputs& inputs)
{
    if (!project.model.is_object() || project.model.empty())
        return;
    inputs.modelJson = project.model;
    auto model = accel::modelFromJson(project.model, "project.model", {});
    if (model)
        inputs.model = std::move(*model);
    else
        inputs.modelError = model.error().message;
}

} // namespace

data::RunTags SideInputs::primaryTags() const
{
    // The runs themselves speak for the side, whatever order the datasets were added in: a
    // power log or trace listed first must not hide the sweep's tags (its power limit, seed).
    for (const auto* id : {&sweepId, &requestsId, &kernelsId, &llmRunsId}) {
        if (const auto* tags = id->empty() ? nullptr : tagsOf(*id))
            return *tags;
    }
    return datasets.empty() ? data::RunTags() : datasets.front().tags;
}

const data::RunTags* SideInputs::tagsOf(const std::string& id) const
{
    for (const auto& dataset : datasets) {
        if (dataset.id == id)
            return &dataset.tags;
    }
    return nullptr;
}

nlohmann::json withProjectModel(nlohmann::json scenario, const nlohmann::json& model)
{
    if (!scenario.is_object() || !scenario.contains("service") || !scenario["service"].is_object())
        return scenario;
    auto& service = scenario["service"];
    const auto kind = service.find("kind");
    const bool accelerator =
        kind != service.end() && kind->is_string() && kind->get<std::string>() == "accelerator";
    if (accelerator && !service.contains("model") && model.is_object() && !model.empty())
        service["model"] = model;
    return scenario;
}

std::string extraTag(const data::RunTags& tags, const std::string& key)
{
    const std::string wanted = lower(key);
    for (const auto& [name, value] : tags.extra) {
        if (lower(name) == wanted)
            return value;
    }
    return {};
}

PlaybookInputs gatherInputs(const data::Project& project, int scenarioIndex)
{
    PlaybookInputs inputs;
    inputs.title = project.title;
    inputs.baseline = collectSide(project, data::DatasetRole::Baseline);
    inputs.candidate = collectSide(project, data::DatasetRole::Candidate);
    // Evidence of other runs must not decide anything about these: a power log of another
    // device or another day would read as this run's throttling.
    setAsideUnrelatedPower(inputs.baseline);
    setAsideUnrelatedPower(inputs.candidate);
    readScenario(project, scenarioIndex, inputs);
    readModel(project, inputs);
    const auto& region = project.region;
    if (region.is_object() && region.contains("sla_p99_ms") && region["sla_p99_ms"].is_number()) {
        const double slaMs = region["sla_p99_ms"].get<double>();
        if (slaMs > 0.0 && inputs.scenarioJson && scenarioIndex == 0)
            inputs.slaP99S = slaMs / 1000.0;
        else if (slaMs > 0.0)
            inputs.slaNote = "the SLA (p99 ≤ " + formatNumber(slaMs) +
                             " ms) is judged on project scenario 1; the playbook's target traffic "
                             "is " +
                             (inputs.scenarioJson ? "scenario " + std::to_string(scenarioIndex + 1)
                                                  : std::string("derived from a sweep")) +
                             ", so fixes are held to the baseline's p99 instead";
    }
    return inputs;
}

} // namespace bs::playbook
