#include "views/llmserverview.h"

#include "analysis/llmregionpack.h"
#include "analysis/projectregion.h"
#include "charts/chartpanel.h"
#include "charts/llmloadcharts.h"
#include "charts/llmreplaycharts.h"
#include "document/projectdocument.h"
#include "jobs/jobrunner.h"
#include "views/llmregionpanel.h"
#include "views/summarytable.h"

#include <QEvent>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace bs::widgets {

namespace {

const QString kLane = QStringLiteral("llm-server");

using analysis::LlmConstraint;

/// A limit as people say it, with the unit its value is shown in.
struct CheckWords
{
    QString name;
    QString unit;
    bool upper = true; ///< value <= limit (else a demand: value >= limit)
};

CheckWords wordsOf(LlmConstraint kind)
{
    switch (kind) {
    case LlmConstraint::TtftP99:
        return {QObject::tr("TTFT p99"), QObject::tr("ms")};
    case LlmConstraint::TpotP99:
        return {QObject::tr("TPOT p99"), QObject::tr("ms")};
    case LlmConstraint::ItlP99:
        return {QObject::tr("ITL p99"), QObject::tr("ms")};
    case LlmConstraint::E2eP99:
        return {QObject::tr("E2E p99"), QObject::tr("ms")};
    case LlmConstraint::OutputTokens:
        return {QObject::tr("output tokens/s"), {}, false};
    case LlmConstraint::Goodput:
        return {QObject::tr("goodput"), QObject::tr("req/s"), false};
    case LlmConstraint::Preemptions:
        return {QObject::tr("preemptions per request"), {}};
    case LlmConstraint::PowerPerGpu:
        return {QObject::tr("power per GPU"), QObject::tr("W")};
    case LlmConstraint::EnergyPerToken:
        return {QObject::tr("energy per output token"), QObject::tr("J")};
    case LlmConstraint::Temperature:
        return {QObject::tr("peak temperature"), QObject::tr("°C")};
    case LlmConstraint::Refused:
        return {QObject::tr("refused up front"), {}};
    case LlmConstraint::None:
        break;
    }
    return {QObject::tr("none"), {}};
}

QString withUnit(double value, const QString& unit)
{
    return unit.isEmpty() ? numberText(value) : numberText(value) + QLatin1Char(' ') + unit;
}

/// "TTFT p99 746 ms [366, 519] <= 1,000 ms: met, 25% headroom".
QString checkLine(const analysis::LlmCheck& check)
{
    const CheckWords words = wordsOf(check.kind);
    QString interval;
    if (std::isfinite(check.ciLow) && std::isfinite(check.ciHigh))
        interval =
            QStringLiteral(" [%1, %2]").arg(numberText(check.ciLow), numberText(check.ciHigh));
    const QString verdict =
        check.satisfied
            ? QObject::tr("met, %1% headroom").arg(numberText(check.margin * 100.0, 3))
            : QObject::tr("NOT met, %1% over").arg(numberText(-check.margin * 100.0, 3));
    return QObject::tr("%1 %2%3 %4 %5: %6%7")
        .arg(words.name, withUnit(check.value, words.unit), interval,
             words.upper ? QStringLiteral("≤") : QStringLiteral("≥"),
             withUnit(check.limit, words.unit), verdict,
             check.decided ? QString()
                           : QObject::tr(" (not confident: the interval holds the limit)"));
}

QString knobsText(const analysis::LlmRegionSpec& spec)
{
    const auto& s = spec.scenario;
    QString text =
        QObject::tr("%1, max_num_seqs %2, %3 %4, load %5×")
            .arg(QString::fromStdString(s.engine.policy), QLocale().toString(s.engine.maxNumSeqs),
                 QString::fromLatin1(analysis::llmTokenBudgetKnob(s.engine)),
                 QLocale().toString(analysis::llmTokenBudget(s.engine)),
                 numberText(s.arrivals.rateMultiplier, 3));
    if (s.step.powerCapW)
        text += QObject::tr(", %1 W cap").arg(numberText(*s.step.powerCapW, 4));
    return text;
}

/// "Knee at these knobs: 0.1x met, 0.15x not (ttft_p99)", from the load sweep's capacity.
QString kneeText(const LlmServerRun& run)
{
    if (!run.loadSweep || run.loadSweep->capacity.empty())
        return run.loadSweepError.isEmpty()
                   ? QString()
                   : QObject::tr("Load sweep not computed: %1").arg(run.loadSweepError);
    const auto& capacity = run.loadSweep->capacity.front();
    const auto& cells = run.loadSweep->cells;
    QString text = capacity.capacityCell
                       ? QObject::tr("Knee at these knobs: the highest load met is %1")
                             .arg(numberText(capacity.knobs.load))
                       : QObject::tr("Knee at these knobs: even the lowest load swept fails");
    if (capacity.firstFailingCell)
        text += QObject::tr("; %1 fails %2")
                    .arg(numberText(cells[*capacity.firstFailingCell].knobs.load),
                         wordsOf(capacity.failingBinding).name);
    if (!capacity.note.empty())
        text += QStringLiteral(" (") + QString::fromStdString(capacity.note) + QLatin1Char(')');
    return text + QLatin1Char('.');
}

} // namespace

