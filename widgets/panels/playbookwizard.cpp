#include "panels/playbookwizard.h"

#include "document/projectdocument.h"
#include "jobs/joboutcome.h"
#include "jobs/jobrunner.h"
#include "playbook/projectplaybook.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QSvgRenderer>
#include <QTableWidget>
#include <QVBoxLayout>

namespace bs::widgets {

namespace {

const QString kLane = QStringLiteral("playbook");

const char* const kStepTitles[5] = {
    QT_TRANSLATE_NOOP("PlaybookWizard", "1. Freeze seed, model and environment"),
    QT_TRANSLATE_NOOP("PlaybookWizard", "2. Locate the first persistent divergence"),
    QT_TRANSLATE_NOOP("PlaybookWizard", "3. Classify the mechanism"),
    QT_TRANSLATE_NOOP("PlaybookWizard", "4. One reproducer, one bounded fix"),
    QT_TRANSLATE_NOOP("PlaybookWizard", "5. Re-run the full matrix"),
};

QColor statusColour(playbook::StepStatus status)
{
    switch (status) {
    case playbook::StepStatus::Ok:
        return QColor(0x00, 0x9e, 0x73);
    case playbook::StepStatus::Warning:
        return QColor(0xe6, 0x9f, 0x00);
    case playbook::StepStatus::Blocker:
        return QColor(0xd5, 0x5e, 0x00);
    case playbook::StepStatus::NotStarted:
        break;
    }
    return QColor(0x99, 0x99, 0x99);
}

/// A figure drawn from its SVG at the widget's size, so it stays sharp at any zoom.
class SvgFigureWidget : public QWidget
{
public:
    SvgFigureWidget(const figure::Figure& figure, QWidget* parent)
        : QWidget(parent)
        , m_renderer(QByteArray::fromStdString(figure::renderFigureSvg(figure)), this)
    {
        setMinimumHeight(220);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
        setToolTip(QString::fromStdString(figure.caption));
    }
    int heightForWidth(int width) const override { return width * 3 / 5; }
    bool hasHeightForWidth() const override { return true; }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        painter.setRenderHint(QPainter::Antialiasing);
        m_renderer.render(&painter, QRectF(rect()));
    }

private:
    QSvgRenderer m_renderer;
};

QLabel* wrappedLabel(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QTableWidget* tableOf(const playbook::EvidenceTable& evidence, QWidget* parent)
{
    auto* table = new QTableWidget(int(evidence.rows.size()), int(evidence.columns.size()), parent);
    QStringList headers;
    for (const auto& column : evidence.columns)
        headers << QString::fromStdString(column);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int row = 0; row < int(evidence.rows.size()); ++row)
        for (int column = 0; column < int(evidence.rows[std::size_t(row)].size()); ++column)
            table->setItem(row, column,
                           new QTableWidgetItem(QString::fromStdString(
                               evidence.rows[std::size_t(row)][std::size_t(column)])));
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    // Tall enough for the rows, so the page scrolls instead of each table.
    const int height =
        table->horizontalHeader()->height() + 4 +
        table->verticalHeader()->defaultSectionSize() * std::min(int(evidence.rows.size()), 12);
    table->setMinimumHeight(height);
    table->setMaximumHeight(height + 4);
    return table;
}

} // namespace

PlaybookWizard::PlaybookWizard(ProjectDocument* document, JobRunner* jobs, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_jobs(jobs)
    , m_run(new QPushButton(tr("Run playbook"), this))
    , m_previous(new QPushButton(tr("◀ Previous"), this))
    , m_next(new QPushButton(tr("Next ▶"), this))
    , m_status(new QLabel(this))
    , m_steps(new QListWidget(this))
    , m_pages(new QStackedWidget(this))
{
    m_run->setObjectName(QStringLiteral("runPlaybook"));
    m_run->setToolTip(tr("Analyse the project's datasets and scenario through the five steps and "
                         "draft the memo (your edits are kept)"));
    m_status->setWordWrap(true);
    for (const char* title : kStepTitles)
        m_steps->addItem(tr(title));
    // Step titles wrap in a narrow dock instead of hiding their ends behind a scroll bar;
    // the list has room for two of them to take a second line.
    m_steps->setWordWrap(true);
    m_steps->setResizeMode(QListView::Adjust);
    m_steps->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_steps->setMaximumHeight(m_steps->sizeHintForRow(0) * 7 + 8);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addStretch(1);
    buttons->addWidget(m_previous);
    buttons->addWidget(m_next);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(m_steps);
    layout->addWidget(m_pages, 1);

    connect(m_run, &QPushButton::clicked, this, &PlaybookWizard::runPlaybook);
    connect(m_previous, &QPushButton::clicked, this, [this] { setCurrentStep(currentStep() - 1); });
    connect(m_next, &QPushButton::clicked, this, [this] { setCurrentStep(currentStep() + 1); });
    connect(m_steps, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && row < m_pages->count())
            m_pages->setCurrentIndex(row);
        updateButtons();
        Q_EMIT stepChanged(row);
    });
    connect(m_jobs, &JobRunner::jobEnded, this, [this](const QString& lane, bool) {
        if (lane == kLane)
            m_run->setEnabled(true);
    });
    connect(m_document, &ProjectDocument::projectReset, this, [this] {
        m_jobs->cancel(kLane);
        showResult(nullptr);
    });
    showResult(nullptr);
}

