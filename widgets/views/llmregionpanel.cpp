#include "views/llmregionpanel.h"

#include "charts/chartpanel.h"
#include "charts/llmregioncelltext.h"
#include "charts/llmregionheatmap.h"
#include "jobs/joboutcome.h"
#include "jobs/jobrunner.h"
#include "panels/flowlayout.h"
#include "panels/heightforwidth.h"
#include "panels/messagebar.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <cmath>

namespace bs::widgets {

using analysis::LlmAxis;

namespace {

const QString kLane = QStringLiteral("llmregion");

/// The axes besides max_num_seqs and max_num_batched_tokens, each with a picker.
constexpr LlmAxis kSliceAxes[] = {LlmAxis::Load, LlmAxis::Replicas, LlmAxis::TensorParallel,
                                  LlmAxis::PowerCapW, LlmAxis::GpuMemoryUtilization};

/// The values of a slice axis as the picker lists them.
QStringList axisValueTexts(const analysis::LlmRegionSpec& spec, LlmAxis axis)
{
    QStringList texts;
    const auto add = [&texts](const auto& values, const QString& unit) {
        for (const auto value : values)
            texts << llmNumber(double(value), 6) + unit;
    };
    switch (axis) {
    case LlmAxis::Load:
        if (spec.rateMultipliers.empty())
            add(spec.ratesPerS, QObject::tr(" req/s"));
        else
            add(spec.rateMultipliers, QStringLiteral(" ×"));
        break;
    case LlmAxis::Replicas:
        add(spec.replicas, QString());
        break;
    case LlmAxis::TensorParallel:
        add(spec.tensorParallel, QString());
        break;
    case LlmAxis::PowerCapW:
        add(spec.powerCapsW, QStringLiteral(" W"));
        break;
    case LlmAxis::GpuMemoryUtilization:
        add(spec.gpuMemoryUtilizations, QString());
        break;
    default:
        break;
    }
    return texts;
}

QString pickerCaption(LlmAxis axis)
{
    switch (axis) {
    case LlmAxis::Load:
        return QObject::tr("Load:");
    case LlmAxis::Replicas:
        return QObject::tr("Replicas:");
    case LlmAxis::TensorParallel:
        return QObject::tr("Tensor parallel:");
    case LlmAxis::PowerCapW:
        return QObject::tr("Power cap:");
    case LlmAxis::GpuMemoryUtilization:
        return QObject::tr("GPU memory utilization:");
    default:
        return {};
    }
}

/// The binding limit's check of a cell, if it has one.
const analysis::LlmCheck* bindingCheck(const analysis::LlmRegionCell& cell)
{
    for (const auto& check : cell.checks)
        if (check.kind == cell.binding)
            return &check;
    return nullptr;
}

std::optional<std::size_t> recommendedIndex(const analysis::LlmRegionResult* result)
{
    if (result && result->recommendation)
        return result->recommendation->cell;
    return std::nullopt;
}

/// "Load headroom: ×1.83 (7.3 req/s) meets every limit; ×1.86 fails on TTFT p99; 6
/// simulations."
QString llmLoadHeadroomText(const analysis::LlmRegionResult& result,
                            const analysis::LlmRegionCell& cell, const analysis::LlmLoadHeadroom& h)
{
    const QLocale locale;
    QString text = QObject::tr("Load headroom: ×%1").arg(locale.toString(h.multiplier, 'g', 3));
    const double rate = analysis::llmOfferedRatePerS(result.spec, cell.index, h.multiplier);
    if (std::isfinite(rate))
        text += QObject::tr(" (%1 req/s)").arg(locale.toString(rate, 'g', 3));
    text += QObject::tr(" meets every limit");
    if (std::isfinite(h.failingMultiplier) && h.failingUndecided)
        text +=
            QObject::tr("; ×%1 is not confidently met (the 95% interval of %2 holds its "
                        "limit)")
                .arg(locale.toString(h.failingMultiplier, 'g', 3), llmConstraintTitle(h.binding));
    else if (std::isfinite(h.failingMultiplier))
        text +=
            QObject::tr("; ×%1 fails on %2")
                .arg(locale.toString(h.failingMultiplier, 'g', 3), llmConstraintTitle(h.binding));
    if (std::isfinite(h.failingMultiplier) && !h.converged)
        text += QObject::tr(" (the search stopped before the bracket closed to 2%)");
    if (!h.note.empty())
        text += QObject::tr(" (%1)").arg(QString::fromStdString(h.note));
    return text + (h.simulations == 1 ? QObject::tr("; 1 simulation.")
                                      : QObject::tr("; %1 simulations.").arg(h.simulations));
}

} // namespace

QString llmRecommendationText(const analysis::LlmRegionResult& result)
{
    const auto* cell = result.recommended();
    if (!cell) {
        QString why = QObject::tr("<b>No recommendation:</b> no cell is confidently feasible");
        if (result.notConfident > 0)
            why += QObject::tr(" (%1 not confident: more replications in the scenario would "
                               "decide them)")
                       .arg(result.notConfident);
        else if (result.feasible == 0)
            why += QObject::tr(" (every cell misses a limit or is refused)");
        return why + QLatin1Char('.');
    }
    const auto& m = cell->metrics;
    QString text =
        QObject::tr("<b>Recommended:</b> %1 → %2 output tokens/s, TTFT p99 %3, TPOT p99 %4 "
                    "(95% intervals in brackets).")
            .arg(llmKnobsText(result.spec, cell->knobs).toHtmlEscaped(),
                 llmEstimateText(m.outputTokensPerS, {}).toHtmlEscaped(),
                 llmEstimateText(m.ttftP99Ms, QStringLiteral("ms")).toHtmlEscaped(),
                 llmEstimateText(m.tpotP99Ms, QStringLiteral("ms")).toHtmlEscaped());
    if (const auto* check = bindingCheck(*cell))
        text += QObject::tr(" Binding limit: %1, headroom %2% (margin to the limit).")
                    .arg(llmConstraintTitle(check->kind).toHtmlEscaped(),
                         QLocale().toString(check->margin * 100.0, 'f', 1));
    if (const auto& h = result.recommendation->loadHeadroom)
        text += QLatin1Char(' ') + llmLoadHeadroomText(result, *cell, *h).toHtmlEscaped();
    text += QObject::tr(" Evidence: %1; %2.")
                .arg(QString::fromStdString(analysis::llmCellEvidence(result.spec, *cell))
                         .toHtmlEscaped(),
                     QString::fromStdString(result.recommendation->reason).toHtmlEscaped());
    return text;
}

QString llmCountsText(const analysis::LlmRegionResult& result)
{
    const std::size_t pending = std::size_t(std::count_if(
        result.cells.begin(), result.cells.end(), [](const auto& cell) { return cell.pending; }));
    QString text = QObject::tr("%1 cells: %2 feasible, %3 infeasible, %4 refused; %5 not confident")
                       .arg(result.cells.size())
                       .arg(result.feasible)
                       .arg(result.infeasible)
                       .arg(result.refused)
                       .arg(result.notConfident);
    if (pending > 0)
        text += QObject::tr("; %1 pending").arg(pending);
    return text;
}

LlmRegionPanel::LlmRegionPanel(JobRunner* jobs, QWidget* parent)
    : QWidget(parent)
    , m_jobs(jobs)
    , m_message(new MessageBar(this))
    , m_status(new QLabel(this))
    , m_computeButton(new QPushButton(tr("Compute"), this))
    , m_cancelButton(new QPushButton(tr("Cancel"), this))
    , m_recommendation(new QLabel(this))
    , m_counts(new QLabel(this))
    , m_heatmapPanel(new LlmRegionHeatmapPanel(this))
    , m_capacity(new ChartPanel(this))
    , m_tokensTtft(new ChartPanel(this))
{
    for (QLabel* label : {m_status, m_recommendation, m_counts}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_recommendation->setTextFormat(Qt::RichText);
    m_cancelButton->setEnabled(false);
    m_computeButton->setToolTip(tr("Judge every cell of the grid against the limits"));
    m_cancelButton->setToolTip(tr("Stop the computation (what is shown stays a preview)"));

    auto* actions = new QHBoxLayout;
    actions->addWidget(m_status, 1);
    actions->addWidget(m_computeButton);
    actions->addWidget(m_cancelButton);

    // The page scrolls; each chart keeps room for its plot, axis titles and legend.
    constexpr int kChartMinHeightPx = 380;
    for (ChartPanel* panel : {m_capacity, m_tokensTtft})
        panel->setMinimumHeight(kChartMinHeightPx);
    auto* charts = new QGridLayout;
    charts->addWidget(m_heatmapPanel, 0, 0, 1, 2);
    charts->addWidget(m_capacity, 1, 0);
    charts->addWidget(m_tokensTtft, 1, 1);
    charts->setRowStretch(0, 1);
    charts->setRowStretch(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_message);
    layout->addLayout(actions);
    layout->addWidget(m_recommendation);
    layout->addWidget(m_counts);
    layout->addWidget(buildSlicePickers());
    layout->addLayout(charts, 1);

    connect(m_computeButton, &QPushButton::clicked, this, &LlmRegionPanel::compute);
    connect(m_heatmapPanel->heatmap(), &LlmRegionHeatmap::cellActivated, this,
            &LlmRegionPanel::cellActivated);
    connect(m_cancelButton, &QPushButton::clicked, this, &LlmRegionPanel::cancel);
    showNothing(tr("No LLM region computed yet: choose a scenario and its grid."), false);
    m_message->clearMessage();
}

LlmRegionPanel::~LlmRegionPanel()
{
    if (m_jobs)
        m_jobs->cancel(kLane);
}

bool LlmRegionPanel::event(QEvent* event)
{
    const bool handled = QWidget::event(event);
    // The recommendation wraps onto more lines at projector fonts.
    keepHeightForWidth(this, event);
    return handled;
}

QWidget* LlmRegionPanel::buildSlicePickers()
{
    auto* row = new QWidget(this);
    auto* flow = new FlowLayout(row);
    flow->setContentsMargins(0, 0, 0, 0);
    for (const LlmAxis axis : kSliceAxes) {
        auto* pair = new QWidget(row);
        auto* pairLayout = new QHBoxLayout(pair);
        pairLayout->setContentsMargins(0, 0, 0, 0);
        auto* caption = new QLabel(pickerCaption(axis), pair);
        auto* picker = new QComboBox(pair);
        caption->setBuddy(picker);
        pairLayout->addWidget(caption);
        pairLayout->addWidget(picker);
        pair->setToolTip(tr("The heatmap and the capacity curves are drawn at this value"));
        pair->hide();
        flow->addWidget(pair);
        m_pickers[std::size_t(axis)] = picker;
        m_pickerRows[std::size_t(axis)] = pair;
        connect(picker, &QComboBox::currentIndexChanged, this, [this] {
            m_sliceChosen = true;
            redraw();
        });
    }
    return row;
}

QComboBox* LlmRegionPanel::slicePicker(LlmAxis axis) const
{
    return m_pickers[std::size_t(axis)];
}

LlmRegionSlice LlmRegionPanel::slice() const
{
    LlmRegionSlice at{};
    for (const LlmAxis axis : kSliceAxes)
        at[std::size_t(axis)] =
            std::size_t(std::max(0, m_pickers[std::size_t(axis)]->currentIndex()));
    return at;
}

void LlmRegionPanel::setSpec(const analysis::LlmRegionSpec& spec, const QString& baseDirectory)
{
    const bool same =
        m_spec && analysis::sameLlmRegion(*m_spec, spec) && m_baseDirectory == baseDirectory;
    m_spec = spec;
    m_baseDirectory = baseDirectory;
    if (same)
        return;
    // A running computation answers for the old spec: its preview and result are dropped.
    cancel();
    ++m_generation;
    if (auto status = analysis::validate(spec); !status) {
        showNothing(tr("The LLM region cannot be computed: %1")
                        .arg(QString::fromStdString(status.error().toString())),
                    true);
        return;
    }
    const bool answers = m_shown && analysis::sameLlmRegion(m_shown->spec, spec) &&
                         m_shown->baseDirectory == baseDirectory.toStdString();
    if (m_shown && !answers) {
        showNothing(tr("The region shown was computed for other settings and is withdrawn: "
                       "Recompute to judge the new grid and limits."),
                    false);
        m_computeButton->setText(tr("Recompute"));
    }
}

void LlmRegionPanel::cancel()
{
    if (m_jobs && m_jobs->isRunning(kLane)) {
        m_jobs->cancel(kLane);
        ++m_generation; // a preview already on its way is dropped too
        m_status->setText(m_shown && !m_result ? tr("Cancelled: the coarse pass shown is a "
                                                    "preview, its pending cells not judged.")
                                               : tr("Cancelled."));
    }
    m_cancelButton->setEnabled(false);
}

void LlmRegionPanel::compute()
{
    if (!m_spec) {
        showNothing(tr("No LLM scenario to judge yet."), true);
        return;
    }
    if (auto status = analysis::validate(*m_spec); !status) {
        showNothing(tr("The LLM region cannot be computed: %1")
                        .arg(QString::fromStdString(status.error().toString())),
                    true);
        return;
    }
    if (!m_jobs)
        return;
    const quint64 generation = ++m_generation;
    // The preview arrives on the computing thread; it is drawn on the GUI thread unless a newer
    // computation has started or the panel is gone by then.
    QPointer<LlmRegionPanel> guard(this);
    analysis::LlmRegionOptions options;
    options.baseDirectory = m_baseDirectory.toStdString();
    options.preview = [guard, generation](const analysis::LlmRegionResult& preview) {
        // The coarse pass's best cell is no recommendation to act on: it is not drawn as one.
        auto shown = std::make_shared<analysis::LlmRegionResult>(preview);
        shown->recommendation.reset();
        std::shared_ptr<const analysis::LlmRegionResult> copy = std::move(shown);
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [guard, generation, copy] {
                LlmRegionPanel* panel = guard.data();
                if (panel && panel->m_generation == generation)
                    panel->display(copy, false);
            },
            Qt::QueuedConnection);
    };
    m_message->clearMessage();
    m_status->setText(
        tr("Computing the coarse pass of %1 cells…").arg(analysis::llmCellCount(*m_spec)));
    m_computeButton->setText(tr("Recompute"));
    m_cancelButton->setEnabled(true);
    m_jobs->run<JobOutcome<analysis::LlmRegionResult>>(
        kLane, tr("LLM feasible region"),
        [spec = *m_spec, options](JobRunner::Context& context) {
            return JobOutcome<analysis::LlmRegionResult>::from(
                analysis::computeLlmRegion(spec, options, context.cancel));
        },
        [this, generation](JobOutcome<analysis::LlmRegionResult> outcome) {
            if (generation == m_generation)
                showFinal(std::move(outcome));
        });
}

void LlmRegionPanel::showFinal(JobOutcome<analysis::LlmRegionResult> outcome)
{
    m_cancelButton->setEnabled(false);
    if (!outcome.value) {
        showNothing(tr("The LLM region failed: %1").arg(outcome.error), true);
        return;
    }
    m_status->clear();
    display(outcome.value, true);
    Q_EMIT resultReady();
}

void LlmRegionPanel::setFinalResult(std::shared_ptr<const analysis::LlmRegionResult> result)
{
    const auto before = recommendedIndex(m_result.get());
    m_result = std::move(result);
    if (recommendedIndex(m_result.get()) != before)
        Q_EMIT recommendationChanged();
}

void LlmRegionPanel::display(std::shared_ptr<const analysis::LlmRegionResult> shown, bool final)
{
    const bool sameGrid = m_shown && m_shown->spec == shown->spec;
    m_shown = std::move(shown);
    setFinalResult(final ? m_shown : nullptr);
    if (!sameGrid)
        m_sliceChosen = false;
    fillSlicePickers(*m_shown);
    m_recommendation->setText(
        final ? llmRecommendationText(*m_shown)
              : tr("<b>Preview:</b> the coarse pass is judged; the recommendation follows "
                   "when every cell is computed."));
    m_counts->setText(llmCountsText(*m_shown));
    if (!final)
        m_status->setText(tr("Coarse pass shown; computing the pending cells…"));
    redraw();
    if (!final)
        Q_EMIT previewShown();
}

void LlmRegionPanel::fillSlicePickers(const analysis::LlmRegionResult& shown)
{
    // The recommended cell's values first, unless the user chose a slice of this grid.
    const LlmRegionSlice wanted = m_sliceChosen ? slice() : defaultLlmSlice(shown);
    for (const LlmAxis axis : kSliceAxes) {
        QComboBox* picker = m_pickers[std::size_t(axis)];
        const QSignalBlocker blocker(picker);
        const QStringList texts = axisValueTexts(shown.spec, axis);
        QStringList current;
        for (int i = 0; i < picker->count(); ++i)
            current << picker->itemText(i);
        if (current != texts) {
            picker->clear();
            picker->addItems(texts);
        }
        picker->setCurrentIndex(std::min(int(wanted[std::size_t(axis)]), picker->count() - 1));
        m_pickerRows[std::size_t(axis)]->setVisible(analysis::hasLlmAxis(shown.spec, axis));
    }
}

void LlmRegionPanel::redraw()
{
    if (!m_shown)
        return;
    m_heatmapPanel->setResult(m_shown, slice());
    const bool loadAxis = analysis::hasLlmAxis(m_shown->spec, LlmAxis::Load);
    m_capacity->setVisible(loadAxis);
    if (loadAxis)
        m_capacity->setContent(llmCapacityChart(*m_shown, slice()));
    m_tokensTtft->setContent(llmTokensTtftChart(*m_shown));
}

void LlmRegionPanel::showNothing(const QString& why, bool error)
{
    m_shown.reset();
    setFinalResult(nullptr);
    m_message->showMessage(error ? MessageBar::Kind::Error : MessageBar::Kind::Information, why);
    m_status->clear();
    m_recommendation->setText(tr("<b>No recommendation:</b> no region is shown."));
    m_counts->clear();
    for (QWidget* row : m_pickerRows)
        if (row)
            row->hide();
    m_heatmapPanel->setResult(nullptr, {}, why);
    const analysis::LlmRegionResult none;
    ChartContent capacity = llmCapacityChart(none, {});
    capacity.emptyText = why;
    m_capacity->setContent(capacity);
    ChartContent tokens = llmTokensTtftChart(none);
    tokens.series.clear();
    tokens.references.clear();
    tokens.emptyText = why;
    m_tokensTtft->setContent(tokens);
}

} // namespace bs::widgets