LlmServerView::LlmServerView(ProjectDocument* document, JobRunner* jobs, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_jobs(jobs)
    , m_headline(new QLabel(this))
    , m_checks(new QLabel(this))
    , m_note(new QLabel(this))
    , m_cdf(new ChartPanel(this))
    , m_itl(new ChartPanel(this))
    , m_queue(new ChartPanel(this))
    , m_kv(new ChartPanel(this))
    , m_preemptions(new ChartPanel(this))
    , m_loadThroughput(new ChartPanel(this))
    , m_loadLatency(new ChartPanel(this))
    , m_loadEnergy(new ChartPanel(this))
    , m_loadPower(new ChartPanel(this))
    , m_region(new LlmRegionPanel(jobs, this))
    , m_regionTitle(new QLabel(tr("Feasible region over the project's grid"), this))
{
    setObjectName(QStringLiteral("llmServerView"));
    for (QLabel* label : {m_headline, m_checks, m_note}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    QFont headline = m_headline->font();
    headline.setBold(true);
    headline.setPointSizeF(headline.pointSizeF() * 1.15);
    m_headline->setFont(headline);
    sizeChartsToFont();
    auto* charts = new QGridLayout;
    // Two columns; preemptions, a timeline like running/waiting and KV use, closes the
    // operating point's part across both before the load sweep's four.
    charts->addWidget(m_cdf, 0, 0);
    charts->addWidget(m_itl, 0, 1);
    charts->addWidget(m_queue, 1, 0);
    charts->addWidget(m_kv, 1, 1);
    charts->addWidget(m_preemptions, 2, 0, 1, 2);
    charts->addWidget(m_loadThroughput, 3, 0);
    charts->addWidget(m_loadLatency, 3, 1);
    charts->addWidget(m_loadEnergy, 4, 0);
    charts->addWidget(m_loadPower, 4, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_headline);
    layout->addWidget(m_checks);
    layout->addWidget(m_note);
    layout->addLayout(charts, 1);
    m_regionTitle->setFont(headline);
    layout->addWidget(m_regionTitle);
    layout->addWidget(m_region);

    // A click on a region cell moves the operating point there (the region stays: it is the
    // same grid, analysis::sameLlmRegion).
    connect(m_region, &LlmRegionPanel::cellActivated, this, &LlmServerView::loadRegionCell);
    connect(m_document, &ProjectDocument::projectReset, this, [this] { refresh(true); });
    connect(m_document, &ProjectDocument::datasetsChanged, this, [this] { refresh(); });
    connect(m_document, &ProjectDocument::sectionChanged, this, [this](ProjectSection section) {
        if (section == ProjectSection::Llm)
            refresh();
    });
    refresh(true);
}

void LlmServerView::sizeChartsToFont()
{
    // Room for the plot, both axis titles and a two-row legend at this font (projector mode
    // makes every text larger; a fixed height cut the x-axis title there).
    const int minHeightPx = std::max(380, 25 * fontMetrics().height());
    for (ChartPanel* panel : chartPanels())
        panel->setMinimumHeight(minHeightPx);
}

QList<ChartPanel*> LlmServerView::chartPanels() const
{
    return {m_cdf,         m_itl,        m_queue,    m_kv, m_preemptions, m_loadThroughput,
            m_loadLatency, m_loadEnergy, m_loadPower};
}

void LlmServerView::showCharts(const llmsim::RunReplay* run, const QString& why,
                               const analysis::LlmRegionResult* loadSweep,
                               const QString& loadSweepWhy)
{
    const analysis::LlmRunAnalysis none;
    const analysis::LlmRunAnalysis& measured = run && m_measured ? *m_measured : none;
    m_cdf->setContent(llmReplayCdfChart(measured, run, why));
    m_itl->setContent(llmItlCdfChart(measured, run, why));
    m_queue->setContent(llmReplayQueueChart(run, why));
    m_kv->setContent(llmReplayKvChart(run, why));
    m_preemptions->setContent(llmReplayPreemptionChart(run, why));
    m_loadThroughput->setContent(llmLoadThroughputChart(loadSweep, loadSweepWhy));
    m_loadLatency->setContent(llmLoadLatencyChart(loadSweep, loadSweepWhy));
    m_loadEnergy->setContent(llmLoadEnergyChart(loadSweep, loadSweepWhy));
    m_loadPower->setContent(llmLoadPowerChart(loadSweep, loadSweepWhy));
}

void LlmServerView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        sizeChartsToFont();
}

void LlmServerView::loadRegionCell(std::size_t index)
{
    const auto region = m_region->result();
    if (!region || index >= region->cells.size())
        return;
    auto spec = analysis::llmRegionSpecOfProject(m_document->project(),
                                                 m_document->filePath().toStdString());
    if (!spec || !spec->has_value() || !analysis::sameLlmRegion(region->spec, **spec))
        return;
    analysis::LlmRegionSpec moved = **spec;
    // The cell's own scenario: the base with that cell's knobs and replications.
    moved.scenario = analysis::llmCellScenario(**spec, index);
    moved.scenario.name = spec->value().scenario.name;
    const auto& knobs = region->cells[index].knobs;
    m_document->setSection(
        ProjectSection::Llm, analysis::llmRegionSpecToJson(moved),
        tr("Load the region cell max_num_seqs %1, %2 %3")
            .arg(knobs.maxNumSeqs)
            .arg(QString::fromLatin1(analysis::llmTokenBudgetKnob(moved.scenario.engine)))
            .arg(knobs.maxNumBatchedTokens));
}

QString LlmServerView::headlineText() const
{
    return m_headline->text();
}

QString LlmServerView::checksText() const
{
    return m_checks->text();
}

QString LlmServerView::baseDirectory() const
{
    const QString path = m_document->filePath();
    return path.isEmpty() ? QString() : QFileInfo(path).absolutePath();
}

std::optional<analysis::LlmRunAnalysis>
LlmServerView::comparableMeasurement(const analysis::LlmRegionSpec& spec) const
{
    const auto& arrivals = spec.scenario.arrivals;
    if (arrivals.kind != llmsim::LlmArrivalSpec::Kind::Replay || arrivals.rateMultiplier != 1.0 ||
        arrivals.replicas != 1)
        return std::nullopt;
    // The dataset the scenario replays, whatever its playbook role.
    const data::Dataset* replayed = nullptr;
    for (const auto& d : m_document->project().datasets)
        if (d.llmRuns() && !d.llmRuns()->runs.empty() && d.provenance.path == arrivals.file)
            replayed = &d;
    if (!replayed)
        return std::nullopt;
    auto analyses = analysis::analyzeLlmRuns(*replayed->llmRuns());
    if (analyses.empty())
        return std::nullopt;
    return analyses.front();
}

void LlmServerView::refresh(bool computeRegion)
{
    auto spec = analysis::llmRegionSpecOfProject(m_document->project(),
                                                 m_document->filePath().toStdString());
    if (!spec) {
        showNothing(tr("The project's LLM server cannot be simulated: %1")
                        .arg(QString::fromStdString(spec.error().toString())));
        return;
    }
    if (!spec->has_value()) {
        showNothing(tr("This project studies no LLM server. File ▸ Open LLM Demo opens one: "
                       "Llama-3.1-8B on vLLM with the public run's requests."));
        return;
    }
    m_regionTitle->show();
    m_region->show();
    m_measured = comparableMeasurement(**spec);
    m_region->setSpec(**spec, baseDirectory());
    if (computeRegion)
        m_region->compute();
    m_note->setText(tr("Simulating %1…").arg(knobsText(**spec)));
    m_note->show();
    m_jobs->run<JobOutcome<LlmServerRun>>(
        kLane, tr("Simulating the LLM server"),
        [spec = **spec, base = baseDirectory().toStdString()](JobRunner::Context& context) {
            const auto start = std::chrono::steady_clock::now();
            auto point = analysis::judgeLlmOperatingPoint(spec, base, context.cancel);
            if (!point)
                return JobOutcome<LlmServerRun>{nullptr,
                                                QString::fromStdString(point.error().toString())};
            LlmServerRun run;
            run.point = std::move(*point);
            if (run.point.run)
                run.charts = llmsim::RunReplay{{}, run.point.run->scenario, *run.point.run};
            run.wallS =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            analysis::LlmRegionOptions options;
            options.baseDirectory = base;
            // The sweep's knee is its answer; a headroom search would only delay the chart.
            options.searchLoadHeadroom = false;
            auto sweep = analysis::computeLlmRegion(analysis::llmLoadSweepSpec(spec), options,
                                                    context.cancel);
            if (sweep)
                run.loadSweep =
                    std::make_shared<const analysis::LlmRegionResult>(std::move(*sweep));
            else
                run.loadSweepError = QString::fromStdString(sweep.error().toString());
            return JobOutcome<LlmServerRun>{std::make_shared<const LlmServerRun>(std::move(run)),
                                            {}};
        },
        [this](JobOutcome<LlmServerRun> outcome) { showRun(std::move(outcome)); });
}

void LlmServerView::showRun(JobOutcome<LlmServerRun> outcome)
{
    if (!outcome.value) {
        showNothing(tr("Not simulated: %1").arg(outcome.error));
        return;
    }
    m_run = outcome.value;
    const auto& point = m_run->point;
    const auto& cell = point.cell;
    const QString verdict =
        cell.status == analysis::LlmCellStatus::Feasible
            ? tr("meets every limit (closest: %1)").arg(wordsOf(cell.binding).name)
        : cell.status == analysis::LlmCellStatus::Refused
            ? tr("refused by the engine: %1").arg(QString::fromStdString(cell.note))
            : tr("does NOT meet %1").arg(wordsOf(cell.binding).name);
    m_headline->setText(tr("%1: %2%3")
                            .arg(knobsText(point.spec), verdict,
                                 cell.confident ? QString() : tr(" — not confident")));
    QStringList lines;
    for (const auto& check : cell.checks)
        lines << checkLine(check);
    const auto& m = cell.metrics;
    lines << tr("output %1 tokens/s, goodput %2 req/s, peak KV use %3%")
                 .arg(numberText(m.outputTokensPerS.value), numberText(m.goodputPerS.value),
                      numberText(m.peakKvUse.value * 100.0, 3));
    if (const QString knee = kneeText(*m_run); !knee.isEmpty())
        lines << knee;
    lines << tr("Evidence: %1; %2 s of simulation.")
                 .arg(QString::fromStdString(point.evidence), numberText(m_run->wallS, 2));
    m_checks->setText(lines.join(QLatin1Char('\n')));
    m_note->setText(m_measured ? tr("Measured: the baseline run at its own load, beside the "
                                    "simulation of its requests.")
                               : tr("The measured run is drawn beside the simulation when the "
                                    "scenario replays it at its own load (1×)."));
    m_note->show();
    const llmsim::RunReplay* charts = m_run->charts ? &*m_run->charts : nullptr;
    const QString why = charts ? QString() : QString::fromStdString(cell.note);
    showCharts(charts, why, m_run->loadSweep.get(), m_run->loadSweepError);
    Q_EMIT simulated();
}

void LlmServerView::showNothing(const QString& why)
{
    if (m_jobs)
        m_jobs->cancel(kLane);
    m_run.reset();
    m_regionTitle->hide();
    m_region->hide();
    m_headline->setText(tr("LLM server"));
    m_checks->clear();
    m_note->setText(why);
    m_note->show();
    showCharts(nullptr, why, nullptr, why);
    Q_EMIT simulated();
}

} // namespace bs::widgets
