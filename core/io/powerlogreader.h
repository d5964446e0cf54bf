#pragma once

#include "io/readercontext.h"

namespace bs::io {

/// nvidia-smi --query-gpu=...,--format=csv[,nounits] -> data::PowerSeries. Header fields like
/// "power.draw [W]"; values with ("24.38 W") or without units; one row per GPU per sample
/// (the "index" column becomes the channel). Timestamps ("2023/11/22 21:23:17.673", the
/// machine's local clock) are taken as UTC unless the reader option {"utc_offset_s": -18000}
/// gives the clock's offset. "[N/A]" power drops the row with a warning; "[N/A]" in an optional
/// column drops that column with a warning.
Expected<data::DatasetContent> readNvidiaSmi(ByteSource& source, ReaderContext& context);

/// Generic time/power CSV through a column mapping -> data::PowerSeries.
Expected<data::DatasetContent> readPowerCsv(ByteSource& source, ReaderContext& context);

/// Generic sweep CSV (one operating point per row) through a column mapping ->
/// data::SweepTable.
Expected<data::DatasetContent> readSweepCsv(ByteSource& source, ReaderContext& context);

} // namespace bs::io
