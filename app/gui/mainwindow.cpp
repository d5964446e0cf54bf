#include "mainwindow.h"

#include "abouttext.h"
#include "charts/chartfigure.h"
#include "charts/chartpanel.h"
#include "charts/chartview.h"
#include "charts/regionheatmappanel.h"
#include "charts/sweeprecommendation.h"
#include "document/autosave.h"
#include "document/projectdocument.h"
#include "filecontroller.h"
#include "import/importcontroller.h"
#include "io/projectfile.h"
#include "jobs/jobrunner.h"
#include "panels/datasetpanel.h"
#include "panels/fitdialog.h"
#include "panels/jobstatuswidget.h"
#include "panels/llmmodelpanel.h"
#include "panels/memoeditor.h"
#include "panels/messagebar.h"
#include "panels/modelpanel.h"
#include "panels/playbookwizard.h"
#include "panels/validationdialog.h"
#include "panels/viewscrollarea.h"
#include "playbook/memo.h"
#include "reportexporter.h"
#include "state/settings.h"
#include "views/llmregionpanel.h"
#include "views/llmserverview.h"
#include "views/regionview.h"
#include "views/simulationview.h"
#include "views/sweepview.h"
#include "views/traceview.h"
#include "workbench/workbenchcontroller.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace bs::gui {

MainWindow::MainWindow(widgets::Settings* settings, QWidget* parent)
    : QMainWindow(parent)
    , m_ownedSettings(settings ? nullptr : std::make_unique<widgets::Settings>())
    , m_settings(settings ? settings : m_ownedSettings.get())
    , m_document(new widgets::ProjectDocument(this))
    , m_jobs(new widgets::JobRunner(this))
    , m_messages(new widgets::MessageBar(this))
    , m_views(new QTabWidget(this))
    , m_sweepView(nullptr)
    , m_files(nullptr)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/batchscope.svg")));
    setAcceptDrops(true);
    m_files = new FileController(m_document, m_settings, m_messages, this);
    m_importer = new widgets::ImportController(m_document, m_jobs, m_messages, this);
    m_reportExporter = new ReportExporter(m_document, m_jobs, m_messages, this);
    createViews();
    createDocks();
    // The region view computes from the Model dock's scenario, so it comes after the docks.
    m_regionView = new widgets::RegionView(m_document, m_jobs, m_modelPanel, this);
    m_views->addTab(new widgets::ViewScrollArea(m_regionView), tr("Region"));
    connectRecommendation();
    createMenus();
    statusBar()->addPermanentWidget(new widgets::JobStatusWidget(m_jobs, this));
    statusBar()->showMessage(tr("Ready"), 3000);

    connect(m_document, &widgets::ProjectDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_document, &widgets::ProjectDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_document, &widgets::ProjectDocument::titleChanged, this, &MainWindow::updateTitle);
    connect(m_document, &widgets::ProjectDocument::projectReset, this, &MainWindow::updateTitle);
    m_workbench = new widgets::WorkbenchController(m_document, m_jobs, m_modelPanel, m_sweepView,
                                                   m_simulationView, this);
    // The trace charts show the same SLA and power cap as the model dock.
    connect(m_workbench, &widgets::WorkbenchController::resultsApplied, m_traceView, [this]() {
        m_traceView->setLimits(m_workbench->slaP99Ms(), m_workbench->powerCapW());
    });
    connect(m_files, &FileController::recentFilesChanged, this, &MainWindow::rebuildRecentMenu);
    // Any chart can become memo evidence from its toolbar.
    for (auto* panel : findChildren<widgets::ChartPanel*>())
        connect(panel, &widgets::ChartPanel::attachToMemoRequested, this,
                [this, panel] { attachChartToMemo(panel); });
    connect(m_regionView->heatmapPanel(), &widgets::RegionHeatmapPanel::attachToMemoRequested, this,
            [this] {
                auto* panel = m_regionView->heatmapPanel();
                attachHeatmapToMemo(panel, panel->figure());
            });
    connect(m_llmServerView->regionPanel()->heatmapPanel(),
            &widgets::LlmRegionHeatmapPanel::attachToMemoRequested, this, [this] {
                auto* panel = m_llmServerView->regionPanel()->heatmapPanel();
                attachHeatmapToMemo(panel, panel->figure());
            });
    resize(1400, 900);
    m_normalFont = QApplication::font();
    restoreLayout();
    if (m_settings->largeFontMode())
        setLargeFontMode(true);
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::showModelCheck(QDialog* dialog, const QList<widgets::ChartPanel*>& panels)
{
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // Its charts are evidence like any other: they can go into the memo.
    for (auto* panel : panels)
        connect(panel, &widgets::ChartPanel::attachToMemoRequested, this,
                [this, panel] { attachChartToMemo(panel); });
    dialog->open();
}

