#pragma once

#include <QObject>
#include <QString>

class QWidget;

namespace bs::widgets {
class JobRunner;
class MessageBar;
class ProjectDocument;
} // namespace bs::widgets

namespace bs::gui {

/// File → Export Report: runs the playbook on the open project in the background (lane
/// "report"), drafts the memo as the CLI's `report` command does (the user's edits are kept),
/// and writes Markdown (figures beside it), self-contained HTML, JSON or a PDF with vector
/// charts. The format follows the file suffix.
class ReportExporter : public QObject
{
    Q_OBJECT
public:
    ReportExporter(widgets::ProjectDocument* document, widgets::JobRunner* jobs,
                   widgets::MessageBar* messages, QWidget* dialogParent);

    /// Asks for a file and exports.
    void exportWithDialog();
    /// Exports to `path` (.md, .html, .json or .pdf); finished() tells the outcome.
    void exportTo(const QString& path);

Q_SIGNALS:
    void finished(const QString& path, bool ok, const QString& error);

private:
    widgets::ProjectDocument* m_document;
    widgets::JobRunner* m_jobs;
    widgets::MessageBar* m_messages;
    QWidget* m_dialogParent;
};

} // namespace bs::gui
