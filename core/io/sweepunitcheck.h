#pragma once

#include "data/sweeptable.h"
#include "io/readercontext.h"

namespace bs::io {

/// Checks every latency column of a sweep against what throughput and load say it must be:
/// in a closed loop (a concurrency column) Little's law gives the mean time in the system as
/// concurrency × batch ÷ throughput; with only batch varying (one request at a time) it is
/// batch ÷ throughput. When the file's latencies sit a factor 10^3 or 10^6 (either way) from
/// that, their unit is wrong: a unit that was guessed (a unitless header, see
/// context.latencyColumns) is corrected, the values rescaled and the saved column mapping
/// (context.resolvedOptions) updated so a reload reads the same numbers; a unit the header,
/// the format or the user stated is kept and only warned about. A guessed unit that nothing
/// can check (no throughput, an open-loop request-rate sweep) gets a plain warning. Every
/// warning names the file, the column and the evidence and goes to context.warnings.
void checkSweepUnits(data::SweepTable& table, ReaderContext& context);

} // namespace bs::io
