#include "views/llmreplaypanel.h"

#include "charts/chartpanel.h"
#include "charts/llmreplaycharts.h"
#include "jobs/joboutcome.h"
#include "jobs/jobrunner.h"
#include "panels/flowlayout.h"
#include "panels/heightforwidth.h"
#include "views/summarytable.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <chrono>

namespace bs::widgets {

namespace {

const QString kLane = QStringLiteral("llm-replay");

/// "Label [widget]" kept together when the knob row wraps.
QWidget* knobPair(const QString& label, QWidget* field, const QString& toolTip, QWidget* parent)
{
    auto* pair = new QWidget(parent);
    auto* row = new QHBoxLayout(pair);
    row->setContentsMargins(0, 0, 0, 0);
    auto* caption = new QLabel(label, pair);
    caption->setBuddy(field);
    row->addWidget(caption);
    row->addWidget(field);
    pair->setToolTip(toolTip);
    return pair;
}

QSpinBox* countField(int minimum, int maximum, QWidget* parent)
{
    auto* field = new QSpinBox(parent);
    field->setRange(minimum, maximum);
    field->setGroupSeparatorShown(true);
    // A typed number replays once, when it is complete, not at every digit.
    field->setKeyboardTracking(false);
    return field;
}

/// Why a run's requests cannot be replayed, or "" when they can: the simulator needs each
/// request's arrival, prompt and output tokens.
QString notReplayable(const data::LlmRun& run, const analysis::LlmRunAnalysis& measured)
{
    if (run.requests.empty() || measured.requests == 0)
        return QObject::tr("This run has no per-request records, only the tool's aggregates: "
                           "there are no requests (arrival, prompt and output tokens) to replay "
                           "in the simulator.");
    const auto lacks = [&run](auto field) {
        return std::all_of(run.requests.begin(), run.requests.end(),
                           [field](const data::LlmRequest& r) { return !r.ok || !(r.*field); });
    };
    if (lacks(&data::LlmRequest::arrivalS))
        return QObject::tr("The run's records have no arrival times (the tool did not save when "
                           "each request started): its traffic cannot be replayed in the "
                           "simulator.");
    if (lacks(&data::LlmRequest::promptTokens) || lacks(&data::LlmRequest::outputTokens))
        return QObject::tr("The run's records have no prompt or output token counts: the "
                           "simulator cannot replay requests of unknown length.");
    return {};
}

QString onOff(bool on)
{
    return on ? QObject::tr("on") : QObject::tr("off");
}

QString engineText(const llmsim::EngineConfig& e)
{
    return QObject::tr("%1, max_num_seqs %2, max_num_batched_tokens %3, chunked prefill %4, %5 KV "
                       "blocks of %6 tokens")
        .arg(QString::fromStdString(e.policy), numberText(e.maxNumSeqs, 9),
             numberText(e.maxNumBatchedTokens, 9), onOff(e.enableChunkedPrefill),
             numberText(double(e.numGpuBlocks), 12), numberText(e.blockSize, 9));
}

QString stepText(const llmsim::StepFit& fit)
{
    const auto& s = fit.step;
    return QObject::tr("Step model fitted on the run (linear): %1 ms + %2 ms per prefill token + "
                       "%3 ms per decoding sequence. Fit: log-RMS %4 on TTFT, %5 on TPOT (0.1 ≈ "
                       "10% off per request) over %6 requests, %7 replays.")
        .arg(numberText(s.baseMs), numberText(s.perPrefillTokenMs), numberText(s.perDecodeSeqMs),
             numberText(fit.ttftLogRms, 2), numberText(fit.tpotLogRms, 2),
             numberText(double(fit.requests), 9), numberText(fit.evaluations, 9));
}

/// "TTFT p50 12.3 ms (measured 11.9 ms), p99 …": simulated beside measured.
QString percentilesText(const QString& metric, const llmsim::Summary& simulated,
                        const analysis::Distribution& measured)
{
    const auto measuredAt = [&measured](double p) {
        const auto* estimate = measured.count > 0 ? measured.at(p) : nullptr;
        return estimate ? msText(estimate->value) : QObject::tr("not measured");
    };
    return QObject::tr("%1 p50 %2 (measured %3), p99 %4 (measured %5)")
        .arg(metric, msText(simulated.p50S), measuredAt(0.5), msText(simulated.p99S),
             measuredAt(0.99));
}

QString summaryText(const LlmReplay& replay, const analysis::LlmRunAnalysis& measured)
{
    const auto& metrics = replay.run.result.replications.front();
    return QObject::tr("Replayed %1 requests through %2, in %3 s wall time. Simulated %4; %5.")
        .arg(numberText(double(replay.run.result.requests.size()), 9),
             engineText(replay.run.scenario.engine), numberText(replay.wallS, 2),
             percentilesText(QStringLiteral("TTFT"), metrics.ttft, measured.ttft),
             percentilesText(QStringLiteral("TPOT"), metrics.tpot, measured.tpot));
}

} // namespace

LlmReplayPanel::LlmReplayPanel(JobRunner* jobs, QWidget* parent)
    : QWidget(parent)
    , m_jobs(jobs)
    , m_policy(new QComboBox(this))
    , m_maxNumSeqs(countField(1, 1 << 20, this))
    , m_maxNumBatchedTokens(countField(1, 1 << 24, this))
    , m_chunkedPrefill(new QCheckBox(tr("Chunked prefill"), this))
    , m_kvBlocks(countField(0, 1 << 30, this))
    , m_step(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_note(new QLabel(this))
    , m_cdf(new ChartPanel(this))
    , m_itl(new ChartPanel(this))
    , m_queue(new ChartPanel(this))
    , m_kv(new ChartPanel(this))
    , m_preemptions(new ChartPanel(this))
{
    for (const auto& policy : llmsim::llmPolicies())
        m_policy->addItem(QString::fromStdString(policy));
    m_kvBlocks->setSpecialValueText(tr("not recorded — enter"));
    for (QLabel* label : {m_step, m_summary, m_note}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    // The page scrolls; each chart keeps room for its plot, its axis titles and a legend that
    // wraps onto two rows in half a 1366 px window (at 300 px the legend overran the toolbar
    // of the chart below).
    constexpr int kChartMinHeightPx = 400;
    for (ChartPanel* panel : panels())
        panel->setMinimumHeight(kChartMinHeightPx);

    auto* title = new QLabel(tr("Replay in the simulator"), this);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    auto* charts = new QGridLayout;
    charts->addWidget(m_cdf, 0, 0);
    charts->addWidget(m_itl, 0, 1);
    charts->addWidget(m_queue, 1, 0);
    charts->addWidget(m_kv, 1, 1);
    charts->addWidget(m_preemptions, 2, 0, 1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title);
    layout->addWidget(buildKnobs());
    layout->addWidget(m_step);
    layout->addWidget(m_summary);
    layout->addWidget(m_note);
    layout->addLayout(charts);

    connect(m_policy, &QComboBox::currentIndexChanged, this, &LlmReplayPanel::replayWithKnobs);
    for (QSpinBox* field : {m_maxNumSeqs, m_maxNumBatchedTokens, m_kvBlocks})
        connect(field, &QSpinBox::valueChanged, this, &LlmReplayPanel::replayWithKnobs);
    connect(m_chunkedPrefill, &QCheckBox::toggled, this, &LlmReplayPanel::replayWithKnobs);
    showNothing({});
}

LlmReplayPanel::~LlmReplayPanel()
{
    if (m_jobs)
        m_jobs->cancel(kLane);
}

QWidget* LlmReplayPanel::buildKnobs()
{
    auto* knobs = new QWidget(this);
    auto* flow = new FlowLayout(knobs);
    flow->setContentsMargins(0, 0, 0, 0);
    flow->addWidget(knobPair(tr("Policy:"), m_policy,
                             tr("The simulator's scheduling policy; the run's engine picks the "
                                "first choice"),
                             knobs));
    flow->addWidget(knobPair(tr("max_num_seqs:"), m_maxNumSeqs,
                             tr("Most requests running in one step"), knobs));
    flow->addWidget(knobPair(tr("max_num_batched_tokens:"), m_maxNumBatchedTokens,
                             tr("Token budget of one step: prompt chunks plus one token per "
                                "decoding request"),
                             knobs));
    m_chunkedPrefill->setToolTip(tr("Long prompts are split over several steps"));
    flow->addWidget(m_chunkedPrefill);
    flow->addWidget(knobPair(tr("KV-cache blocks:"), m_kvBlocks,
                             tr("num_gpu_blocks: the KV cache's size in blocks, as the engine "
                                "reports it at start-up"),
                             knobs));
    return knobs;
}

bool LlmReplayPanel::event(QEvent* event)
{
    const bool handled = QWidget::event(event);
    keepHeightForWidth(this, event);
    return handled;
}

QList<ChartPanel*> LlmReplayPanel::panels() const
{
    return {m_cdf, m_itl, m_queue, m_kv, m_preemptions};
}

const data::LlmRun* LlmReplayPanel::run() const
{
    return m_runs && m_index < m_runs->set->runs.size() ? &m_runs->set->runs[m_index] : nullptr;
}

const analysis::LlmRunAnalysis* LlmReplayPanel::measured() const
{
    return m_runs && m_index < m_runs->analyses.size() ? &m_runs->analyses[m_index] : nullptr;
}

void LlmReplayPanel::showRun(std::shared_ptr<const LlmRunsResult> runs, std::size_t index)
{
    const bool sameRun = runs && m_runs && runs->set == m_runs->set && index == m_index;
    m_runs = std::move(runs);
    m_index = index;
    if (!run() || !measured()) {
        showNothing(tr("No run chosen."));
        return;
    }
    if (sameRun)
        return; // a new SLA re-analyses the file; the replay and the user's knobs stay
    m_fit.reset();
    m_replay.reset();
    m_recorded = llmsim::runEngineOf(*run());
    setKnobs(m_recorded);
    if (const QString why = notReplayable(*run(), *measured()); !why.isEmpty()) {
        m_jobs->cancel(kLane);
        drawNothing(why);
        return;
    }
    replayWithKnobs();
}

void LlmReplayPanel::showNothing(const QString& why)
{
    if (m_jobs)
        m_jobs->cancel(kLane);
    m_runs.reset();
    m_fit.reset();
    drawNothing(why);
}

void LlmReplayPanel::setKnobs(const llmsim::RunEngine& recorded)
{
    const QSignalBlocker policy(m_policy), seqs(m_maxNumSeqs), budget(m_maxNumBatchedTokens),
        chunked(m_chunkedPrefill), blocks(m_kvBlocks);
    const auto& e = recorded.engine;
    m_policy->setCurrentText(QString::fromStdString(e.policy));
    m_maxNumSeqs->setValue(e.maxNumSeqs);
    m_maxNumBatchedTokens->setValue(e.maxNumBatchedTokens);
    m_chunkedPrefill->setChecked(e.enableChunkedPrefill);
    m_kvBlocks->setValue(int(std::min<std::int64_t>(e.numGpuBlocks, m_kvBlocks->maximum())));
}

llmsim::EngineConfig LlmReplayPanel::engineFromKnobs() const
{
    llmsim::EngineConfig e = m_recorded.engine;
    e.policy = m_policy->currentText().toStdString();
    e.maxNumSeqs = m_maxNumSeqs->value();
    e.maxNumBatchedTokens = m_maxNumBatchedTokens->value();
    e.enableChunkedPrefill = m_chunkedPrefill->isChecked();
    e.numGpuBlocks = m_kvBlocks->value();
    return e;
}

llmsim::EngineConfig LlmReplayPanel::fitEngine() const
{
    llmsim::EngineConfig e = m_recorded.engine;
    if (!m_recorded.policyRecorded)
        e.policy = m_policy->currentText().toStdString();
    if (!m_recorded.kvBlocksRecorded)
        e.numGpuBlocks = m_kvBlocks->value();
    return e;
}

void LlmReplayPanel::replayWithKnobs()
{
    if (!run() || !measured() || !notReplayable(*run(), *measured()).isEmpty())
        return;
    if (m_kvBlocks->value() == 0) {
        m_jobs->cancel(kLane);
        drawNothing(tr("Nothing is simulated yet: the run does not record its KV-cache size "
                       "(num_gpu_blocks), and without it the simulator cannot tell when the "
                       "cache is full. Enter the blocks the engine reported at start-up (vLLM "
                       "logs “# GPU blocks: N”) in “KV-cache blocks”."));
        return;
    }
    const llmsim::EngineConfig through = fitEngine();
    std::optional<llmsim::StepFit> knownFit;
    if (m_fit && m_fittedThrough == through)
        knownFit = m_fit;
    m_note->setText(knownFit ? tr("Replaying…")
                             : tr("Fitting the step model on the run, then "
                                  "replaying…"));
    m_note->show();
    m_jobs->run<JobOutcome<LlmReplay>>(
        kLane, tr("Replaying the LLM run in the simulator"),
        [runs = m_runs, index = m_index, through, engine = engineFromKnobs(),
         knownFit](JobRunner::Context& context) {
            const auto start = std::chrono::steady_clock::now();
            auto replayed = llmsim::replayRun(runs->set->runs[index], through, engine, knownFit,
                                              context.cancel);
            if (!replayed)
                return JobOutcome<LlmReplay>{nullptr,
                                             QString::fromStdString(replayed.error().toString())};
            LlmReplay replay{std::move(*replayed), through, 0.0};
            replay.wallS =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            return JobOutcome<LlmReplay>{std::make_shared<const LlmReplay>(std::move(replay)), {}};
        },
        [this](JobOutcome<LlmReplay> outcome) { showReplay(std::move(outcome)); });
}

void LlmReplayPanel::showReplay(JobOutcome<LlmReplay> outcome)
{
    if (!outcome.value || outcome.value->run.result.replications.empty()) {
        drawNothing(tr("Not simulated: %1").arg(outcome.error));
        Q_EMIT replayed();
        return;
    }
    m_replay = outcome.value;
    m_fit = m_replay->run.fit;
    m_fittedThrough = m_replay->fitEngine;
    const auto& measuredRun = *measured();
    m_cdf->setContent(llmReplayCdfChart(measuredRun, &m_replay->run, {}));
    m_itl->setContent(llmItlCdfChart(measuredRun, &m_replay->run, {}));
    m_queue->setContent(llmReplayQueueChart(&m_replay->run, {}));
    m_kv->setContent(llmReplayKvChart(&m_replay->run, {}));
    m_preemptions->setContent(llmReplayPreemptionChart(&m_replay->run, {}));
    m_step->setText(stepText(m_replay->run.fit));
    m_step->show();
    m_summary->setText(summaryText(*m_replay, measuredRun));
    m_summary->show();
    QStringList notes;
    if (!m_recorded.policyRecorded)
        notes << tr("The simulator has no policy named after the run's engine “%1”: check that "
                    "“Policy” is the one it schedules like.")
                     .arg(QString::fromStdString(m_recorded.engineName));
    m_note->setText(notes.join(QLatin1Char(' ')));
    m_note->setVisible(!notes.isEmpty());
    Q_EMIT replayed();
}

void LlmReplayPanel::drawNothing(const QString& why)
{
    m_replay.reset();
    m_step->hide();
    m_summary->hide();
    m_note->setText(why);
    m_note->setVisible(!why.isEmpty());
    const analysis::LlmRunAnalysis none;
    m_cdf->setContent(llmReplayCdfChart(measured() ? *measured() : none, nullptr, why));
    m_itl->setContent(llmItlCdfChart(measured() ? *measured() : none, nullptr, why));
    m_queue->setContent(llmReplayQueueChart(nullptr, why));
    m_kv->setContent(llmReplayKvChart(nullptr, why));
    m_preemptions->setContent(llmReplayPreemptionChart(nullptr, why));
}

} // namespace bs::widgets
