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

/// A scenario file for CLI tests: one dynamic-batching server under Poisson arrivals at rho 0.8
/// (1000 req/s, a measured-style latency table 0.8 / 1.8 / 5.6 ms at batch 1 / 8 / 32).
inline QByteArray poissonTableScenario(qint64 requests, int replications)
{
    return QByteArrayLiteral(R"({"seed": 7, "requests": )") + QByteArray::number(requests) +
           QByteArrayLiteral(R"(, "replications": )") + QByteArray::number(replications) +
           QByteArrayLiteral(R"(,
  "arrivals": {"kind": "poisson", "rate_per_s": 1000},
  "policy": {"kind": "dynamic", "max_batch": 8, "max_queue_delay_ms": 1},
  "servers": {"count": 1},
  "service": {"kind": "table", "batch": [1, 8, 32], "latency_ms": [0.8, 1.8, 5.6]},
  "power": {"idle_w": 10, "busy_w": 65}})");
}

} // namespace bs::test
