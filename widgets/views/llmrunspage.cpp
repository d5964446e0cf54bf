#include "views/llmrunspage.h"

#include "charts/chartpanel.h"
#include "jobs/joboutcome.h"
#include "jobs/jobrunner.h"
#include "panels/flowlayout.h"
#include "views/llmreplaypanel.h"
#include "views/llmruntables.h"
#include "views/summarytable.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace bs::widgets {

namespace {

const QString kLane = QStringLiteral("trace-llm");

/// A chart that shows only why it is empty, keeping its title.
ChartContent emptyChart(ChartContent content, const QString& why)
{
    content.series.clear();
    content.references.clear();
    content.emptyText = why;
    return content;
}

void fillTable(QTableWidget* table, const QList<LlmTableRow>& rows)
{
    table->setRowCount(0);
    for (const auto& row : rows) {
        appendSummaryRow(table, row.cells);
        if (row.computedMs)
            table->item(table->rowCount() - 1, 1)->setData(Qt::UserRole, *row.computedMs);
    }
}

/// A limit field: "TTFT ≤ [    ] ms", empty meaning "not judged".
QWidget* limitField(const QString& label, QLineEdit* edit, QWidget* parent)
{
    auto* pair = new QWidget(parent);
    auto* row = new QHBoxLayout(pair);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(label, pair));
    edit->setPlaceholderText(QObject::tr("not judged"));
    edit->setClearButtonEnabled(true);
    // Room for "100000" or the placeholder, whichever is longer.
    edit->setMinimumWidth(edit->fontMetrics().horizontalAdvance(edit->placeholderText()) + 40);
    row->addWidget(edit);
    row->addWidget(new QLabel(QStringLiteral("ms"), pair));
    return pair;
}

/// A limit in seconds from a field in milliseconds; nullopt when empty or unreadable (then
/// `problem` says why).
std::optional<double> limitS(const QLineEdit* field, const QString& metric, QString& problem)
{
    const QString text = field->text().trimmed();
    if (text.isEmpty())
        return std::nullopt;
    bool ok = false;
    double valueMs = QLocale().toDouble(text, &ok);
    if (!ok)
        valueMs = QLocale::c().toDouble(text, &ok);
    if (ok && std::isfinite(valueMs) && valueMs > 0.0)
        return valueMs / 1e3;
    problem = QObject::tr("“%1” is not a %2 limit: write milliseconds above zero (e.g. 500); %2 "
                          "is not judged until then.")
                  .arg(text, metric);
    return std::nullopt;
}

} // namespace

LlmRunsPage::LlmRunsPage(JobRunner* jobs, QWidget* parent)
    : QWidget(parent)
    , m_jobs(jobs)
    , m_runPair(new QWidget(this))
    , m_runPicker(new QComboBox(m_runPair))
    , m_ttftLimitMs(new QLineEdit(this))
    , m_tpotLimitMs(new QLineEdit(this))
    , m_note(new QLabel(this))
    , m_sweepCaption(new QLabel(this))
    , m_cdf(new ChartPanel(this))
    , m_throughputSweep(new ChartPanel(this))
    , m_ttftSweep(new ChartPanel(this))
    , m_tpotSweep(new ChartPanel(this))
    , m_percentiles(makeSummaryTable({tr("Latency"), tr("Computed from the records"), tr("95% CI"),
                                      tr("Reported by the tool")},
                                     this))
    , m_figures(makeSummaryTable({tr("Figure"), tr("Value"), tr("Source")}, this))
    , m_replay(new LlmReplayPanel(jobs, this))
{
    m_note->setWordWrap(true);
    m_sweepCaption->setWordWrap(true);
    // Four charts in a 768 px window would keep too little plot each: each keeps a readable
    // height, and the tables show every row; the page scrolls instead.
    constexpr int kChartMinHeightPx = 300;
    for (ChartPanel* panel : {m_cdf, m_throughputSweep, m_ttftSweep, m_tpotSweep})
        panel->setMinimumHeight(kChartMinHeightPx);
    showEveryRow(m_percentiles);
    showEveryRow(m_figures);

    auto* charts = new QGridLayout;
    charts->addWidget(m_cdf, 0, 0);
    charts->addWidget(m_throughputSweep, 0, 1);
    charts->addWidget(m_ttftSweep, 1, 0);
    charts->addWidget(m_tpotSweep, 1, 1);
    // Tables under the charts, as on the Requests page, so each has half the page's width for
    // its figures and the charts keep theirs.
    auto* tables = new QHBoxLayout;
    tables->addWidget(m_percentiles, 1);
    tables->addWidget(m_figures, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildControls());
    layout->addWidget(m_note);
    layout->addLayout(charts, 3);
    layout->addWidget(m_sweepCaption);
    layout->addLayout(tables, 2);
    layout->addWidget(m_replay);

    connect(m_runPicker, &QComboBox::currentIndexChanged, this, &LlmRunsPage::drawRun);
    connect(m_ttftLimitMs, &QLineEdit::editingFinished, this, &LlmRunsPage::analyse);
    connect(m_tpotLimitMs, &QLineEdit::editingFinished, this, &LlmRunsPage::analyse);
    showEmpty({});
}

