#pragma once

#include "playbook/playbook.h"

#include <QWidget>

#include <memory>

class QLabel;
class QListWidget;
class QPushButton;
class QStackedWidget;
class QVBoxLayout;

namespace bs::widgets {

class JobRunner;
class ProjectDocument;

/// The debug playbook as a guided wizard: the five steps (freeze, locate, classify, reproduce +
/// fix, re-run the matrix) in a list with their status; each page shows the step's summary,
/// key numbers with 95% intervals, evidence tables and charts, warnings and the missing evidence.
/// "Run playbook" analyses the project in the background (lane "playbook") and offers drafts
/// to every memo field in one undo step (fields the user edited keep their text). Step 1 lets
/// the user accept a difference with a reason (stored in the project's playbook section).
class PlaybookWizard : public QWidget
{
    Q_OBJECT
public:
    PlaybookWizard(ProjectDocument* document, JobRunner* jobs, QWidget* parent = nullptr);

    /// The latest result (null before the first run).
    std::shared_ptr<const playbook::PlaybookResult> result() const { return m_result; }
    int currentStep() const; ///< 0..4
    void setCurrentStep(int step);
    QPushButton* runButton() const { return m_run; }
    QPushButton* nextButton() const { return m_next; }
    QPushButton* previousButton() const { return m_previous; }
    /// The text of the current step's page (summary, numbers, warnings), for tests.
    QString currentPageText() const;

public Q_SLOTS:
    void runPlaybook();

Q_SIGNALS:
    /// A run finished and its steps are on screen.
    void playbookFinished();
    /// The user moved to another step (autosave listens).
    void stepChanged(int step);

private:
    void showResult(std::shared_ptr<const playbook::PlaybookResult> result);
    QWidget* buildStepPage(int step, const playbook::StepResult& result);
    void addFreezeControls(QVBoxLayout* layout);
    void acceptDifference(const std::string& key);
    void offerMemoDrafts(const playbook::PlaybookResult& result);
    void updateButtons();

    ProjectDocument* m_document;
    JobRunner* m_jobs;
    QPushButton* m_run;
    QPushButton* m_previous;
    QPushButton* m_next;
    QLabel* m_status;
    QListWidget* m_steps;
    QStackedWidget* m_pages;
    std::shared_ptr<const playbook::PlaybookResult> m_result;
};

} // namespace bs::widgets