widgets::FitDialog* MainWindow::openFitDialog()
{
    auto* dialog =
        new widgets::FitDialog(m_document, m_jobs, m_datasetPanel->currentDatasetId(), this);
    showModelCheck(dialog, dialog->panels());
    return dialog;
}

widgets::ValidationDialog* MainWindow::openValidationDialog()
{
    auto* dialog =
        new widgets::ValidationDialog(m_document, m_jobs, m_datasetPanel->currentDatasetId(), this);
    showModelCheck(dialog, dialog->panels());
    return dialog;
}

void MainWindow::connectRecommendation()
{
    // The Sweep tab shows the Region tab's recommended point, and only while it answers for
    // the current scenario and limits: one recommendation in the product, not two.
    connect(m_regionView, &widgets::RegionView::resultShown, this, [this](bool complete) {
        const auto result = m_regionView->result();
        if (!complete || !result)
            return;
        const auto recommendation = widgets::sweepRecommendationOf(*result);
        m_sweepView->setRecommendation(
            recommendation, tr("The <a href=\"region\">Region tab</a> found no feasible operating "
                               "point for the current scenario and limits: nothing to recommend."));
    });
    connect(m_regionView, &widgets::RegionView::resultInvalidated, this, [this] {
        const bool hadOne = m_sweepView->recommendation().has_value();
        m_sweepView->setRecommendation(
            std::nullopt,
            hadOne ? tr("The scenario or limits changed since the recommended point was "
                        "computed: open the <a href=\"region\">Region tab</a> to recompute it.")
                   : tr("The recommended point is computed in the <a href=\"region\">Region "
                        "tab</a> for the Model dock's scenario and limits: open it to place the "
                        "point here."));
    });
    connect(m_sweepView, &widgets::SweepView::regionRequested, this, [this] {
        for (int i = 0; i < m_views->count(); ++i)
            if (m_views->widget(i)->isAncestorOf(m_regionView))
                m_views->setCurrentIndex(i);
    });
}

void MainWindow::createViews()
{
    // Every view scrolls when the window is smaller than it (laptop, projector fonts) rather
    // than pushing the window past the screen.
    m_sweepView = new widgets::SweepView(m_document, this);
    m_views->addTab(new widgets::ViewScrollArea(m_sweepView), tr("Sweep"));
    m_simulationView = new widgets::SimulationView(this);
    m_views->addTab(new widgets::ViewScrollArea(m_simulationView), tr("Simulation"));
    m_traceView = new widgets::TraceView(m_document, m_jobs, this);
    m_views->addTab(new widgets::ViewScrollArea(m_traceView), tr("Traces"));
    m_llmServerView = new widgets::LlmServerView(m_document, m_jobs, this);
    m_views->addTab(new widgets::ViewScrollArea(m_llmServerView), tr("LLM server"));
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_messages);
    layout->addWidget(m_views, 1);
    setCentralWidget(central);
}

QDockWidget* MainWindow::addDock(const QString& title, const QString& objectName, QWidget* content,
                                 Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(content);
    addDockWidget(area, dock);
    return dock;
}

