#pragma once

#include "analysis/regionresult.h"
#include "playbook/reportdocument.h"

#include <optional>
#include <string>

namespace bs::playbook {

/// The batch policy curve pack the review requires as its signoff artifact, as a report
/// section: the recommendation and its headroom, the heatmap, p99 and energy against
/// throughput with the Pareto front, the capacity curves, and the pack's files (cells.csv,
/// pareto.csv, capacity.csv, region.json) as attachments named "<stem>-<file>". Without a
/// region (`note` says why) the section says so instead of drawing nothing.
ReportSection curvePackSection(const std::optional<analysis::RegionResult>& region,
                               const std::string& note, const std::string& fileStem,
                               std::vector<ReportAttachment>& attachments);

} // namespace bs::playbook
