#pragma once

#include "analysis/requestanalysis.h"

#include <QList>
#include <QStringList>

namespace bs::widgets {

/// The token rows of a request trace's summary table (Traces view): for input and output
/// tokens per request the mean, p50, p99 and max with the total beside them, then the token
/// rates over the trace's span - what sizing an LLM server starts from (prefill load, decode
/// load, their ratio). Each row is {metric, value, detail}. Empty when the trace records no
/// token counts (a vision or ranking trace), so the table does not fill with dashes.
QList<QStringList> tokenSummaryRows(const analysis::RequestAnalysis& analysis);

} // namespace bs::widgets
