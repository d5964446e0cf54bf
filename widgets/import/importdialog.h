#pragma once

#include "import/importrequest.h"

#include <QDialog>

class QTableWidget;
class QLabel;

namespace bs::widgets {

/// File ▸ Import…: the chosen files with the format BatchScope detected and why, a format
/// override, the column mapping for generic CSV, and the role each dataset will play. Reading
/// itself happens afterwards in a background job with progress and Cancel.
class ImportDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ImportDialog(const QStringList& paths, QWidget* parent = nullptr);

    QList<ImportRequest> requests() const;
    int fileCount() const;
    /// What detection said for row i (for tests): reader name, or the error text.
    QString detectionText(int row) const;
    /// Forces a reader for row i ("" = detect).
    void setFormat(int row, const QString& reader);
    /// Opens the mapping dialog for row i; returns whether the user accepted.
    bool editMapping(int row);

private:
    struct Entry
    {
        ImportRequest request;
        QString detectedReader;
        QString detectedText;
        bool mapped = false;
    };

    void addFiles(const QStringList& paths);
    void chooseMoreFiles();
    void rebuildTable();
    QString effectiveReader(const Entry& entry) const;
    void updateOk();

    QList<Entry> m_entries;
    QTableWidget* m_table;
    QLabel* m_status;
    QPushButton* m_ok = nullptr;
};

/// Names that tell the files apart: each path's file name, with as many of its parent folders
/// as needed to differ from every other path's ("concurrency/metrics-model-inference.csv").
QStringList distinguishingNames(const QStringList& paths);

/// The file filter for Import dialogs: every format BatchScope reads, and All files.
QString importFileFilter();

} // namespace bs::widgets
