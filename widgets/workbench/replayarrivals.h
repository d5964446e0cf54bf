#pragma once

#include "data/project.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace bs::widgets {

/// Replaying an imported request trace in the simulator ("Replay imported trace" in the Model
/// dock). A replay runs the trace's arrivals once, in arrival order, from an empty system: the
/// run measures exactly the trace's requests (no loop, no warm-up), which is what an engineer
/// asking "what would this traffic have seen under that policy" expects.

/// The trace's arrival times in arrival order (a log may be written in completion order).
std::vector<double> arrivalOrder(const data::RequestTrace& trace);
/// The recorded mean rate of a trace as the simulator replays it: (n - 1) / span; 0 when the
/// trace spans no time.
double recordedRatePerS(const data::RequestTrace& trace);
/// Whether a dataset can be replayed: a loaded request trace with at least 2 arrivals that
/// span some time.
bool isReplayable(const data::Dataset& dataset);
/// Replay arrivals for a dataset: the file by its path (a large trace stays referenced), or the
/// times inline when the dataset is embedded in the project and has no file.
nlohmann::json replayArrivalsFor(const data::Dataset& dataset);
/// The scenario replaying a dataset once: arrivals, requests = the trace's, no warm-up.
nlohmann::json scenarioReplaying(nlohmann::json scenario, const data::Dataset& dataset);
/// The project dataset a replay arrivals object replays (by file path or inline times), or null.
const data::Dataset* replayedDataset(const data::Project& project, const nlohmann::json& arrivals);
/// The scenario with a replayed project file swapped for the trace already in memory, so the
/// simulator does not read the file again for every point of the policy curve.
nlohmann::json withReplayInMemory(nlohmann::json scenario, const data::Project& project);

} // namespace bs::widgets
