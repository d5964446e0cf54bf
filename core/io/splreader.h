#pragma once

#include "data/powerseries.h"
#include "io/readercontext.h"

namespace bs::io {

/// Parses an MLPerf PTDaemon power log (spl.txt): lines
/// `Time,MM-DD-YYYY HH:MM:SS.mmm,Watts,W,Volts,V,Amps,A,PF,pf,Mark,label` and, on multi-channel
/// meters, `Ch1,Watts,...` groups after it (the first group then holds the total, with -1 for
/// volts, amps and power factor). The series holds the total power; times are Unix seconds
/// taking the log's clock as UTC (the same clock as the detail log's power_begin/power_end).
Expected<data::PowerSeries> parseSpl(ByteSource& source, ReaderContext& context);

/// Reader entry point: spl.txt -> data::PowerSeries.
Expected<data::DatasetContent> readMlperfSpl(ByteSource& source, ReaderContext& context);

} // namespace bs::io