QWidget* LlmRunsPage::buildControls()
{
    auto* controls = new QWidget(this);
    // The run picker and the SLA fields wrap onto a second row rather than cutting a run's name.
    auto* flow = new FlowLayout(controls);
    flow->setContentsMargins(0, 0, 0, 0);
    auto* runRow = new QHBoxLayout(m_runPair);
    runRow->setContentsMargins(0, 0, 0, 0);
    runRow->addWidget(new QLabel(tr("Run:"), m_runPair));
    m_runPicker->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_runPicker->setToolTip(tr("The runs of the file: tool, dataset, request rate or concurrency, "
                               "and the line where the run starts"));
    runRow->addWidget(m_runPicker);
    flow->addWidget(m_runPair);
    auto* sla = new QLabel(tr("Goodput SLA:"), controls);
    sla->setToolTip(tr("A request counts towards goodput when it succeeded and met every limit "
                       "given; an empty limit is not judged"));
    flow->addWidget(sla);
    flow->addWidget(limitField(tr("TTFT ≤"), m_ttftLimitMs, controls));
    flow->addWidget(limitField(tr("TPOT ≤"), m_tpotLimitMs, controls));
    return controls;
}

QList<ChartPanel*> LlmRunsPage::panels() const
{
    return QList<ChartPanel*>{m_cdf, m_throughputSweep, m_ttftSweep, m_tpotSweep} +
           m_replay->panels();
}

void LlmRunsPage::showRuns(std::shared_ptr<const data::LlmRunSet> runs,
                           std::shared_ptr<const data::PowerSeries> power, const QString& powerName)
{
    if (runs && runs == m_runs && power == m_power)
        return;
    m_runs = std::move(runs);
    m_power = std::move(power);
    m_powerName = powerName;
    m_result.reset();
    if (!m_runs || m_runs->runs.empty()) {
        showEmpty(tr("The file holds no benchmark runs."));
        return;
    }
    analyse();
}

void LlmRunsPage::showEmpty(const QString& why)
{
    m_jobs->cancel(kLane);
    m_runs.reset();
    m_result.reset();
    m_note->setText(why);
    m_note->setVisible(!why.isEmpty());
    m_runPicker->clear();
    m_runPair->hide();
    m_sweepCaption->clear();
    m_sweepCaption->hide();
    const LlmRunsResult none;
    m_cdf->setContent(emptyChart(llmLatencyCdfChart({}, {}, {}), why));
    m_throughputSweep->setContent(emptyChart(llmSweepThroughputChart(none), why));
    m_ttftSweep->setContent(emptyChart(llmSweepP99Chart(none, LlmSweepLatency::Ttft), why));
    m_tpotSweep->setContent(emptyChart(llmSweepP99Chart(none, LlmSweepLatency::Tpot), why));
    setSweepChartsVisible(false);
    m_percentiles->setRowCount(0);
    m_figures->setRowCount(0);
    m_replay->showNothing(why);
}

analysis::LlmSla LlmRunsPage::slaFromFields(QStringList& problems) const
{
    analysis::LlmSla sla;
    QString problem;
    sla.ttftS = limitS(m_ttftLimitMs, QStringLiteral("TTFT"), problem);
    if (!problem.isEmpty())
        problems << problem;
    problem.clear();
    sla.tpotS = limitS(m_tpotLimitMs, QStringLiteral("TPOT"), problem);
    if (!problem.isEmpty())
        problems << problem;
    return sla;
}

