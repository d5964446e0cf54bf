#pragma once

#include "analysis/arrivalfit.h"
#include "analysis/kernelanalysis.h"
#include "analysis/powerjoin.h"
#include "analysis/requestanalysis.h"
#include "analysis/sweepconfidence.h"
#include "analysis/taildrivers.h"
#include "analysis/thermalevidence.h"
#include "analysis/thermalmodelcheck.h"

#include <nlohmann/json.hpp>

#include <string>

namespace bs::analysis {

/// JSON forms of the analysis results: what `batchscope-cli analyze --json` prints and what the
/// GUI's charts and the memo read. Conventions: keys carry their unit (`_ms` for latencies,
/// `_s` for times and windows, `_j`, `_w`, `_mhz`, `_c`, `_per_s`); a number that does not
/// exist is null; series for charts are parallel arrays (a CDF is {"value_<unit>": [...],
/// "probability": [...]}, sorted; a time series is "start_s" plus one array per quantity).

/// A distribution with values scaled by `scale` and keys suffixed with `unit` ("ms": scale 1000
/// for seconds -> milliseconds; "tokens": scale 1).
nlohmann::json toJson(const Distribution& d, const std::string& unit, double scale);
nlohmann::json toJson(const PercentileEstimate& p, const std::string& unit, double scale);
nlohmann::json toJson(const ArrivalCharacterisation& a);
nlohmann::json toJson(const RequestAnalysis& r);
nlohmann::json toJson(const SweepConfidence& s);
nlohmann::json toJson(const KernelAnalysis& k);
nlohmann::json toJson(const TailDrivers& d);
nlohmann::json toJson(const PowerJoin& p);
nlohmann::json toJson(const ThermalEvidence& t);
nlohmann::json toJson(const ThermalModelCheck& c);

/// A number, or null when it is NaN or infinite.
nlohmann::json number(double v);
/// An array of numbers scaled by `scale`, NaN as null.
nlohmann::json numbers(const std::vector<double>& values, double scale = 1.0);

} // namespace bs::analysis
