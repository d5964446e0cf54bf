#pragma once

#include <QFile>
#include <QString>

namespace bs::test {

/// Root of the source tree (BATCHSCOPE_SOURCE_DIR, else the configure-time path).
QString sourceDir();
/// tests/data/<relative>.
QString testDataPath(const QString& relative);
/// The shared folder of real measurement files ($BATCHSCOPE_SHARED_DATA, else ../shared/data
/// next to the source tree), or an empty string when it is absent.
QString sharedDataDir();
/// A file in the shared folder; calls QSKIP with a plain message when the folder is missing.
#define BS_REQUIRE_SHARED_DATA(var)                                                                \
    const QString var = ::bs::test::sharedDataDir();                                               \
    if (var.isEmpty())                                                                             \
        QSKIP("Shared data folder not found: set BATCHSCOPE_SHARED_DATA or place ../shared/data "  \
              "next to the source tree; conformance on real files was NOT checked");
/// `var` = the file `relative` (a QString) of the shared folder; calls QSKIP with a plain
/// message when the folder or the file is missing.
#define BS_REQUIRE_SHARED_FILE(var, relative)                                                      \
    BS_REQUIRE_SHARED_DATA(var##Folder);                                                           \
    const QString var = var##Folder + QLatin1Char('/') + (relative);                               \
    if (!QFile::exists(var))                                                                       \
        QSKIP("A file of the shared data folder is missing: the shared copy is older than this "   \
              "test; conformance on that real file was NOT checked");

/// Compares `actual` with the golden file tests/data/<relative>. On mismatch writes
/// "<golden>.actual", prints a unified diff and returns false.
bool matchesGolden(const QByteArray& actual, const QString& relative);

/// Reads a whole file (test fixtures only).
QByteArray readFile(const QString& path);

} // namespace bs::test
