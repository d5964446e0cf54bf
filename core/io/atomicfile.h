#pragma once

#include "util/expected.h"

#include <string>
#include <string_view>

namespace bs::io {

struct AtomicWriteOptions
{
    /// Keep the previous version as "<path>.bak" (replaced on each save).
    bool keepBackup = true;
};

/// Writes `bytes` to `path` so that a crash, a kill or a full disk at any moment leaves either
/// the complete old file or the complete new one, never a mix: the bytes go to a temporary file
/// in the same folder, which is flushed to disk (fsync) and then renamed over `path`; the folder
/// is synced so the rename itself survives a power cut. A replaced file keeps its permissions
/// (a new one gets 0666 less the umask); a symlink is saved through (its target is replaced);
/// temporary files of an earlier save that was killed (older than 10 minutes) are removed.
Status writeFileAtomically(const std::string& path, std::string_view bytes,
                           const AtomicWriteOptions& options = {});

/// gzip-compresses bytes (for optionally compressed project files).
std::string gzipCompress(std::string_view bytes, int level = 6);

} // namespace bs::io
