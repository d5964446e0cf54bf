#pragma once

// Runs the built batchscope-cli (BATCHSCOPE_CLI_PATH, defined for the app tests) as a user
// would, capturing its exit code and both streams.

#include <QByteArray>
#include <QProcess>
#include <QStringList>

namespace bs::test {

struct CliRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

/// Waits up to `timeoutMs` (tests that must catch a hang keep their own deadline and kill).
inline CliRun runCli(const QStringList& args, int timeoutMs = 240000)
{
    QProcess process;
    process.start(QStringLiteral(BATCHSCOPE_CLI_PATH), args);
    process.waitForFinished(timeoutMs);
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

} // namespace bs::test