void MainWindow::createDocks()
{
    m_datasetPanel = new widgets::DatasetPanel(m_document, this);
    addDock(tr("Datasets"), QStringLiteral("datasetsDock"), m_datasetPanel, Qt::LeftDockWidgetArea);
    connect(m_datasetPanel, &widgets::DatasetPanel::importRequested, this,
            [this]() { m_importer->importWithDialog(); });
    m_modelPanel = new widgets::ModelPanel(m_document, this);
    connect(m_modelPanel, &widgets::ModelPanel::fitRequested, this, &MainWindow::openFitDialog);
    m_llmModelPanel = new widgets::LlmModelPanel(m_document, m_jobs, this);
    auto* modelKnobs = new QStackedWidget(this);
    modelKnobs->setObjectName(QStringLiteral("modelKnobs"));
    modelKnobs->addWidget(m_modelPanel);
    modelKnobs->addWidget(m_llmModelPanel);
    QDockWidget* model =
        addDock(tr("Model"), QStringLiteral("modelDock"), modelKnobs, Qt::RightDockWidgetArea);
    connect(m_document, &widgets::ProjectDocument::projectReset, this,
            &MainWindow::showModelKnobsForProject);
    connect(m_document, &widgets::ProjectDocument::sectionChanged, this,
            [this](widgets::ProjectSection section) {
                if (section == widgets::ProjectSection::Llm ||
                    section == widgets::ProjectSection::Model ||
                    section == widgets::ProjectSection::Scenarios)
                    showModelKnobsForProject();
            });
    m_memoEditor = new widgets::MemoEditor(m_document, this);
    m_playbookWizard = new widgets::PlaybookWizard(m_document, m_jobs, this);
    auto* playbookTabs = new QTabWidget(this);
    playbookTabs->setObjectName(QStringLiteral("playbookTabs"));
    playbookTabs->addTab(m_playbookWizard, tr("Playbook"));
    playbookTabs->addTab(m_memoEditor, tr("Review memo"));
    // The memo drafts are the point of a run: show them when it finishes.
    connect(m_playbookWizard, &widgets::PlaybookWizard::playbookFinished, playbookTabs,
            [playbookTabs, this] { playbookTabs->setCurrentWidget(m_memoEditor); });
    // Every step change is a moment worth keeping (issue: no lost work).
    connect(m_playbookWizard, &widgets::PlaybookWizard::stepChanged, this, [this] {
        if (m_autosave)
            m_autosave->saveNow();
    });
    QDockWidget* playbook = addDock(tr("Playbook and memo"), QStringLiteral("playbookDock"),
                                    playbookTabs, Qt::RightDockWidgetArea);
    // Model and playbook share the right side as tabs so the charts keep most of the width.
    tabifyDockWidget(model, playbook);
    model->raise();
    resizeDocks({findChild<QDockWidget*>(QStringLiteral("datasetsDock")), model}, {340, 400},
                Qt::Horizontal);
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("fileMenu"));
    file->addAction(tr("&New"), QKeySequence::New, m_files, &FileController::newProject);
    file->addAction(tr("&Open…"), QKeySequence::Open, m_files, &FileController::openWithDialog);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("&Save"), QKeySequence::Save, m_files, [this]() { m_files->save(); });
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, m_files,
                    [this]() { m_files->saveAs(); });
    file->addSeparator();
    file->addAction(tr("Open &Demo"), this, [this]() {
        if (m_files->maybeSave())
            m_files->openDemo();
    });
    file->addAction(tr("Open &LLM Demo"), this, [this]() {
        if (m_files->maybeSave())
            openLlmDemo();
    });
    file->addSeparator();
    file->addAction(tr("&Import…"), QKeySequence(tr("Ctrl+I")), this,
                    [this]() { m_importer->importWithDialog(); });
    file->addAction(tr("&Export Chart…"), QKeySequence(tr("Ctrl+E")), this,
                    &MainWindow::exportCurrentChart);
    file->addAction(tr("Export &Report…"), QKeySequence(tr("Ctrl+Shift+E")), m_reportExporter,
                    &ReportExporter::exportWithDialog);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    rebuildRecentMenu();

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->setObjectName(QStringLiteral("editMenu"));
    QAction* undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewMenu->setObjectName(QStringLiteral("viewMenu"));
    const auto docks = findChildren<QDockWidget*>();
    for (QDockWidget* dock : docks)
        m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addSeparator();
    m_largeFontAction = m_viewMenu->addAction(tr("&Projector Mode (Large Fonts)"));
    m_largeFontAction->setCheckable(true);
    m_largeFontAction->setShortcut(QKeySequence(tr("Ctrl+Shift+L")));
    connect(m_largeFontAction, &QAction::toggled, this, &MainWindow::setLargeFontMode);

    // Checks of the model against measurements: what a prediction can be trusted for.
    QMenu* model = menuBar()->addMenu(tr("&Model"));
    model->setObjectName(QStringLiteral("modelMenu"));
    model->addAction(tr("&Fit to a Sweep…"), this, &MainWindow::openFitDialog);
    model->addAction(tr("&Predict a perf_analyzer Sweep and Compare…"), this,
                     &MainWindow::openValidationDialog);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    help->addAction(tr("&About BatchScope"), this,
                    [this]() { QMessageBox::about(this, tr("About BatchScope"), aboutText()); });
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = m_files->recentFiles();
    for (const QString& path : recent) {
        m_recentMenu
            ->addAction(QFileInfo(path).fileName(), this,
                        [this, path]() {
                            if (m_files->maybeSave())
                                m_files->openProject(path);
                        })
            ->setToolTip(path);
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::exportCurrentChart()
{
    // Export the chart under focus, else the first chart of the current view.
    auto* focused = qobject_cast<widgets::ChartPanel*>(QApplication::focusWidget());
    for (QWidget* w = QApplication::focusWidget(); w && !focused; w = w->parentWidget())
        focused = qobject_cast<widgets::ChartPanel*>(w);
    if (!focused) {
        const auto panels = m_views->currentWidget()->findChildren<widgets::ChartPanel*>();
        if (!panels.isEmpty())
            focused = panels.front();
    }
    if (focused)
        focused->exportWithDialog();
}

void MainWindow::updateTitle()
{
    setWindowTitle(m_document->displayName() + QStringLiteral("[*] — BatchScope"));
    setWindowModified(m_document->isModified());
}

void MainWindow::showModelKnobsForProject()
{
    auto* knobs = findChild<QStackedWidget*>(QStringLiteral("modelKnobs"));
    if (!knobs)
        return;
    const bool llm = !m_document->project().llm.empty();
    knobs->setCurrentWidget(llm ? static_cast<QWidget*>(m_llmModelPanel) : m_modelPanel);
    const bool batching = !m_document->project().studiesOnlyAnLlmServer();
    for (int i = 0; i < m_views->count(); ++i) {
        QWidget* page = m_views->widget(i);
        if (page->isAncestorOf(m_sweepView) || page->isAncestorOf(m_simulationView) ||
            page->isAncestorOf(m_regionView))
            m_views->setTabVisible(i, batching);
    }
}

void MainWindow::openLlmDemo()
{
    if (!m_files->openLlmDemo())
        return;
    for (int i = 0; i < m_views->count(); ++i)
        if (m_views->widget(i)->isAncestorOf(m_llmServerView))
            m_views->setCurrentIndex(i);
}

void MainWindow::openInitial(const QString& path)
{
    if (path.isEmpty() || !m_files->openProject(path)) {
        const QString error = m_messages->isVisible() ? m_messages->text() : QString();
        m_files->openDemo();
        if (!error.isEmpty())
            m_messages->showError(error + tr(" The demo project is shown instead."));
    }
}

void MainWindow::attachChartToMemo(widgets::ChartPanel* panel)
{
    attachFigureToMemo(panel, panel->content().title, widgets::figureOf(panel->content()));
}

void MainWindow::attachHeatmapToMemo(QWidget* panel, std::optional<figure::Figure> figure)
{
    if (!figure) {
        m_messages->showMessage(widgets::MessageBar::Kind::Information,
                                tr("There is no region heatmap to attach yet: compute the region "
                                   "first."));
        return;
    }
    const QString title = QString::fromStdString(figure->title);
    attachFigureToMemo(panel, title, std::move(*figure));
}

void MainWindow::attachFigureToMemo(QWidget* source, const QString& title, figure::Figure figure)
{
    auto memo =
        playbook::memoFromJson(m_document->project().memo, m_document->filePath().toStdString());
    if (!memo) {
        m_messages->showError(
            tr("The memo cannot be read: %1").arg(QString::fromStdString(memo.error().toString())));
        return;
    }
    // Where it came from: the view's tab and the chart's title.
    QString view;
    for (int i = 0; i < m_views->count(); ++i)
        if (m_views->widget(i)->isAncestorOf(source))
            view = m_views->tabText(i).remove(QLatin1Char('&'));
    playbook::MemoEvidence evidence;
    evidence.title = title.toStdString();
    evidence.source = tr("%1 view of %2")
                          .arg(view, m_document->project().title.empty()
                                         ? tr("the project")
                                         : QString::fromStdString(m_document->project().title))
                          .toStdString();
    evidence.figure = std::move(figure);
    memo->evidence.push_back(std::move(evidence));
    m_document->setSection(widgets::ProjectSection::Memo, playbook::toJson(*memo),
                           tr("Attach \"%1\" to the memo").arg(title));
    m_messages->showMessage(widgets::MessageBar::Kind::Information,
                            tr("\"%1\" attached to the memo as evidence (%2 chart(s) attached).")
                                .arg(title)
                                .arg(memo->evidence.size()));
}

void MainWindow::settleForScreenshot()
{
    // Debounced jobs (the region view waits 300 ms after it is shown) start, finish and draw.
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 500)
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    m_jobs->waitForIdle(120000);
    QApplication::processEvents();
}

