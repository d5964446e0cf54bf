#include "import/importrequest.h"

namespace bs::widgets {

bool readerNeedsMapping(const QString& reader)
{
    return !mappingTargetForReader(reader).isEmpty();
}

QString mappingTargetForReader(const QString& reader)
{
    if (reader == QLatin1String("sweep_csv"))
        return QStringLiteral("sweep");
    if (reader == QLatin1String("request_trace_csv"))
        return QStringLiteral("request_trace");
    if (reader == QLatin1String("power_csv"))
        return QStringLiteral("power_series");
    return {};
}

} // namespace bs::widgets
