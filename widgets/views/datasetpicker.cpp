#include "views/datasetpicker.h"

#include "models/displaytext.h"

#include <QComboBox>
#include <QObject>
#include <QSignalBlocker>

namespace bs::widgets {

void fillDatasetPicker(QComboBox* picker, const data::Project& project, data::DatasetKind kind)
{
    const QString current = picker->currentData().toString();
    const QSignalBlocker blocker(picker);
    picker->clear();
    picker->addItem(QObject::tr("(none)"), QString());
    for (const auto& dataset : project.datasets)
        if (dataset.kind == kind)
            picker->addItem(displayText(dataset.name), QString::fromStdString(dataset.id));
    // Keep the user's choice; otherwise show the first dataset of the kind.
    int index = current.isEmpty() ? -1 : picker->findData(current);
    if (index < 0)
        index = picker->count() > 1 ? 1 : 0;
    picker->setCurrentIndex(index);
}

const data::Dataset* findDataset(const data::Project& project, const QString& id)
{
    for (const auto& dataset : project.datasets)
        if (QString::fromStdString(dataset.id) == id)
            return &dataset;
    return nullptr;
}

} // namespace bs::widgets
