#pragma once

#include "data/dataset.h"
#include "io/bytesource.h"
#include "io/readerregistry.h"
#include "util/canceltoken.h"
#include "util/expected.h"
#include "util/progress.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace bs::io {

/// How to read a file.
struct ReadOptions
{
    /// "" detects the format from the content; otherwise the name of a reader to force (see
    /// availableReaders()).
    std::string format;
    /// Reader-specific options, validated by the reader (unknown keys are errors). Examples:
    /// generic CSV column mapping {"columns": {...}}, perf_analyzer {"batch_size": 8},
    /// MLPerf detail {"spl": false} to skip the power join.
    nlohmann::json readerOptions = nlohmann::json::object();
    ByteSourceLimits limits;
};

/// What io::detect decided and why.
struct Detection
{
    std::string reader;     ///< Reader name.
    data::DatasetKind kind; ///< What that reader produces.
    std::string reason;     ///< In words: which header, magic bytes or first lines decided it.
};

/// Reads any supported file (plain or gzip) into a Dataset: the content plus its provenance
/// (absolute path, stored size, SHA-256 of the stored bytes, reader and version, why it was
/// detected, warnings with line numbers summarised once). Streams the file with byte progress on
/// the stored bytes and honours `cancel` (an ErrorCode::Cancelled error). The dataset's id and
/// role are left for the caller; its name is the file name.
/// Thread contract: safe to call from any thread; `progress` is used on the calling thread.
Expected<data::Dataset> readDataset(const std::string& path, const ReadOptions& options = {},
                                    Progress& progress = Progress::null(),
                                    const CancelToken& cancel = CancelToken());

/// Reads bytes already in memory (tests, fuzzing). `name` stands in for the path in errors and
/// provenance. Sibling files (Model Analyzer GPU metrics, MLPerf spl.txt) are only found when
/// `siblingDirectory` is given.
Expected<data::Dataset> readDatasetFromBytes(std::string bytes, const std::string& name,
                                             const ReadOptions& options = {},
                                             Progress& progress = Progress::null(),
                                             const CancelToken& cancel = CancelToken(),
                                             const std::string& siblingDirectory = {});

/// Detects the format of a file from its first bytes (up to 256 KiB, decompressed), without
/// reading the whole file. Empty, binary and UTF-16 files and unrecognised content are errors
/// saying why.
Expected<Detection> detectFormat(const std::string& path, const ByteSourceLimits& limits = {});

/// Refuses content that is not UTF-8 text: empty, UTF-16, an archive other than gzip, or
/// binary (a NUL byte; the error names its line). For readers that take a whole document.
Status checkTextContent(std::string_view head, const std::string& name);

/// Detects the format from the start of a file's content; `name` is used in messages only (the
/// decision never rests on the file name). `complete` says `head` is the whole content.
Expected<Detection> detectFormatFromHead(std::string_view head, const std::string& name,
                                         bool complete);

/// Every reader: name, kind, description, version — for the GUI's override list.
std::vector<ReaderInfo> availableReaders();

} // namespace bs::io
