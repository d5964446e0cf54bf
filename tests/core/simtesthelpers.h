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

/// Simulates a scenario given as JSON; a bad scenario or a failed run stops the test program
/// (for tests whose scenarios are known to be valid).
inline sim::Result runScenarioJson(const nlohmann::json& json)
{
    auto scenario = sim::scenarioFromJson(json, "test");
    if (!scenario)
        qFatal("%s", scenario.error().toString().c_str());
    auto result = sim::simulate(*scenario);
    if (!result)
        qFatal("%s", result.error().toString().c_str());
    return std::move(*result);
}

/// The error text of reading `json` as the scenario file "s.json"; empty when it is valid.
inline std::string scenarioErrorOf(const nlohmann::json& json)
{
    auto scenario = sim::scenarioFromJson(json, "s.json");
    return scenario ? std::string() : scenario.error().toString();
}

/// Simulates `scenario` on one thread, cancelling at the first progress report.
inline Expected<sim::Result> simulateCancelledEarly(const sim::Scenario& scenario)
{
    CancelToken cancel;
    Progress cancelling(
        [&](const ProgressUpdate& u) {
            if (u.done > 0)
                cancel.cancel();
        },
        std::chrono::milliseconds(0));
    sim::SimOptions options;
    options.threads = 1;
    return sim::simulate(scenario, options, cancelling, cancel);
}

} // namespace bs::test