int PlaybookWizard::currentStep() const
{
    return std::max(0, m_steps->currentRow());
}

void PlaybookWizard::setCurrentStep(int step)
{
    m_steps->setCurrentRow(std::clamp(step, 0, 4));
}

void PlaybookWizard::updateButtons()
{
    m_previous->setEnabled(currentStep() > 0);
    m_next->setEnabled(currentStep() < 4);
}

QString PlaybookWizard::currentPageText() const
{
    QStringList texts;
    if (QWidget* page = m_pages->currentWidget())
        for (const QLabel* label : page->findChildren<QLabel*>())
            texts << label->text();
    return texts.join(QLatin1Char('\n'));
}

void PlaybookWizard::runPlaybook()
{
    const data::Project project = m_document->project();
    auto stored = playbook::readStoredPlaybook(project, m_document->filePath().toStdString());
    if (!stored) {
        m_status->setText(tr("The project's playbook or memo section cannot be read: %1")
                              .arg(QString::fromStdString(stored.error().toString())));
        return;
    }
    m_status->setText(tr("Running the playbook…"));
    m_run->setEnabled(false);
    m_jobs->run<JobOutcome<playbook::PlaybookResult>>(
        kLane, tr("Playbook"),
        [project, state = stored->state](JobRunner::Context& context) {
            return JobOutcome<playbook::PlaybookResult>::from(
                playbook::runPlaybook(project, state, {}, context.progress, context.cancel));
        },
        [this](JobOutcome<playbook::PlaybookResult> outcome) {
            if (!outcome.value) {
                m_status->setText(tr("The playbook failed: %1").arg(outcome.error));
                return;
            }
            offerMemoDrafts(*outcome.value);
            showResult(outcome.value);
            Q_EMIT playbookFinished();
        });
}

void PlaybookWizard::offerMemoDrafts(const playbook::PlaybookResult& result)
{
    auto stored = playbook::readStoredPlaybook(m_document->project());
    if (!stored)
        return;
    playbook::Memo memo = stored->memo;
    playbook::fillMemoDrafts(memo, result);
    const nlohmann::json json = playbook::toJson(memo);
    if (json != m_document->project().memo)
        m_document->setSection(ProjectSection::Memo, json, tr("Playbook drafts for the memo"));
}

void PlaybookWizard::showResult(std::shared_ptr<const playbook::PlaybookResult> result)
{
    m_result = std::move(result);
    const int step = currentStep();
    while (m_pages->count() > 0) {
        QWidget* page = m_pages->widget(0);
        m_pages->removeWidget(page);
        page->deleteLater();
    }
    for (int i = 0; i < 5; ++i) {
        playbook::StepResult empty;
        empty.number = i + 1;
        empty.summary = tr("Not run yet: press Run playbook.").toStdString();
        const auto& stepResult = m_result ? m_result->steps[std::size_t(i)] : empty;
        m_pages->addWidget(buildStepPage(i, stepResult));
        QListWidgetItem* item = m_steps->item(i);
        item->setText(tr(kStepTitles[i]) + QStringLiteral(" — ") +
                      QString::fromUtf8(playbook::stepStatusLabel(stepResult.status)));
        item->setForeground(statusColour(stepResult.status));
    }
    if (m_result) {
        int blockers = 0, warnings = 0;
        for (const auto& one : m_result->steps) {
            blockers += one.status == playbook::StepStatus::Blocker;
            warnings += one.status == playbook::StepStatus::Warning;
        }
        m_status->setText(tr("Playbook run: %1 blocker(s), %2 warning(s), %3 pitfall warning(s). "
                             "Memo drafts offered.")
                              .arg(blockers)
                              .arg(warnings)
                              .arg(m_result->pitfalls.size()));
    } else {
        m_status->setText(tr("Freeze, locate, classify, fix, re-run: press Run playbook to analyse "
                             "the project."));
    }
    setCurrentStep(step);
    m_pages->setCurrentIndex(currentStep());
    updateButtons();
}

