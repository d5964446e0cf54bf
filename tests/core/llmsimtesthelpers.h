#pragma once
// Helpers shared by the tst_llmsim*.cpp timeline tests (header-only: each test is its own
// executable).

#include "llmsim/llmsimulator.h"

#include <QtTest>

#include <cmath>
#include <string>
#include <vector>

namespace bs::test {

/// The step model of the hand-computed timelines: 10 ms + 0.1 ms per prefill token + 1 ms per
/// decoding sequence, so a step's duration tells what it computed.
inline llmsim::StepSpec handStep()
{
    llmsim::StepSpec step;
    step.baseMs = 10.0;
    step.perPrefillTokenMs = 0.1;
    step.perDecodeSeqMs = 1.0;
    return step;
}

/// Serves the requests on the hand step model; a failure stops the test program.
inline llmsim::EngineRun serveByHand(const llmsim::EngineConfig& engine,
                                     std::vector<llmsim::RequestSpec> requests)
{
    const llmsim::LinearStepTime step(handStep());
    auto run = llmsim::runEngine(engine, step, requests);
    if (!run)
        qFatal("%s", run.error().toString().c_str());
    return std::move(*run);
}

/// Seconds compared at 1e-9 s (sums of decimal milliseconds are not exact in binary).
inline bool nearMs(double actualS, double expectedMs)
{
    return std::abs(actualS - expectedMs * 1e-3) < 1e-9;
}

} // namespace bs::test

#define COMPARE_MS(actualS, expectedMs)                                                            \
    QVERIFY2(                                                                                      \
        bs::test::nearMs(actualS, expectedMs),                                                     \
        qPrintable(QStringLiteral("%1 ms, expected %2 ms").arg((actualS)*1e3).arg(expectedMs)))
