#pragma once
// Helpers shared by the tst_sim*.cpp tests (header-only: each test is its own executable).

#include "io/jsonfields.h"
#include "sim/resultjson.h"
#include "sim/scenariojson.h"
#include "sim/simulator.h"
#include "testsupport.h"

#include <QtTest>

#include <string>

namespace bs::test {

/// A scenario from JSON text; a parse error becomes a scenario whose name carries it, which
/// simOrFail reports (QtTest's QFAIL only works in void functions).
inline Expected<sim::Scenario> scenarioFrom(const std::string& json)
{
    auto parsed = io::parseJson(json, "test.json");
    if (!parsed)
        return parsed.error();
    return sim::scenarioFromJson(*parsed, "test.json");
}

inline QString describe(const Error& error)
{
    return QString::fromStdString(error.toString());
}

/// Runs `json` on `threads` threads; QVERIFY-style failures are reported by the caller through
/// the returned Expected.
inline Expected<sim::Result> simulateJson(const std::string& json, std::size_t threads = 2)
{
    auto scenario = scenarioFrom(json);
    if (!scenario)
        return scenario.error();
    sim::SimOptions options;
    options.threads = threads;
    return sim::simulate(*scenario, options);
}

} // namespace bs::test
