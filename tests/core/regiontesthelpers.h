#pragma once
// Helpers shared by the tst_region_*.cpp tests (header-only: each test is its own executable).

#include "analysis/region.h"
#include "io/jsonfields.h"

#include <QtTest>

#include <string>

namespace bs::test {

/// A region spec from JSON text (parse and read errors come back as the Error).
inline Expected<analysis::RegionSpec> regionSpecFrom(const std::string& text)
{
    auto parsed = io::parseJson(text, "region.json");
    if (!parsed)
        return parsed.error();
    return analysis::regionSpecFromJson(*parsed, "region.json");
}

inline Expected<analysis::RegionResult> computeOn(const analysis::RegionSpec& spec,
                                                  std::size_t threads, std::size_t shardIndex = 0,
                                                  std::size_t shardCount = 1)
{
    analysis::RegionOptions options;
    options.threads = threads;
    options.shardIndex = shardIndex;
    options.shardCount = shardCount;
    return analysis::computeRegion(spec, options);
}

inline QString describe(const Error& error)
{
    return QString::fromStdString(error.toString());
}

/// The cell at (value index per axis) of a complete result.
inline const analysis::RegionCell& cellAt(const analysis::RegionResult& result,
                                          std::vector<std::size_t> axisIndex)
{
    for (const auto& c : result.cells) {
        if (c.axisIndex == axisIndex)
            return c;
    }
    static const analysis::RegionCell none;
    return none;
}

} // namespace bs::test
