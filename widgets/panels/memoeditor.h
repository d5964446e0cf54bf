#pragma once

#include "playbook/memo.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace bs::widgets {

class ProjectDocument;

/// Editor for the review memo: the template's four sections, the four owners with their sign-off
/// state, and the decision. Typing in a field is one undo step per field; a field the playbook
/// has a newer draft for shows the draft with an Accept button instead of overwriting the text.
class MemoEditor : public QWidget
{
    Q_OBJECT
public:
    explicit MemoEditor(ProjectDocument* document, QWidget* parent = nullptr);

    /// The memo as currently stored in the project (blank when the project has none).
    playbook::Memo memo() const;
    QPlainTextEdit* fieldEdit(const QString& key) const;
    /// The charts attached as evidence, one row each.
    QListWidget* evidenceList() const { return m_evidence; }

private:
    struct FieldWidgets
    {
        QPlainTextEdit* edit = nullptr;
        QLabel* draftNote = nullptr;
        QPushButton* accept = nullptr;
    };
    struct OwnerWidgets
    {
        QLineEdit* name = nullptr;
        QComboBox* state = nullptr;
        QLineEdit* rationale = nullptr; ///< Why the owner approved or rejected.
    };

    QWidget* buildSection(const QString& title, const char* sectionKey);
    QWidget* buildSignoff();
    QWidget* buildEvidence();
    void removeSelectedEvidence();
    void loadFromDocument();
    void storeMemo(const playbook::Memo& memo, const QString& what, int mergeId);
    void fieldEdited(const playbook::MemoFieldRef& ref);
    void acceptDraft(const playbook::MemoFieldRef& ref);
    void ownersEdited();

    ProjectDocument* m_document;
    std::vector<FieldWidgets> m_fields; ///< Parallel to playbook::memoFields().
    std::vector<OwnerWidgets> m_owners;
    QComboBox* m_decision = nullptr;
    QLabel* m_decisionGate = nullptr; ///< Why the chosen decision is blocked (sign-offs).
    QListWidget* m_evidence = nullptr;
    QLabel* m_error = nullptr;
    bool m_loading = false;
};

} // namespace bs::widgets
