#pragma once

#include "import/importrequest.h"
#include "util/canceltoken.h"
#include "util/progress.h"

#include <QObject>

class QWidget;

namespace bs::widgets {

class JobRunner;
class MessageBar;
class ProjectDocument;

/// Reads files in the "import" job lane (progress with phase and ETA, Cancel) and adds what was
/// read to the project as one undo step per dataset. Errors and warnings are shown in the
/// message bar with file, line and column.
class ImportController : public QObject
{
    Q_OBJECT
public:
    ImportController(ProjectDocument* document, JobRunner* jobs, MessageBar* messages,
                     QWidget* window);

    /// Shows the Import dialog for `paths` (asks for files when empty), then imports.
    void importWithDialog(const QStringList& paths = {});
    /// Imports without asking (drag and drop, tests). Files that need a column mapping get the
    /// Import dialog instead.
    void importFiles(const QList<ImportRequest>& requests);
    /// Reads again, in the background, the files an opened project references by path (kernel
    /// traces, LLM benchmark runs, long request traces): their content is not in the project
    /// file. Runs on every project reset; a file that cannot be read is named in the message bar.
    void reloadReferencedDatasets();
    /// Reads a list of files on the calling thread (the job body; public for tests).
    static QList<ImportOutcome> readAll(const QList<ImportRequest>& requests, Progress& progress,
                                        const CancelToken& cancel);

Q_SIGNALS:
    /// All outcomes of one import were applied (also when some failed or it was cancelled).
    void importFinished(int imported, int failed);
    /// The referenced files of the opened project were read again (`loaded` of them).
    void referencedDatasetsReloaded(int loaded, int failed);

private:
    void apply(const QList<ImportOutcome>& outcomes);

    ProjectDocument* m_document;
    JobRunner* m_jobs;
    MessageBar* m_messages;
    QWidget* m_window;
};

} // namespace bs::widgets
