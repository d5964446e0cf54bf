#pragma once

#include "analysis/llmregion.h"
#include "charts/chartcontent.h"

namespace bs::widgets {

/// The LLM server tab's load sweep: the operating point's knobs over the loads of the project's
/// load axis (analysis::llmLoadSweepSpec), as the region judges them. Pure functions of the
/// result, so the tests check what is drawn. An empty `why` with a null sweep: nothing to draw.

/// Output tokens/s against the load, points meeting every limit apart from the others, and the
/// knee: the highest load met (the configuration's capacity) as a vertical line.
ChartContent llmLoadThroughputChart(const analysis::LlmRegionResult* sweep, const QString& why);
/// TTFT p99 and TPOT p99 against the load with their 95% intervals in the tooltips, and the
/// two limits; ITL and E2E p99 too where the spec limits them; logarithmic in y when they span
/// 100x.
ChartContent llmLoadLatencyChart(const analysis::LlmRegionResult* sweep, const QString& why);

/// Energy per output token against the load (the energy limit when set); empty, saying why,
/// without a power model.
ChartContent llmLoadEnergyChart(const analysis::LlmRegionResult* sweep, const QString& why);
/// Mean board power per GPU against the load, with the power cap and the power limit.
ChartContent llmLoadPowerChart(const analysis::LlmRegionResult* sweep, const QString& why);

/// "Load (× the scenario's rate)" or "Offered rate (req/s)", as the sweep's load axis is.
QString llmLoadAxisTitle(const analysis::LlmRegionSpec& spec);

} // namespace bs::widgets