QStringList MainWindow::saveScreenshots(const QString& folder)
{
    QStringList written;
    QDir().mkpath(folder);
    auto save = [&](const QString& name) {
        const QString path = folder + QStringLiteral("/") + name + QStringLiteral(".png");
        if (grab().save(path))
            written << path;
    };
    // Screenshots show finished results, not a half-drawn page.
    settleForScreenshot();
    for (int i = 0; i < m_views->count(); ++i) {
        if (!m_views->isTabVisible(i))
            continue;
        m_views->setCurrentIndex(i);
        settleForScreenshot();
        QString name = m_views->tabText(i).toLower().remove(QLatin1Char('&'));
        name.replace(QLatin1Char(' '), QLatin1Char('-'));
        save(QStringLiteral("main-") + name);
    }
    // The Traces view's LLM serving page, when the project holds an LLM serving benchmark.
    for (int i = 0; i < m_views->count(); ++i)
        if (m_views->widget(i)->isAncestorOf(m_traceView) && m_traceView->showLlmPage()) {
            m_views->setCurrentIndex(i);
            settleForScreenshot();
            save(QStringLiteral("main-traces-llm-serving"));
        }
    // The Sweep tab again: it now carries the recommended point the Region tab computed.
    if (m_views->isTabVisible(0)) {
        m_views->setCurrentIndex(0);
        settleForScreenshot();
        save(QStringLiteral("main-sweep"));
    }
    // The playbook after a run (step 3, the mechanism), then the memo it drafted.
    for (int i = 0; i < m_views->count(); ++i)
        if (m_views->isTabVisible(i)) {
            m_views->setCurrentIndex(i);
            break;
        }
    auto* tabs = findChild<QTabWidget*>(QStringLiteral("playbookTabs"));
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("playbookDock")); dock && tabs) {
        dock->raise();
        tabs->setCurrentWidget(m_playbookWizard);
        m_playbookWizard->runPlaybook();
        settleForScreenshot();
        tabs->setCurrentWidget(m_playbookWizard);
        m_playbookWizard->setCurrentStep(2);
        settleForScreenshot();
        save(QStringLiteral("main-playbook"));
        tabs->setCurrentWidget(m_memoEditor);
        settleForScreenshot();
        save(QStringLiteral("main-memo"));
        if (auto* model = findChild<QDockWidget*>(QStringLiteral("modelDock")))
            model->raise();
    }
    return written;
}

