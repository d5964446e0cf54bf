#pragma once

#include "data/project.h"

#include <QString>

class QComboBox;

namespace bs::widgets {

/// Fills a picker with the project's datasets of one kind after a "(none)" entry, keeping the
/// user's choice; without one it shows the first dataset of the kind. Item data: dataset id.
void fillDatasetPicker(QComboBox* picker, const data::Project& project, data::DatasetKind kind);
/// The project's dataset with this id, or null.
const data::Dataset* findDataset(const data::Project& project, const QString& id);

} // namespace bs::widgets
