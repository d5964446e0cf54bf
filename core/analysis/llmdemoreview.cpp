// The LLM demo's baseline and candidate runs for the playbook (llmdemoreview.h).
#include "analysis/llmdemoreview.h"

#include "analysis/projectregion.h"
#include "io/readdataset.h"
#include "llmsim/llmsimulator.h"
#include "llmsim/requestlogwriter.h"

#include <filesystem>

namespace bs::analysis {

namespace {

/// Simulates `scenario`, writes it under `folder` and reads it back as a dataset.
Expected<data::Dataset> simulatedRun(const llmsim::LlmScenario& scenario, const std::string& folder)
{
    llmsim::LlmSimOptions options;
    auto result = llmsim::simulateLlm(scenario, options);
    if (!result)
        return result.error();
    if (auto status = llmsim::writeSimulatedRequestLog(*result, folder); !status)
        return status.error();
    return io::readDataset((std::filesystem::path(folder) / "requests.jsonl").string());
}

} // namespace

Expected<LlmDemoReview> attachLlmDemoReview(data::Project& project, const std::string& folder)
{
    auto spec = llmRegionSpecOfProject(project, {});
    if (!spec)
        return spec.error();
    if (!spec->has_value())
        return makeError(ErrorCode::Usage, "the project has no LLM scenario to simulate");
    llmsim::LlmScenario baseline = spec->value().scenario;
    // Replication 0 is what the request log holds; a replay has only one anyway.
    baseline.replications = 1;
    llmsim::LlmScenario candidate = baseline;
    candidate.engine.maxNumBatchedTokens = kLlmDemoCandidateBatchedTokens;

    LlmDemoReview review;
    review.baselineBatchedTokens = baseline.engine.maxNumBatchedTokens;
    review.candidateBatchedTokens = candidate.engine.maxNumBatchedTokens;
    const std::filesystem::path root(folder);
    review.baselineFolder = (root / "baseline").string();
    review.candidateFolder = (root / "candidate").string();
    const struct
    {
        const llmsim::LlmScenario& scenario;
        const std::string& folder;
        data::DatasetRole role;
        std::string name;
    } sides[] = {
        {baseline, review.baselineFolder, data::DatasetRole::Baseline,
         "Baseline, simulated: token budget " + std::to_string(review.baselineBatchedTokens)},
        {candidate, review.candidateFolder, data::DatasetRole::Candidate,
         "Candidate, simulated: token budget " + std::to_string(review.candidateBatchedTokens)}};
    std::vector<data::Dataset> added;
    for (const auto& side : sides) {
        auto run = simulatedRun(side.scenario, side.folder);
        if (!run)
            return run.error();
        run->name = side.name;
        run->role = side.role;
        added.push_back(std::move(*run));
    }
    for (auto& dataset : added) {
        dataset.id = project.nextDatasetId();
        project.datasets.push_back(std::move(dataset));
    }
    review.note = "The playbook reviews raising max_num_batched_tokens from " +
                  std::to_string(review.baselineBatchedTokens) + " to " +
                  std::to_string(review.candidateBatchedTokens) +
                  ": both runs are simulated from the LLM scenario (written to " + folder +
                  "), not measured.";
    return review;
}

} // namespace bs::analysis
