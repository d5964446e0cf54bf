#pragma once

#include "commandline.h"

#include <vector>

namespace bs::cli {

/// `validate PERF_ANALYZER.csv`: every row of a perf_analyzer concurrency sweep predicted from
/// its own server columns (a closed-loop scenario per row) beside what it measured.
int runValidatePerfAnalyzer(const ParsedArgs& args, CliIo& io);

/// The options of that form: the Triton model settings the CSV does not state.
std::vector<OptionSpec> perfAnalyzerValidateOptions();

} // namespace bs::cli
