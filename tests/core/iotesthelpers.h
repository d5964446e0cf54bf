#pragma once
// Helpers shared by the tst_io_*.cpp tests (header-only: each test is its own executable).

#include "io/readdataset.h"
#include "testsupport.h"

#include <QtTest>

#include <string>

namespace bs::test {

/// Reads tests/data/<relative> with readDataset.
inline Expected<data::Dataset> readFixture(const QString& relative,
                                           const io::ReadOptions& options = {})
{
    return io::readDataset(testDataPath(relative).toStdString(), options);
}

/// Reads a fixture forcing a reader.
inline Expected<data::Dataset>
readFixtureAs(const QString& relative, const std::string& format,
              nlohmann::json readerOptions = nlohmann::json::object())
{
    io::ReadOptions options;
    options.format = format;
    options.readerOptions = std::move(readerOptions);
    return readFixture(relative, options);
}

/// "line:column: message" of an error, without the (absolute, machine-dependent) path.
inline QString whereAndWhy(const Error& error)
{
    return QStringLiteral("%1:%2: %3")
        .arg(error.line)
        .arg(error.column)
        .arg(QString::fromStdString(error.message));
}

inline QString describe(const Expected<data::Dataset>& result)
{
    return result ? QStringLiteral("ok") : QString::fromStdString(result.error().toString());
}

/// The warnings of a dataset as "line: message" lines.
inline QStringList warningLines(const data::Dataset& dataset)
{
    QStringList out;
    for (const auto& w : dataset.provenance.warnings)
        out << QStringLiteral("%1: %2").arg(w.line).arg(QString::fromStdString(w.message));
    return out;
}

} // namespace bs::test

#define BS_VERIFY_READ(result)                                                                     \
    QVERIFY2((result).hasValue(), qPrintable(::bs::test::describe(result)))
