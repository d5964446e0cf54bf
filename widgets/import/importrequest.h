#pragma once

#include "data/dataset.h"
#include "util/expected.h"

#include <QList>
#include <QString>

#include <nlohmann/json.hpp>

namespace bs::widgets {

/// One file the user asked to import, with the choices made in the Import dialog.
struct ImportRequest
{
    QString path;
    QString format; ///< Empty: detect from content.
    nlohmann::json readerOptions = nlohmann::json::object();
    data::DatasetRole role = data::DatasetRole::None;
};

/// What became of one request: a dataset ready to add, or the reader's error.
struct ImportOutcome
{
    ImportRequest request;
    std::optional<data::Dataset> dataset;
    std::optional<Error> error;
};

/// Readers that need a column mapping (generic CSV forms).
bool readerNeedsMapping(const QString& reader);
/// The mapping target name for a mapped reader ("sweep", "request_trace", "power_series").
QString mappingTargetForReader(const QString& reader);

} // namespace bs::widgets
