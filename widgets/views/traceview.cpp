#include "views/traceview.h"

#include "accel/model.h"
#include "charts/chartpanel.h"
#include "charts/tracecharts.h"
#include "document/projectdocument.h"
#include "jobs/joboutcome.h"
#include "jobs/jobrunner.h"
#include "models/displaytext.h"
#include "panels/flowlayout.h"
#include "panels/viewscrollarea.h"
#include "views/datasetpicker.h"
#include "views/llmrunspage.h"
#include "views/summarytable.h"
#include "views/tokensummary.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace bs::widgets {

TraceView::TraceView(ProjectDocument* document, JobRunner* jobs, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_jobs(jobs)
    , m_requestPicker(new QComboBox(this))
    , m_kernelPicker(new QComboBox(this))
    , m_powerPicker(new QComboBox(this))
    , m_llmPicker(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_tabs(new QTabWidget(this))
{
    // The pickers wrap onto a second row rather than cutting dataset names (1366 px laptops,
    // both docks open, projector fonts).
    auto* pickers = new FlowLayout;
    const std::pair<QString, QComboBox*> pickerRows[] = {{tr("Request trace:"), m_requestPicker},
                                                         {tr("Kernel trace:"), m_kernelPicker},
                                                         {tr("Power log:"), m_powerPicker},
                                                         {tr("LLM runs:"), m_llmPicker}};
    for (const auto& [text, picker] : pickerRows) {
        auto* pair = new QWidget(this);
        auto* row = new QHBoxLayout(pair);
        row->setContentsMargins(0, 0, 0, 0);
        row->addWidget(new QLabel(text, pair));
        picker->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        row->addWidget(picker);
        pickers->addWidget(pair);
    }
    m_status->setWordWrap(true);
    // Each page scrolls on its own when the window is too small for it (the power page stacks
    // three time-aligned charts), so one tall page does not make the others scroll.
    m_tabs->addTab(new ViewScrollArea(buildRequestsPage()), tr("Requests"));
    m_tabs->addTab(new ViewScrollArea(buildKernelsPage()), tr("Kernels"));
    m_tabs->addTab(new ViewScrollArea(buildPowerPage()), tr("Power && thermal"));
    m_llmPage = new LlmRunsPage(m_jobs, this);
    m_panels.append(m_llmPage->panels());
    m_tabs->addTab(new ViewScrollArea(m_llmPage), tr("LLM serving"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(pickers);
    layout->addWidget(m_status);
    layout->addWidget(m_tabs, 1);

    connect(m_requestPicker, &QComboBox::currentIndexChanged, this, [this] {
        analyseRequests();
        analysePower(); // the power timeline aligns with the chosen trace's completions
    });
    connect(m_kernelPicker, &QComboBox::currentIndexChanged, this, &TraceView::analyseKernels);
    connect(m_powerPicker, &QComboBox::currentIndexChanged, this, &TraceView::analysePower);
    connect(m_powerPicker, &QComboBox::currentIndexChanged, this, &TraceView::showLlmRuns);
    connect(m_llmPicker, &QComboBox::currentIndexChanged, this, &TraceView::showLlmRuns);
    connect(m_llmPage, &LlmRunsPage::analysed, this, &TraceView::analysed);
    connect(m_document, &ProjectDocument::datasetsChanged, this, &TraceView::refreshDatasets);
    connect(m_document, &ProjectDocument::projectReset, this, &TraceView::refreshDatasets);
    refreshDatasets();
}

ChartPanel* TraceView::addPanel(QWidget* parent)
{
    auto* panel = new ChartPanel(parent);
    m_panels.append(panel);
    return panel;
}

namespace {
constexpr int kSummaryTableMinHeightPx = 300;
constexpr int kSmallTableMinHeightPx = 140;
} // namespace

QWidget* TraceView::buildRequestsPage()
{
    auto* page = new QWidget(this);
    m_cdf = addPanel(page);
    m_percentiles = addPanel(page);
    m_throughput = addPanel(page);
    m_batches = addPanel(page);
    m_requestSummary = makeSummaryTable({tr("Metric"), tr("Value"), tr("95% CI")}, page);
    m_tail =
        makeSummaryTable({tr("Part of p99 excess"), tr("Excess"), tr("Share"), tr("95% CI")}, page);
    m_streams = makeSummaryTable({tr("Stream"), tr("Requests"), tr("Throughput (req/s)"), tr("p50"),
                                  tr("p99"), tr("p99 95% CI")},
                                 page);
    m_streams->setSortingEnabled(true);
    auto* charts = new QGridLayout;
    charts->addWidget(m_cdf, 0, 0);
    charts->addWidget(m_percentiles, 0, 1);
    charts->addWidget(m_throughput, 1, 0);
    charts->addWidget(m_batches, 1, 1);
    // The tables sit under the charts, as a report reads, so each has the page's width for its
    // figures; beside the charts they squeezed the charts' axis titles or pushed the page into
    // sideways scrolling on a laptop screen. The page scrolls down instead.
    m_requestSummary->setMinimumHeight(kSummaryTableMinHeightPx);
    m_tail->setMinimumHeight(kSmallTableMinHeightPx);
    m_streams->setMinimumHeight(kSmallTableMinHeightPx);
    auto* sideTables = new QVBoxLayout;
    sideTables->addWidget(m_tail);
    sideTables->addWidget(m_streams);
    auto* tables = new QHBoxLayout;
    tables->addWidget(m_requestSummary, 1);
    tables->addLayout(sideTables, 1);
    auto* layout = new QVBoxLayout(page);
    layout->addLayout(charts, 3);
    layout->addLayout(tables, 2);
    return page;
}

QWidget* TraceView::buildKernelsPage()
{
    auto* page = new QWidget(this);
    m_kernelChart = addPanel(page);
    m_kernelNote = new QLabel(page);
    m_kernelNote->setWordWrap(true);
    m_kernels = makeSummaryTable(
        {tr("Kernel"), tr("Class"), tr("Count"), tr("Total"), tr("Mean"), tr("Share")}, page);
    m_kernels->setSortingEnabled(true);
    auto* layout = new QGridLayout(page);
    layout->addWidget(m_kernelNote, 0, 0, 1, 2);
    layout->addWidget(m_kernelChart, 1, 0);
    layout->addWidget(m_kernels, 1, 1);
    layout->setColumnStretch(0, 3);
    layout->setColumnStretch(1, 2);
    return page;
}

QWidget* TraceView::buildPowerPage()
{
    auto* page = new QWidget(this);
    m_power = addPanel(page);
    m_clock = addPanel(page);
    m_temperature = addPanel(page);
    m_alignedThroughput = addPanel(page);
    m_powerNote = new QLabel(page);
    m_powerNote->setWordWrap(true);
    // Four time charts stacked: squeezed into a 768 px window each would keep ~60 px of plot
    // and its tick labels would be cut, so each keeps a readable height and the page scrolls.
    constexpr int kTimeChartMinHeightPx = 250;
    for (ChartPanel* panel : {m_power, m_clock, m_temperature, m_alignedThroughput})
        panel->setMinimumHeight(kTimeChartMinHeightPx);
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(m_powerNote);
    layout->addWidget(m_power, 1);
    layout->addWidget(m_clock, 1);
    layout->addWidget(m_temperature, 1);
    layout->addWidget(m_alignedThroughput, 1);
    return page;
}

void TraceView::setLimits(std::optional<double> slaP99Ms, std::optional<double> powerCapW)
{
    if (slaP99Ms == m_slaP99Ms && powerCapW == m_powerCapW)
        return;
    m_slaP99Ms = slaP99Ms;
    m_powerCapW = powerCapW;
    drawRequests();
    drawPower();
}

void TraceView::refreshDatasets()
{
    const auto& project = m_document->project();
    fillDatasetPicker(m_requestPicker, project, data::DatasetKind::RequestTrace);
    fillDatasetPicker(m_kernelPicker, project, data::DatasetKind::KernelTrace);
    fillDatasetPicker(m_powerPicker, project, data::DatasetKind::PowerSeries);
    fillDatasetPicker(m_llmPicker, project, data::DatasetKind::LlmRuns);
    analyseRequests();
    analyseKernels();
    analysePower();
    showLlmRuns();
}

bool TraceView::showLlmPage()
{
    if (m_llmPicker->currentData().toString().isEmpty())
        return false;
    for (int i = 0; i < m_tabs->count(); ++i)
        if (m_tabs->widget(i)->isAncestorOf(m_llmPage))
            m_tabs->setCurrentIndex(i);
    return true;
}

void TraceView::showLlmRuns()
{
    const auto* dataset = findDataset(m_document->project(), m_llmPicker->currentData().toString());
    if (const auto runs = dataset ? dataset->llmRuns() : nullptr) {
        // The power log chosen on the Power page charges the runs' energy, as in the playbook.
        const auto* power =
            findDataset(m_document->project(), m_powerPicker->currentData().toString());
        const auto series = power ? power->powerSeries() : nullptr;
        m_llmPage->showRuns(runs, series, series ? displayText(power->name) : QString());
        return;
    }
    // Projects keep LLM benchmarks by path and read them again in the background on open.
    if (dataset)
        m_llmPage->showEmpty(tr("%1 is kept by path in the project and was not read yet: the "
                                "project reads it again when it opens, and the message bar says "
                                "why when it cannot (moved, deleted). Otherwise import the file "
                                "again (File ▸ Import…) to see its runs.")
                                 .arg(displayText(dataset->name)));
    else if (m_llmPicker->count() > 1)
        m_llmPage->showEmpty(tr("Choose a benchmark file in “LLM runs:” above."));
    else
        m_llmPage->showEmpty(
            tr("No LLM serving benchmark in the project. Import one with File ▸ Import… or drop "
               "it on the window: a vLLM bench serve or SGLang bench_serving result, a "
               "GenAI-Perf or AIPerf export, LLMPerf results, an MLPerf LoadGen log, a "
               "trtllm-bench report or a per-request serving log."));
}

void TraceView::analyseRequests()
{
    const auto* dataset =
        findDataset(m_document->project(), m_requestPicker->currentData().toString());
    const auto trace = dataset ? dataset->requestTrace() : nullptr;
    if (!trace) {
        m_jobs->cancel(QStringLiteral("trace-requests"));
        m_requests.reset();
        m_status->setText(
            dataset ? tr("%1 is referenced but not loaded: the project reads it again when it "
                         "opens, and the message bar says why when it cannot; otherwise import the "
                         "file again (File ▸ Import…).")
                          .arg(QString::fromStdString(dataset->name))
                    : QString());
        drawRequests();
        return;
    }
    m_jobs->run<JobOutcome<analysis::RequestAnalysis>>(
        QStringLiteral("trace-requests"),
        tr("Analysing %1").arg(QString::fromStdString(dataset->name)),
        [trace](JobRunner::Context& context) {
            return JobOutcome<analysis::RequestAnalysis>::from(
                analysis::analyzeRequests(*trace, {}, context.progress, context.cancel));
        },
        [this](JobOutcome<analysis::RequestAnalysis> result) { showRequests(std::move(result)); });
}

void TraceView::analyseKernels()
{
    const auto* dataset =
        findDataset(m_document->project(), m_kernelPicker->currentData().toString());
    const auto trace = dataset ? dataset->kernelTrace() : nullptr;
    if (!trace) {
        m_jobs->cancel(QStringLiteral("trace-kernels"));
        showKernels({nullptr, dataset ? tr("The kernel trace is not loaded.")
                                      : tr("No kernel trace in the project.")});
        return;
    }
    m_jobs->run<JobOutcome<analysis::KernelAnalysis>>(
        QStringLiteral("trace-kernels"),
        tr("Analysing %1").arg(QString::fromStdString(dataset->name)),
        [trace](JobRunner::Context& context) {
            return JobOutcome<analysis::KernelAnalysis>::from(
                analysis::analyzeKernels(*trace, {}, context.progress, context.cancel));
        },
        [this](JobOutcome<analysis::KernelAnalysis> result) { showKernels(std::move(result)); });
}

void TraceView::analysePower()
{
    const auto& project = m_document->project();
    const auto* dataset = findDataset(project, m_powerPicker->currentData().toString());
    const auto series = dataset ? dataset->powerSeries() : nullptr;
    if (!series) {
        m_jobs->cancel(QStringLiteral("trace-power"));
        showPower({nullptr, dataset ? tr("The power log is not loaded.")
                                    : tr("No power log in the project.")});
        return;
    }
    // Completions in Unix seconds, when the chosen request trace has an absolute clock.
    const auto* requests = findDataset(project, m_requestPicker->currentData().toString());
    const auto trace = requests ? requests->requestTrace() : nullptr;
    // The project model's thermal RC, so the log can be checked against what it predicts.
    auto model = accel::modelFromJson(project.model, "project.model", {});
    std::optional<accel::ThermalSpec> thermal;
    std::string modelReason;
    if (!project.model.is_object() || project.model.empty())
        modelReason = "the project has no accelerator model to check the temperatures against";
    else if (!model)
        modelReason = "the project model does not read: " + model.error().message;
    else
        thermal = model->params().effectiveThermal();
    m_jobs->run<JobOutcome<PowerLogAnalysis>>(
        QStringLiteral("trace-power"), tr("Aligning %1").arg(QString::fromStdString(dataset->name)),
        [series, trace, thermal, modelReason](JobRunner::Context&) -> JobOutcome<PowerLogAnalysis> {
            std::vector<double> completionS;
            if (trace && trace->originEpochS > 0.0) {
                completionS = trace->completionS;
                for (double& time : completionS)
                    time += trace->originEpochS;
            }
            auto evidence = analysis::thermalEvidence(*series, completionS);
            if (!evidence)
                return {nullptr, QString::fromStdString(evidence.error().toString())};
            auto result = std::make_shared<PowerLogAnalysis>();
            result->evidence = std::move(*evidence);
            result->modelReason = modelReason;
            if (thermal) {
                if (auto check = analysis::checkThermalModel(*series, *thermal))
                    result->model = std::move(*check);
                else
                    result->modelReason = check.error().message;
            }
            return {std::move(result), {}};
        },
        [this](JobOutcome<PowerLogAnalysis> result) { showPower(std::move(result)); });
}

void TraceView::showRequests(JobOutcome<analysis::RequestAnalysis> result)
{
    m_requests = result.value;
    if (!m_requests)
        m_status->setText(tr("Request analysis failed: %1").arg(result.error));
    else
        m_status->clear();
    drawRequests();
    Q_EMIT analysed();
}

void TraceView::drawRequests()
{
    const analysis::RequestAnalysis empty;
    const auto& analysis = m_requests ? *m_requests : empty;
    m_cdf->setContent(latencyCdfChart(analysis));
    m_percentiles->setContent(percentilesOverTimeChart(analysis, m_slaP99Ms));
    m_throughput->setContent(throughputOverTimeChart(analysis));
    m_batches->setContent(batchSizeHistogramChart(analysis));

    m_requestSummary->setRowCount(0);
    m_tail->setRowCount(0);
    m_streams->setSortingEnabled(false);
    m_streams->setRowCount(0);
    if (!m_requests)
        return;
    appendSummaryRow(m_requestSummary,
                     {tr("Requests"), QLocale().toString(qulonglong(analysis.requests)), {}});
    appendSummaryRow(m_requestSummary,
                     {tr("Completed"), QLocale().toString(qulonglong(analysis.completed)), {}});
    appendSummaryRow(m_requestSummary,
                     {tr("Span"), numberText(analysis.spanS) + QStringLiteral(" s"), {}});
    for (const QStringList& row : tokenSummaryRows(analysis))
        appendSummaryRow(m_requestSummary, row);
    for (const auto& estimate : analysis.latency.percentiles)
        appendSummaryRow(m_requestSummary,
                         {tr("Latency p%1").arg(estimate.probability * 100.0, 0, 'g', 4),
                          msText(estimate.value), intervalMsText(estimate)});
    if (analysis.queueWait.count > 0)
        if (const auto* p99 = analysis.queueWait.at(0.99))
            appendSummaryRow(m_requestSummary,
                             {tr("Queue wait p99"), msText(p99->value), intervalMsText(*p99)});
    if (analysis.batches.available)
        appendSummaryRow(m_requestSummary,
                         {tr("Mean batch (per batch / seen by a request)"),
                          numberText(analysis.batches.meanSize, 3) + QStringLiteral(" / ") +
                              numberText(analysis.batches.meanSizeSeenByRequest, 3),
                          {}});
    // One gap CV everywhere (GUI, `analyze`, reports): the measured one of the trace's gaps,
    // not the fitted model's, which is a property of the model (ArrivalCharacterisation::gapCv).
    if (analysis.arrivals.available)
        appendSummaryRow(m_requestSummary,
                         {tr("Arrival gap CV"), numberText(analysis.arrivals.gapCv, 4),
                          tr("standard deviation ÷ mean of the gaps between "
                             "consecutive arrivals")});
    if (analysis.arrivals.available && analysis.arrivals.chosen >= 0) {
        const auto& fit = analysis.arrivals.fits[std::size_t(analysis.arrivals.chosen)];
        appendSummaryRow(
            m_requestSummary,
            {tr("Arrivals (fitted)"),
             tr("%1, %2 req/s").arg(QString::fromStdString(fit.kind), numberText(fit.ratePerS)),
             QString::fromStdString(analysis.arrivals.choiceReason)});
    }
    if (analysis.fairness.available)
        appendSummaryRow(
            m_requestSummary,
            {tr("Jain's index over stream p99"), numberText(analysis.fairness.jainP99, 3), {}});
    if (analysis.coordinatedOmission.checked)
        appendSummaryRow(m_requestSummary,
                         {tr("Coordinated omission"),
                          QString::fromStdString(analysis.coordinatedOmission.verdict),
                          {}});

    if (analysis.tail.available) {
        for (const auto& part : analysis.tail.components)
            appendSummaryRow(
                m_tail,
                {QString::fromStdString(part.name), msText(part.excessS),
                 numberText(part.share * 100.0, 3) + QStringLiteral(" %"),
                 QStringLiteral("[%1, %2]").arg(msText(part.ciLowS), msText(part.ciHighS))});
    } else {
        appendSummaryRow(
            m_tail, {tr("not available"), QString::fromStdString(analysis.tail.reason), {}, {}});
    }
    for (const auto& stream : analysis.streams)
        appendSummaryRow(m_streams, {QString::fromStdString(stream.name),
                                     QLocale().toString(qulonglong(stream.requests)),
                                     numberText(stream.throughputPerS), msText(stream.p50.value),
                                     msText(stream.p99.value), intervalMsText(stream.p99)});
    m_streams->setSortingEnabled(true);
}

void TraceView::showKernels(JobOutcome<analysis::KernelAnalysis> result)
{
    m_kernels->setSortingEnabled(false);
    m_kernels->setRowCount(0);
    m_kernelResult = result.value;
    if (!m_kernelResult) {
        m_kernelNote->setText(result.error);
        m_kernelChart->setContent(kernelBreakdownChart(analysis::KernelAnalysis{}));
        return;
    }
    const auto& analysis = *m_kernelResult;
    QString note = tr("%1 kernels, %2 memory operations over %3 of device span; steps from %4.")
                       .arg(QLocale().toString(qulonglong(analysis.kernels)))
                       .arg(QLocale().toString(qulonglong(analysis.memoryOps)))
                       .arg(msText(analysis.deviceSpanS))
                       .arg(QString::fromStdString(analysis.stepSource));
    if (!analysis.deviceActivity)
        note = QString::fromStdString(analysis.note);
    else if (std::isfinite(analysis.launchOverheadS.mean))
        note += tr(" Mean launch overhead %1.").arg(msText(analysis.launchOverheadS.mean));
    m_kernelNote->setText(note);
    m_kernelChart->setContent(kernelBreakdownChart(analysis));
    for (const auto& kernel : analysis.topKernels)
        appendSummaryRow(m_kernels,
                         {QString::fromStdString(kernel.name),
                          QString::fromUtf8(analysis::kernelClassName(kernel.kernelClass)),
                          QLocale().toString(qulonglong(kernel.count)), msText(kernel.totalS),
                          msText(kernel.meanS),
                          numberText(kernel.share * 100.0, 3) + QStringLiteral(" %")});
    m_kernels->setSortingEnabled(true);
    Q_EMIT analysed();
}

void TraceView::showPower(JobOutcome<PowerLogAnalysis> result)
{
    m_powerAnalysis = result.value;
    QString note = result.error;
    if (m_powerAnalysis) {
        note = QString::fromStdString(m_powerAnalysis->evidence.verdict);
        const auto& model = m_powerAnalysis->model;
        note += QStringLiteral("\n") +
                (model ? tr("Thermal model: %1").arg(QString::fromStdString(model->verdict))
                       : tr("Thermal model not checked: %1")
                             .arg(QString::fromStdString(m_powerAnalysis->modelReason)));
    }
    m_powerNote->setText(note);
    drawPower();
    Q_EMIT analysed();
}

void TraceView::drawPower()
{
    analysis::ThermalEvidence empty;
    empty.reason = m_powerNote->text().toStdString();
    const auto& evidence = m_powerAnalysis ? m_powerAnalysis->evidence : empty;
    const auto* model =
        m_powerAnalysis && m_powerAnalysis->model ? &*m_powerAnalysis->model : nullptr;
    m_power->setContent(powerTimelineChart(evidence, m_powerCapW));
    m_clock->setContent(smClockChart(evidence));
    m_temperature->setContent(temperatureChart(evidence, model));
    m_alignedThroughput->setContent(alignedThroughputChart(evidence));
}

} // namespace bs::widgets