QWidget* PlaybookWizard::buildStepPage(int step, const playbook::StepResult& result)
{
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    auto* summary = wrappedLabel(
        QStringLiteral("<b>%1</b>").arg(QString::fromStdString(result.summary).toHtmlEscaped()),
        content);
    layout->addWidget(summary);
    for (const auto& number : result.numbers)
        layout->addWidget(wrappedLabel(
            QStringLiteral("%1: %2").arg(QString::fromStdString(number.label),
                                         QString::fromStdString(playbook::formatKeyNumber(number))),
            content));
    for (const auto& warning : result.warnings)
        layout->addWidget(
            wrappedLabel(QStringLiteral("⚠ ") + QString::fromStdString(warning), content));
    if (m_result)
        for (const auto& pitfall : m_result->pitfalls)
            // Shown once: a step may already carry the pitfall among its own warnings.
            if (std::find(pitfall.steps.begin(), pitfall.steps.end(), step + 1) !=
                    pitfall.steps.end() &&
                std::none_of(result.warnings.begin(), result.warnings.end(),
                             [&pitfall](const std::string& warning) {
                                 return warning.find(pitfall.text) != std::string::npos;
                             }))
                layout->addWidget(wrappedLabel(
                    tr("⚠ Pitfall: %1").arg(QString::fromStdString(pitfall.text)), content));
    if (step == 0 && m_result)
        addFreezeControls(layout);
    for (const auto& table : result.tables) {
        layout->addWidget(wrappedLabel(
            QStringLiteral("<b>%1</b>").arg(QString::fromStdString(table.title).toHtmlEscaped()),
            content));
        layout->addWidget(tableOf(table, content));
        if (!table.note.empty())
            layout->addWidget(wrappedLabel(QString::fromStdString(table.note), content));
    }
    for (const auto& figure : result.figures)
        layout->addWidget(new SvgFigureWidget(figure, content));
    if (!result.missingEvidence.empty()) {
        QString missing = tr("<b>Missing evidence</b><ul>");
        for (const auto& item : result.missingEvidence)
            missing +=
                QStringLiteral("<li>%1</li>").arg(QString::fromStdString(item).toHtmlEscaped());
        layout->addWidget(wrappedLabel(missing + QStringLiteral("</ul>"), content));
    }
    layout->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setWidget(content);
    return scroll;
}

void PlaybookWizard::addFreezeControls(QVBoxLayout* layout)
{
    for (const auto& item : m_result->freeze.items) {
        if (!item.needsAcceptance())
            continue;
        auto* row = new QHBoxLayout;
        const QString what =
            item.notRecorded
                ? tr("%1 is not recorded on either side").arg(QString::fromStdString(item.key))
                : tr("%1 differs (%2 vs %3)")
                      .arg(QString::fromStdString(item.key), QString::fromStdString(item.baseline),
                           QString::fromStdString(item.candidate));
        const QString text =
            item.accepted ? tr("%1 — accepted: %2").arg(what, QString::fromStdString(item.reason))
                          : tr("%1 — blocker").arg(what);
        row->addWidget(wrappedLabel(text, layout->parentWidget()), 1);
        if (!item.accepted) {
            auto* accept = new QPushButton(tr("Accept…"), layout->parentWidget());
            accept->setObjectName(QStringLiteral("accept_") + QString::fromStdString(item.key));
            const std::string key = item.key;
            connect(accept, &QPushButton::clicked, this, [this, key] { acceptDifference(key); });
            row->addWidget(accept);
        }
        layout->addLayout(row);
    }
}

void PlaybookWizard::acceptDifference(const std::string& key)
{
    bool ok = false;
    const QString reason = QInputDialog::getText(
        this, tr("Accept a difference"),
        tr("Why is the difference in %1 acceptable?").arg(QString::fromStdString(key)),
        QLineEdit::Normal, QString(), &ok);
    if (!ok || reason.trimmed().isEmpty())
        return;
    auto stored = playbook::readStoredPlaybook(m_document->project());
    if (!stored)
        return;
    stored->state.accept(key, reason.trimmed().toStdString());
    m_document->setSection(ProjectSection::Playbook, playbook::toJson(stored->state),
                           tr("Accept difference in %1").arg(QString::fromStdString(key)));
    runPlaybook();
}

} // namespace bs::widgets