void MainWindow::enableAutosave(const QString& dir, int intervalMs)
{
    delete m_autosave;
    m_recoveryDir = dir;
    m_autosave = new widgets::Autosave(m_document, dir, intervalMs, this);
    connect(m_autosave, &widgets::Autosave::saveFailed, this, [this](const QString& message) {
        m_messages->showMessage(widgets::MessageBar::Kind::Warning,
                                tr("The recovery copy could not be written: %1").arg(message));
    });
}

bool MainWindow::offerRecovery(bool ask)
{
    if (m_recoveryDir.isEmpty())
        return false;
    const auto found = widgets::Autosave::findRecoverable(m_recoveryDir);
    if (found.isEmpty())
        return false;
    const widgets::Autosave::Recoverable& newest = found.front();
    if (ask) {
        const auto answer = QMessageBox::question(
            this, tr("Recover unsaved work?"),
            tr("BatchScope did not close normally. A recovery copy of “%1” from %2 holds changes "
               "that were not saved. Recover it?")
                .arg(newest.title,
                     QLocale().toString(newest.savedAt.toLocalTime(), QLocale::ShortFormat)),
            QMessageBox::Yes | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Yes);
        if (answer == QMessageBox::Cancel)
            return false; // keep it for the next start
        if (answer == QMessageBox::Discard) {
            for (const auto& r : found)
                widgets::Autosave::remove(r);
            return false;
        }
    }
    auto project = io::loadProject(newest.recoveryPath.toStdString());
    if (!project) {
        m_messages->showError(tr("The recovery copy could not be read: %1")
                                  .arg(QString::fromStdString(project.error().toString())));
        return false;
    }
    m_document->reset(std::move(*project), newest.originalPath, true);
    for (const auto& r : found)
        widgets::Autosave::remove(r);
    m_messages->showMessage(
        widgets::MessageBar::Kind::Information,
        tr("Recovered unsaved work from %1. Save it to keep it.")
            .arg(QLocale().toString(newest.savedAt.toLocalTime(), QLocale::ShortFormat)));
    if (m_autosave)
        m_autosave->saveNow(true);
    return true;
}

