#include "io/referenceddatasets.h"

#include "io/readdataset.h"

#include <nlohmann/json.hpp>

namespace bs::io {

std::vector<ReferencedLoad> loadReferencedDatasets(const data::Project& project,
                                                   const CancelToken& cancel)
{
    std::vector<ReferencedLoad> out;
    for (const auto& dataset : project.datasets) {
        if (dataset.isLoaded() || dataset.provenance.path.empty() || cancel.isCancelled())
            continue;
        ReadOptions options;
        options.format = dataset.provenance.reader;
        auto readerOptions = nlohmann::json::parse(dataset.readerOptionsJson, nullptr, false);
        if (readerOptions.is_object())
            options.readerOptions = std::move(readerOptions);
        ReferencedLoad load{dataset.id, std::nullopt, {}};
        auto loaded = readDataset(dataset.provenance.path, options, Progress::null(), cancel);
        if (!loaded) {
            load.warning = loaded.error().toString() + " (dataset '" + dataset.name + "' left out)";
            out.push_back(std::move(load));
            continue;
        }
        if (!dataset.provenance.sha256.empty() &&
            loaded->provenance.sha256 != dataset.provenance.sha256)
            load.warning = dataset.provenance.path +
                           ": the file changed since the project was saved (SHA-256 differs)";
        loaded->id = dataset.id;
        load.loaded = std::move(*loaded);
        out.push_back(std::move(load));
    }
    return out;
}

} // namespace bs::io
