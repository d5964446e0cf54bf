#include "data/project.h"

namespace bs::data {

std::string Project::nextDatasetId() const
{
    for (std::size_t n = datasets.size() + 1;; ++n) {
        std::string id = "ds" + std::to_string(n);
        if (!findDataset(id))
            return id;
    }
}

const Dataset* Project::findDataset(const std::string& id) const
{
    for (const auto& dataset : datasets) {
        if (dataset.id == id)
            return &dataset;
    }
    return nullptr;
}

const Dataset* Project::datasetWithRole(DatasetRole role) const
{
    for (const auto& dataset : datasets) {
        if (dataset.role == role)
            return &dataset;
    }
    return nullptr;
}

} // namespace bs::data
