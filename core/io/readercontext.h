#pragma once

#include "data/dataset.h"
#include "io/bytesource.h"
#include "io/readwarnings.h"
#include "util/canceltoken.h"
#include "util/progress.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace bs::io {

/// Where a sweep's latency field came from, for the physics cross-check of its unit
/// (io::checkSweepUnits). Readers of fixed formats may leave it out: their format states the
/// unit.
struct LatencyColumnSource
{
    std::string field;        ///< Mapping key: "latency_mean", "latency_p99", ...
    std::string header;       ///< The column's name as written in the file.
    std::string unit;         ///< The unit it was read in ("s", "ms", "us", "ns").
    bool unitGuessed = false; ///< No header, format or mapping stated the unit.
};

/// Everything a reader gets besides its bytes. Readers are plain functions of (source,
/// context); they never show a dialog, read settings or touch a global.
struct ReaderContext
{
    ReaderContext(std::string path_, std::string directory_, nlohmann::json options_,
                  Progress& progress_, CancelToken cancel_, ByteSourceLimits limits_ = {})
        : path(std::move(path_))
        , directory(std::move(directory_))
        , options(std::move(options_))
        , progress(progress_)
        , cancel(std::move(cancel_))
        , limits(limits_)
    {}

    std::string path;       ///< Names the file in errors (the memory name for in-memory reads).
    std::string directory;  ///< Folder to look for sibling files in; empty when there is none.
    nlohmann::json options; ///< ReadOptions::readerOptions (an object).
    Progress& progress;
    CancelToken cancel;
    ByteSourceLimits limits;
    ReadWarnings warnings;
    /// The options actually used, when they differ from `options` (a generic CSV's suggested
    /// column mapping): saved with the dataset so a reload reads the file the same way.
    nlohmann::json resolvedOptions;
    /// Extra words for the provenance's "detected because" (e.g. a joined sibling file).
    std::string note;
    /// The latency columns of a sweep and how their units were decided (see checkSweepUnits).
    std::vector<LatencyColumnSource> latencyColumns;
};

/// An error when `context` carries reader options, for the readers that take none: "the
/// `what` reader takes no options (got "key")".
Status refuseReaderOptions(const ReaderContext& context, const std::string& what);

/// A parsed value as dataset content (the last step of most readers).
template <typename T>
Expected<data::DatasetContent> asDatasetContent(Expected<T> value)
{
    if (!value)
        return value.error();
    return data::DatasetContent(std::make_shared<const T>(std::move(*value)));
}

/// A reader: bytes in, dataset content out (or an Error naming file, line and column).
using ReaderFunction = Expected<data::DatasetContent> (*)(ByteSource& source,
                                                          ReaderContext& context);

} // namespace bs::io
