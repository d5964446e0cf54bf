#include "data/dataset.h"

namespace bs::data {

namespace {
template <typename T>
std::shared_ptr<const T> contentAs(const DatasetContent& content)
{
    if (const auto* held = std::get_if<std::shared_ptr<const T>>(&content))
        return *held;
    return nullptr;
}
} // namespace

void Dataset::setContent(std::shared_ptr<const SweepTable> table)
{
    kind = DatasetKind::Sweep;
    content = std::move(table);
}
void Dataset::setContent(std::shared_ptr<const RequestTrace> trace)
{
    kind = DatasetKind::RequestTrace;
    content = std::move(trace);
}
void Dataset::setContent(std::shared_ptr<const KernelTrace> trace)
{
    kind = DatasetKind::KernelTrace;
    content = std::move(trace);
}
void Dataset::setContent(std::shared_ptr<const PowerSeries> series)
{
    kind = DatasetKind::PowerSeries;
    content = std::move(series);
}
void Dataset::setContent(std::shared_ptr<const LlmRunSet> runs)
{
    kind = DatasetKind::LlmRuns;
    content = std::move(runs);
}

std::shared_ptr<const SweepTable> Dataset::sweep() const
{
    return contentAs<SweepTable>(content);
}
std::shared_ptr<const RequestTrace> Dataset::requestTrace() const
{
    return contentAs<RequestTrace>(content);
}
std::shared_ptr<const KernelTrace> Dataset::kernelTrace() const
{
    return contentAs<KernelTrace>(content);
}
std::shared_ptr<const PowerSeries> Dataset::powerSeries() const
{
    return contentAs<PowerSeries>(content);
}
std::shared_ptr<const LlmRunSet> Dataset::llmRuns() const
{
    return contentAs<LlmRunSet>(content);
}

const char* datasetKindName(DatasetKind kind)
{
    switch (kind) {
    case DatasetKind::Sweep:
        return "sweep";
    case DatasetKind::RequestTrace:
        return "request_trace";
    case DatasetKind::KernelTrace:
        return "kernel_trace";
    case DatasetKind::PowerSeries:
        return "power_series";
    case DatasetKind::LlmRuns:
        return "llm_runs";
    }
    return "sweep";
}

const char* datasetRoleName(DatasetRole role)
{
    switch (role) {
    case DatasetRole::None:
        return "none";
    case DatasetRole::Baseline:
        return "baseline";
    case DatasetRole::Candidate:
        return "candidate";
    }
    return "none";
}

} // namespace bs::data
