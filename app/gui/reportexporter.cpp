#include "reportexporter.h"

#include "document/projectdocument.h"
#include "jobs/joboutcome.h"
#include "jobs/jobrunner.h"
#include "panels/messagebar.h"
#include "pdfreport.h"
#include "playbook/report.h"
#include "playbook/reportoutput.h"

#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>

namespace bs::gui {

ReportExporter::ReportExporter(widgets::ProjectDocument* document, widgets::JobRunner* jobs,
                               widgets::MessageBar* messages, QWidget* dialogParent)
    : QObject(dialogParent)
    , m_document(document)
    , m_jobs(jobs)
    , m_messages(messages)
    , m_dialogParent(dialogParent)
{}

void ReportExporter::exportWithDialog()
{
    QString suggested = QFileInfo(m_document->filePath()).completeBaseName();
    if (suggested.isEmpty())
        suggested = QStringLiteral("review");
    QString filter;
    const QString path = QFileDialog::getSaveFileName(
        m_dialogParent, tr("Export Report"), suggested + QStringLiteral("-report.pdf"),
        tr("PDF (*.pdf);;HTML, self-contained (*.html);;Markdown with figures (*.md);;JSON, "
           "re-importable (*.json)"),
        &filter);
    if (!path.isEmpty())
        exportTo(path);
}

void ReportExporter::exportTo(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QStringLiteral("pdf") && suffix != QStringLiteral("html") &&
        suffix != QStringLiteral("md") && suffix != QStringLiteral("json")) {
        const QString error = tr("%1: choose a .pdf, .html, .md or .json file name").arg(path);
        m_messages->showError(error);
        Q_EMIT finished(path, false, error);
        return;
    }
    const data::Project project = m_document->project();
    if (auto refused = playbook::refuseOverwritingInput(
            path.toStdString(), m_document->filePath().toStdString(), project);
        !refused) {
        const QString error = QString::fromStdString(refused.error().toString());
        m_messages->showError(tr("Report not written: %1").arg(error));
        Q_EMIT finished(path, false, error);
        return;
    }
    playbook::ReportOptions options;
    options.generatedAt = QDateTime::currentDateTimeUtc()
                              .toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"))
                              .toStdString();
    options.fileStem = QFileInfo(path).completeBaseName().toStdString();
    options.projectPath = m_document->filePath().toStdString();
    m_jobs->run<widgets::JobOutcome<playbook::ReportBundle>>(
        QStringLiteral("report"), tr("Report"),
        [project, options](widgets::JobRunner::Context& context) {
            return widgets::JobOutcome<playbook::ReportBundle>::from(
                playbook::prepareReport(project, options, {}, context.progress, context.cancel));
        },
        [this, path, suffix](widgets::JobOutcome<playbook::ReportBundle> outcome) {
            Status written;
            if (!outcome.value)
                written = makeError(ErrorCode::Value, outcome.error.toStdString());
            if (outcome.value) {
                const auto& bundle = *outcome.value;
                const std::string file = path.toStdString();
                if (suffix == QStringLiteral("pdf"))
                    written = render::writePdfReport(bundle.document, path); // GUI thread: fonts
                else if (suffix == QStringLiteral("html"))
                    written = playbook::writeHtmlReport(bundle, file);
                else if (suffix == QStringLiteral("md"))
                    written = playbook::writeMarkdownReport(bundle, file);
                else
                    written = playbook::writeJsonReport(bundle, file);
            }
            if (!written) {
                const QString error = QString::fromStdString(written.error().toString());
                m_messages->showError(tr("Report not written: %1").arg(error));
                Q_EMIT finished(path, false, error);
                return;
            }
            m_messages->showMessage(widgets::MessageBar::Kind::Information,
                                    tr("Report written to %1").arg(path));
            Q_EMIT finished(path, true, {});
        });
}

} // namespace bs::gui
