#pragma once

#include <QWidget>

class QComboBox;
class QFormLayout;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace bs::widgets {

class DatasetListModel;
class ProjectDocument;

/// The Datasets dock: every imported sweep, trace and power log with its provenance (file,
/// format, SHA-256, warnings), editable run tags, and the baseline/candidate role used by
/// comparisons and the playbook. All edits are undoable through the document.
class DatasetPanel : public QWidget
{
    Q_OBJECT
public:
    explicit DatasetPanel(ProjectDocument* document, QWidget* parent = nullptr);

    QString currentDatasetId() const;
    void selectDataset(const QString& id);
    DatasetListModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }

Q_SIGNALS:
    void currentDatasetChanged(const QString& id);
    void importRequested();

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void placeTagLabels();
    void showColumnsThatFitTheDock();
    void showDetails();
    void applyTags();
    void applyRole(int comboIndex);
    void removeCurrent();
    void revealCurrent();

    ProjectDocument* m_document;
    DatasetListModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QComboBox* m_role;
    QPushButton* m_remove;
    QPushButton* m_reveal;
    QPlainTextEdit* m_provenance;
    QList<QLineEdit*> m_tagEdits;
    QLineEdit* m_extraTags;
    QFormLayout* m_tagsForm = nullptr;
    QString m_currentId;
};

} // namespace bs::widgets
