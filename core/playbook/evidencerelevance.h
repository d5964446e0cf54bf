#pragma once

#include "playbook/playbookinputs.h"

#include <string>
#include <vector>

namespace bs::playbook {

/// A stretch of wall-clock time, Unix seconds (UTC), and what recorded it.
struct TimeSpan
{
    double beginS = 0.0;
    double endS = 0.0;
    std::string source; ///< "request trace 'prod slice'", "sweep 'cap 250' (power_begin/end)".
};

/// The absolute time spans the runs of one side record: a request trace with an absolute clock
/// (origin_epoch_s), an LLM serving run's window (first arrival to last token), a sweep with a
/// measurement window in its metadata (MLPerf power_begin / power_end, or run_start / run_end in
/// any date format the readers accept). Power logs are not runs and give no span. Empty when no run
/// records its time.
std::vector<TimeSpan> runTimeSpans(const SideInputs& side);

/// "2025-12-02 13:00:00 UTC".
std::string utcText(double unixS);

/// Device names compare without case, spaces, dashes or underscores ("A100-SXM4-80GB" is
/// "a100 sxm4 80gb").
bool sameDevice(const std::string& a, const std::string& b);

/// Checks that one side's power log belongs to that side's runs and sets it aside when it
/// demonstrably does not: its hardware tag names another device than every run that records
/// one, or none of its readings falls inside a time span the runs record. A power log set aside
/// is not used by any step (side.power is cleared); side.setAside says why. When no run records
/// its time, the overlap cannot be checked: the log is used and side.evidenceNotes says so.
void setAsideUnrelatedPower(SideInputs& side);

} // namespace bs::playbook