void MainWindow::setLargeFontMode(bool on)
{
    if (m_largeFontAction->isChecked() != on) {
        m_largeFontAction->setChecked(on); // re-enters through toggled()
        return;
    }
    m_settings->setLargeFontMode(on);
    widgets::ChartView::setLargeFontMode(on);
    QFont font = m_normalFont;
    if (on)
        font.setPointSizeF(m_normalFont.pointSizeF() * 1.4);
    QApplication::setFont(font);
    // Charts take their fonts from the application font when restyled.
    const auto views = findChildren<widgets::ChartView*>();
    for (widgets::ChartView* view : views)
        widgets::ChartView::styleChart(view->chart(), view->palette());
}

void MainWindow::restoreLayout()
{
    restoreGeometry(m_settings->windowGeometry());
    m_layoutRestored =
        restoreState(m_settings->windowState(), widgets::Settings::kWindowStateVersion);
}

void MainWindow::fitDocksToWidth()
{
    auto* datasets = findChild<QDockWidget*>(QStringLiteral("datasetsDock"));
    auto* model = findChild<QDockWidget*>(QStringLiteral("modelDock"));
    if (!datasets || !model)
        return;
    const int width = this->width();
    const int modelWidth = std::clamp(width * 25 / 100, 300, 400);
    // A laptop screen cannot hold two side panels and a readable chart grid: the datasets join
    // the model and playbook tabs on the right (as IDEs fold their side bars on small screens),
    // so the views keep some 950 px at 1366 and no chart or table has to cut its text. The user
    // can drag the dock back out; the layout is then remembered.
    if (width < kTwoSidePanelsMinWidthPx) {
        tabifyDockWidget(model, datasets);
        model->raise();
        resizeDocks({model}, {modelWidth}, Qt::Horizontal);
        return;
    }
    const int datasetsWidth = std::clamp(width * 18 / 100, 230, 340);
    resizeDocks({datasets, model}, {datasetsWidth, modelWidth}, Qt::Horizontal);
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (!m_docksFitted && !m_layoutRestored)
        fitDocksToWidth();
    m_docksFitted = true;
}

void MainWindow::saveLayout()
{
    m_settings->setWindowGeometry(saveGeometry());
    m_settings->setWindowState(saveState(widgets::Settings::kWindowStateVersion));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!m_files->maybeSave()) {
        event->ignore();
        return;
    }
    m_jobs->cancelAll();
    saveLayout();
    if (m_autosave)
        m_autosave->discard();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    // A project opens; anything else is imported (the Import dialog shows what was detected).
    QStringList measurements;
    const auto urls = event->mimeData()->urls();
    for (const QUrl& url : urls) {
        const QString path = url.toLocalFile();
        if (path.isEmpty())
            continue;
        if (path.endsWith(QLatin1String(".bsproj"), Qt::CaseInsensitive)) {
            if (m_files->maybeSave())
                m_files->openProject(path);
            event->acceptProposedAction();
            return;
        }
        measurements << path;
    }
    event->acceptProposedAction();
    if (!measurements.isEmpty())
        m_importer->importWithDialog(measurements);
}

} // namespace bs::gui