void LlmRunsPage::analyse()
{
    if (!m_runs)
        return;
    QStringList problems;
    const analysis::LlmSla sla = slaFromFields(problems);
    m_slaProblems = problems.join(QLatin1Char(' '));
    // Goodput depends on the SLA; the same analysis again costs less than a second per million
    // requests, and runs off the GUI thread like the first one.
    m_jobs->run<JobOutcome<LlmRunsResult>>(
        kLane, tr("Analysing LLM serving runs"),
        [runs = m_runs, sla, power = m_power,
         powerName = m_powerName.toStdString()](JobRunner::Context&) {
            auto result = std::make_shared<LlmRunsResult>();
            result->set = runs;
            result->sla = sla;
            result->analyses = analysis::analyzeLlmRuns(*runs, sla, {power.get(), powerName});
            return JobOutcome<LlmRunsResult>{std::move(result), {}};
        },
        [this](JobOutcome<LlmRunsResult> outcome) { showResult(std::move(outcome)); });
}

void LlmRunsPage::showResult(JobOutcome<LlmRunsResult> outcome)
{
    const bool sameRuns = m_result && outcome.value && m_result->set == outcome.value->set;
    m_result = outcome.value;
    if (!m_result) {
        showEmpty(tr("The LLM serving analysis failed: %1").arg(outcome.error));
        return;
    }
    if (!sameRuns)
        fillRunPicker();
    drawSweep();
    drawRun();
    Q_EMIT analysed();
}

void LlmRunsPage::fillRunPicker()
{
    const QSignalBlocker blocker(m_runPicker);
    m_runPicker->clear();
    for (const auto& run : m_result->set->runs)
        m_runPicker->addItem(llmRunLabel(run));
    m_runPicker->setCurrentIndex(0);
    // One run needs no choice; the CDF's title names it.
    m_runPair->setVisible(m_runPicker->count() > 1);
}

void LlmRunsPage::drawRun()
{
    const int index = m_runPicker->currentIndex();
    if (!m_result || index < 0 || std::size_t(index) >= m_result->analyses.size())
        return;
    const auto& run = m_result->set->runs[std::size_t(index)];
    const auto& analysis = m_result->analyses[std::size_t(index)];
    m_cdf->setContent(llmLatencyCdfChart(analysis, llmRunLabel(run), m_result->sla));
    fillTable(m_percentiles, llmPercentileRows(run, analysis));
    fillTable(m_figures, llmFigureRows(run, analysis, m_result->sla));
    m_replay->showRun(m_result, std::size_t(index));
    QStringList note;
    if (analysis.requests == 0)
        note << tr("This run has no per-request records: only the tool's aggregates exist, so "
                   "there are no distributions, intervals or goodput to compute.");
    if (!m_slaProblems.isEmpty())
        note << m_slaProblems;
    m_note->setText(note.join(QLatin1Char(' ')));
    m_note->setVisible(!note.isEmpty());
}

void LlmRunsPage::drawSweep()
{
    m_throughputSweep->setContent(llmSweepThroughputChart(*m_result));
    m_ttftSweep->setContent(llmSweepP99Chart(*m_result, LlmSweepLatency::Ttft));
    m_tpotSweep->setContent(llmSweepP99Chart(*m_result, LlmSweepLatency::Tpot));
    m_sweepCaption->setText(llmSweepCaption(*m_result));
    m_sweepCaption->setVisible(!m_sweepCaption->text().isEmpty());
    // A file without a rate or concurrency sweep (one engine log, one AIPerf run) would show
    // three empty charts saying the same thing: the caption says it once, the CDF takes the
    // room.
    setSweepChartsVisible(m_result->set && llmSweepAxis(*m_result->set) != LlmSweepAxis::None);
}

void LlmRunsPage::setSweepChartsVisible(bool visible)
{
    for (ChartPanel* panel : {m_throughputSweep, m_ttftSweep, m_tpotSweep})
        panel->setVisible(visible);
}

} // namespace bs::widgets
