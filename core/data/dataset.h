#pragma once

#include "data/kerneltrace.h"
#include "data/llmrun.h"
#include "data/powerseries.h"
#include "data/requesttrace.h"
#include "data/sweeptable.h"

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace bs::data {

enum class DatasetKind
{
    Sweep,
    RequestTrace,
    KernelTrace,
    PowerSeries,
    LlmRuns, ///< LLM serving benchmark runs (data::LlmRunSet).
};

/// The part a dataset plays in a baseline/candidate comparison.
enum class DatasetRole
{
    None,
    Baseline,
    Candidate,
};

/// A recoverable oddity a reader noticed (kept, summarised once, shown with the dataset).
struct ReadWarning
{
    std::int64_t line = 0; ///< 0 when it concerns the whole file.
    std::string message;

    friend bool operator==(const ReadWarning&, const ReadWarning&) = default;
};

/// Where a dataset came from, precise enough for a reviewer to reproduce it.
struct Provenance
{
    std::string path; ///< As the user opened it (absolute).
    std::uint64_t sizeBytes = 0;
    /// Of the stored bytes (compressed for .gz); of the compact JSON of embedded data.
    std::string sha256;
    std::string reader; ///< Reader name, e.g. "perf_analyzer".
    int readerVersion = 1;
    std::string detectedBecause; ///< Why io::detect chose the reader.
    std::vector<ReadWarning> warnings;

    friend bool operator==(const Provenance&, const Provenance&) = default;
};

/// The reader of BatchScope's built-in demo data: made up to show the tool, not a measurement.
inline constexpr const char* kSyntheticDemoReader = "demo";

/// True for data BatchScope generated (the demo) rather than read from a measurement file.
inline bool isSynthetic(const Provenance& provenance)
{
    return provenance.reader == kSyntheticDemoReader;
}

/// The immutable content of a dataset; shared between threads without copying. monostate means
/// "referenced but not loaded yet" (a large trace kept by path in the project file).
using DatasetContent =
    std::variant<std::monostate, std::shared_ptr<const SweepTable>,
                 std::shared_ptr<const RequestTrace>, std::shared_ptr<const KernelTrace>,
                 std::shared_ptr<const PowerSeries>, std::shared_ptr<const LlmRunSet>>;

/// One loaded input of a project.
struct Dataset
{
    std::string id;   ///< Stable within the project ("ds1", ...).
    std::string name; ///< What the user sees; defaults to the file name.
    DatasetRole role = DatasetRole::None;
    Provenance provenance;
    RunTags tags;
    /// The reader options used (for a generic CSV: the column mapping), so a reload is exact.
    std::string readerOptionsJson = "{}";
    DatasetKind kind = DatasetKind::Sweep;
    DatasetContent content;

    bool isLoaded() const { return content.index() != 0; }
    /// Sets the content and the matching kind together.
    void setContent(std::shared_ptr<const SweepTable> table);
    void setContent(std::shared_ptr<const RequestTrace> trace);
    void setContent(std::shared_ptr<const KernelTrace> trace);
    void setContent(std::shared_ptr<const PowerSeries> series);
    void setContent(std::shared_ptr<const LlmRunSet> runs);
    /// Null unless the dataset holds that kind.
    std::shared_ptr<const SweepTable> sweep() const;
    std::shared_ptr<const RequestTrace> requestTrace() const;
    std::shared_ptr<const KernelTrace> kernelTrace() const;
    std::shared_ptr<const PowerSeries> powerSeries() const;
    std::shared_ptr<const LlmRunSet> llmRuns() const;
};

const char* datasetKindName(DatasetKind kind);
const char* datasetRoleName(DatasetRole role);

} // namespace bs::data
