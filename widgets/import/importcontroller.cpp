#include "import/importcontroller.h"

#include "document/projectdocument.h"
#include "import/importdialog.h"
#include "io/readdataset.h"
#include "io/referenceddatasets.h"
#include "jobs/jobrunner.h"
#include "panels/messagebar.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QPointer>

namespace bs::widgets {

ImportController::ImportController(ProjectDocument* document, JobRunner* jobs, MessageBar* messages,
                                   QWidget* window)
    : QObject(window)
    , m_document(document)
    , m_jobs(jobs)
    , m_messages(messages)
    , m_window(window)
{
    connect(m_document, &ProjectDocument::projectReset, this,
            &ImportController::reloadReferencedDatasets);
    connect(m_jobs, &JobRunner::jobEnded, this, [this](const QString& lane, bool cancelled) {
        if (lane == QLatin1String("import") && cancelled) {
            m_messages->showMessage(MessageBar::Kind::Information,
                                    tr("Import cancelled; nothing was added."));
            Q_EMIT importFinished(0, 0);
        }
    });
}

void ImportController::importWithDialog(const QStringList& paths)
{
    QStringList files = paths;
    if (files.isEmpty())
        files = QFileDialog::getOpenFileNames(m_window, tr("Import measurements"), QString(),
                                              importFileFilter());
    if (files.isEmpty())
        return;
    ImportDialog dialog(files, m_window);
    if (dialog.exec() == QDialog::Accepted)
        importFiles(dialog.requests());
}

void ImportController::importFiles(const QList<ImportRequest>& requests)
{
    QStringList needDialog;
    QList<ImportRequest> ready;
    for (const ImportRequest& request : requests) {
        if (readerNeedsMapping(request.format) &&
            (request.readerOptions.is_null() || request.readerOptions.empty()))
            needDialog << request.path;
        else
            ready << request;
    }
    if (!needDialog.isEmpty()) {
        ImportDialog dialog(needDialog, m_window);
        if (dialog.exec() == QDialog::Accepted)
            ready << dialog.requests();
    }
    if (ready.isEmpty())
        return;
    const QString title = ready.size() == 1
                              ? tr("Importing %1").arg(QFileInfo(ready.front().path).fileName())
                              : tr("Importing %n files", nullptr, int(ready.size()));
    m_jobs->run<QList<ImportOutcome>>(
        QStringLiteral("import"), title,
        [ready](JobRunner::Context& context) {
            return readAll(ready, context.progress, context.cancel);
        },
        [self = QPointer<ImportController>(this)](QList<ImportOutcome> outcomes) {
            if (self)
                self->apply(outcomes);
        });
}

QList<ImportOutcome> ImportController::readAll(const QList<ImportRequest>& requests,
                                               Progress& progress, const CancelToken& cancel)
{
    QList<ImportOutcome> outcomes;
    for (int i = 0; i < requests.size(); ++i) {
        const ImportRequest& request = requests[i];
        ImportOutcome outcome{request, std::nullopt, std::nullopt};
        if (cancel.isCancelled())
            break;
        const QFileInfo info(request.path);
        progress.setPhase(QStringLiteral("%1 (%2 of %3)")
                              .arg(info.fileName())
                              .arg(i + 1)
                              .arg(requests.size())
                              .toStdString(),
                          std::uint64_t(std::max<qint64>(info.size(), 0)));
        io::ReadOptions options;
        options.format = request.format.toStdString();
        // A request built without options carries JSON null; readers expect an object.
        options.readerOptions =
            request.readerOptions.is_null() ? nlohmann::json::object() : request.readerOptions;
        auto dataset = io::readDataset(request.path.toStdString(), options, progress, cancel);
        if (dataset) {
            dataset->role = request.role;
            outcome.dataset = std::move(*dataset);
        } else {
            outcome.error = dataset.error();
        }
        outcomes.append(std::move(outcome));
    }
    progress.finish();
    return outcomes;
}

void ImportController::apply(const QList<ImportOutcome>& outcomes)
{
    int imported = 0;
    QStringList errors;
    QStringList warnings;
    for (const ImportOutcome& outcome : outcomes) {
        if (outcome.error) {
            errors << QString::fromStdString(outcome.error->toString());
            continue;
        }
        const data::Dataset& dataset = *outcome.dataset;
        if (!dataset.provenance.warnings.empty()) {
            const auto& first = dataset.provenance.warnings.front();
            warnings << tr("%1: %n warning(s), first at line %2: %3", nullptr,
                           int(dataset.provenance.warnings.size()))
                            .arg(QString::fromStdString(dataset.name))
                            .arg(first.line)
                            .arg(QString::fromStdString(first.message));
        }
        m_document->addDataset(dataset);
        ++imported;
    }
    if (!errors.isEmpty()) {
        m_messages->showError(tr("Could not import:\n%1").arg(errors.join(QLatin1Char('\n'))));
    } else if (!warnings.isEmpty()) {
        m_messages->showMessage(MessageBar::Kind::Warning, warnings.join(QLatin1Char('\n')));
    } else if (imported > 0) {
        m_messages->clearMessage();
    }
    Q_EMIT importFinished(imported, int(errors.size()));
}

void ImportController::reloadReferencedDatasets()
{
    // Files of a project no longer open must not attach to a new one's datasets of the same id.
    m_jobs->cancel(QStringLiteral("reload"));
    bool any = false;
    for (const auto& dataset : m_document->project().datasets)
        any = any || (!dataset.isLoaded() && !dataset.provenance.path.empty());
    if (!any)
        return;
    // A snapshot: the job reads files while the user may already edit the project.
    auto project = std::make_shared<const data::Project>(m_document->project());
    using Loads = std::vector<io::ReferencedLoad>;
    m_jobs->run<std::shared_ptr<Loads>>(
        QStringLiteral("reload"), tr("Read the project's referenced files"),
        [project](JobRunner::Context& context) {
            return std::make_shared<Loads>(io::loadReferencedDatasets(*project, context.cancel));
        },
        [this](std::shared_ptr<Loads> loads) {
            int loaded = 0, failed = 0;
            QStringList warnings;
            for (const auto& load : *loads) {
                if (!load.warning.empty())
                    warnings << QString::fromStdString(load.warning);
                if (!load.loaded) {
                    ++failed;
                    continue;
                }
                m_document->attachDatasetContent(*load.loaded);
                ++loaded;
            }
            if (!warnings.isEmpty())
                m_messages->showMessage(MessageBar::Kind::Warning,
                                        warnings.join(QLatin1Char('\n')));
            Q_EMIT referencedDatasetsReloaded(loaded, failed);
        });
}

} // namespace bs::widgets
