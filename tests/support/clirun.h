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
    bool finished = false; ///< Within the timeout (a hang is killed and reads false).
    bool crashed = false;  ///< Ended by a signal (an abort, a sanitizer report, a segfault).
};

/// Waits up to `timeoutMs` (tests that must catch a hang keep their own deadline and kill).
inline CliRun runCli(const QStringList& args, int timeoutMs = 240000)
{
    QProcess process;
    process.start(QStringLiteral(BATCHSCOPE_CLI_PATH), args);
    const bool finished = process.waitForFinished(timeoutMs);
    if (!finished) {
        process.kill();
        process.waitForFinished(5000);
    }
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError(),
            finished, finished && process.exitStatus() == QProcess::CrashExit};
}

} // namespace bs::test
