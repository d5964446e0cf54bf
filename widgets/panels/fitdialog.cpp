#include "panels/fitdialog.h"

#include "accel/fitreport.h"
#include "accel/presetlibrary.h"
#include "charts/chartpanel.h"
#include "charts/fitcharts.h"
#include "document/projectdocument.h"
#include "jobs/joboutcome.h"
#include "jobs/jobrunner.h"
#include "models/displaytext.h"
#include "views/summarytable.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace bs::widgets {

namespace {

const QString kLane = QStringLiteral("fit");

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

/// The Model dock's model with every calibrated value removed: a fit starts from the presets,
/// not from an earlier fit.
accel::ModelParams uncalibrated(accel::ModelParams params)
{
    params.hostOverheadS.reset();
    params.etaCompute.reset();
    params.etaMemory.reset();
    params.powerIdleW.reset();
    params.powerMaxW.reset();
    params.memoryActivity.reset();
    params.smoothMaxP.reset();
    return params;
}

QString statusOf(const accel::FittedParameter& p)
{
    if (p.fixed)
        return QObject::tr("held at its prior (the data cannot pin it)");
    if (p.atBound)
        return QObject::tr("at its bound [%1, %2]")
            .arg(q(accel::parameterValueText(p.lower, p.unit)),
                 q(accel::parameterValueText(p.upper, p.unit)));
    return QObject::tr("fitted");
}

QString uncertaintyOf(const accel::FittedParameter& p)
{
    if (p.fixed || !std::isfinite(p.uncertainty))
        return QObject::tr("—");
    QString text = QStringLiteral("± ") + q(accel::parameterValueText(p.uncertainty, p.unit));
    if (p.value != 0.0)
        text += QStringLiteral(" (%1%)").arg(
            QLocale().toString(100.0 * p.uncertainty / std::fabs(p.value), 'f', 1));
    return text;
}

} // namespace

QString fitSummaryText(const accel::FitResult& fit)
{
    QString text =
        QObject::tr("R² %1 (service time)").arg(QLocale().toString(fit.rSquared, 'f', 4));
    if (fit.rSquaredPower)
        text += QObject::tr(", %1 (power)").arg(QLocale().toString(*fit.rSquaredPower, 'f', 4));
    text += QObject::tr("; RMS residual %1%, largest %2%")
                .arg(QLocale().toString(100.0 * fit.rmsRelativeResidual, 'f', 1),
                     QLocale().toString(100.0 * fit.maxRelativeResidual, 'f', 1));
    text += QObject::tr("; fitted on batch %1–%2 (%n size(s), run %3 of %4)", nullptr,
                        int(fit.points.size()))
                .arg(fit.fittedMinBatch)
                .arg(fit.fittedMaxBatch)
                .arg(fit.selection.run)
                .arg(fit.selection.runCount);
    text += QObject::tr("; service time from %1")
                .arg(QString::fromUtf8(accel::serviceTimeSourceName(fit.selection.source)));
    if (std::isfinite(fit.crossoverBatch))
        text += QObject::tr("; compute-bound from batch %1")
                    .arg(QLocale().toString(fit.crossoverBatch, 'g', 3));
    else
        text += QObject::tr("; never compute-bound in this model");
    if (!fit.converged)
        text += QObject::tr(". The fit did not converge in %1 iterations").arg(fit.iterations);
    return text + QLatin1Char('.');
}

FitDialog::FitDialog(ProjectDocument* document, JobRunner* jobs, const QString& datasetId,
                     QWidget* parent)
    : QDialog(parent)
    , m_document(document)
    , m_jobs(jobs)
    , m_sweep(new QComboBox(this))
    , m_workloadKnown(new QCheckBox(this))
    , m_run(new QComboBox(this))
    , m_summary(new QLabel(this))
    , m_parameters(makeSummaryTable({tr("Parameter"), tr("Value"), tr("1σ"), tr("Status")}, this))
    , m_findings(new QPlainTextEdit(this))
    , m_use(new QPushButton(tr("Use fitted model"), this))
{
    setObjectName(QStringLiteral("fitDialog"));
    setWindowTitle(tr("Fit the accelerator model to a sweep"));
    int start = -1;
    for (const auto& dataset : m_document->project().datasets) {
        if (!dataset.sweep())
            continue;
        const QString id = q(dataset.id);
        m_sweep->addItem(displayText(dataset.name), id);
        if (id == datasetId ||
            (datasetId.isEmpty() && start < 0 && dataset.role == data::DatasetRole::Baseline))
            start = m_sweep->count() - 1;
    }
    m_sweep->setCurrentIndex(std::max(start, 0));
    const nlohmann::json model = m_document->project().model;
    const std::string workload =
        model.is_object() && model.contains("workload") && model["workload"].is_string()
            ? model["workload"].get<std::string>()
            : std::string();
    m_workloadKnown->setText(
        workload.empty() ? tr("The sweep ran the Model dock's workload")
                         : tr("The sweep ran the Model dock's workload (%1)").arg(q(workload)));
    m_workloadKnown->setToolTip(
        tr("Checked: fit the device's efficiencies and the host overhead for that workload. "
           "Unchecked: the workload is unknown; fit its time terms (compute per item, weight "
           "read, activations per item) and keep them as an inline workload."));
    m_workloadKnown->setChecked(!workload.empty());
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_findings->setReadOnly(true);
    m_findings->setPlaceholderText(tr("Warnings, notes and the identifiability report."));
    m_use->setEnabled(false);
    m_use->setToolTip(tr("Write the calibrated parameters into the project's model (undoable): "
                         "the Sweep overlay, the Simulation and the Region use them"));

    auto* form = new QFormLayout;
    m_run->setToolTip(tr("A file with several runs (perf_analyzer runs, Model Analyzer "
                         "configurations) is fitted one run at a time"));
    listRuns(1);
    form->addRow(tr("Sweep:"), m_sweep);
    form->addRow(tr("Run:"), m_run);
    form->addRow(m_workloadKnown);
    QLayout* charts = chartRow(this, 2, 300, m_panels);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_use, QDialogButtonBox::AcceptRole);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addLayout(charts, 1);
    layout->addWidget(m_parameters);
    layout->addWidget(m_findings);
    layout->addWidget(buttons);

    connect(m_sweep, &QComboBox::currentIndexChanged, this, [this] {
        listRuns(1); // another file: its runs are counted by the next fit
        fit();
    });
    connect(m_run, &QComboBox::activated, this, &FitDialog::fit);
    connect(m_workloadKnown, &QCheckBox::toggled, this, &FitDialog::fit);
    connect(m_use, &QPushButton::clicked, this, &FitDialog::useFittedModel);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(1100, 900);
    fit();
}

Expected<accel::FitOptions> FitDialog::options() const
{
    const auto& library = accel::PresetLibrary::builtIn();
    auto params = accel::paramsFromJson(m_document->project().model, "model", {}, library);
    if (!params)
        return params.error();
    accel::FitOptions options;
    options.start = uncalibrated(*params);
    options.workloadKnown = m_workloadKnown->isChecked();
    options.run = m_run->currentData().toInt();
    options.path = m_sweep->currentText().toStdString();
    return options;
}

void FitDialog::fit()
{
    ++m_generation;
    m_use->setEnabled(false);
    const data::Dataset* dataset = nullptr;
    for (const auto& d : m_document->project().datasets)
        if (q(d.id) == m_sweep->currentData().toString())
            dataset = &d;
    if (!dataset || !dataset->sweep()) {
        showFit(nullptr, tr("No sweep to fit: import a perf_analyzer, Model Analyzer, MLPerf or "
                            "CSV sweep (File ▸ Import…)."));
        return;
    }
    auto options = this->options();
    if (!options) {
        showFit(nullptr,
                tr("The Model dock's model cannot be read: %1").arg(q(options.error().toString())));
        return;
    }
    if (!m_jobs)
        return;
    m_summary->setText(tr("Fitting…"));
    const quint64 generation = m_generation;
    m_jobs->run<JobOutcome<accel::FitResult>>(
        kLane, tr("Fit the model"),
        [sweep = dataset->sweep(), options = std::move(*options)](JobRunner::Context&) {
            return JobOutcome<accel::FitResult>::from(accel::fitToSweep(*sweep, options));
        },
        // Runs only while the lane's job is current: the destructor cancels it.
        [this, generation](JobOutcome<accel::FitResult> outcome) {
            if (m_generation == generation)
                showFit(outcome.value, outcome.error);
        });
}

FitDialog::~FitDialog()
{
    if (m_jobs)
        m_jobs->cancel(kLane);
}

void FitDialog::showFit(std::shared_ptr<const accel::FitResult> result, const QString& error)
{
    m_result = std::move(result);
    m_use->setEnabled(m_result != nullptr);
    m_parameters->setRowCount(0);
    if (!m_result) {
        m_summary->setText(tr("No fit: %1").arg(error));
        m_findings->clear();
        for (ChartPanel* panel : std::as_const(m_panels))
            panel->setContent({});
        Q_EMIT fitShown();
        return;
    }
    const accel::FitResult& fit = *m_result;
    listRuns(fit.selection.runCount);
    m_summary->setText(fitSummaryText(fit));
    showParameters(fit);
    QStringList findings;
    for (const auto& warning : fit.warnings)
        findings << tr("Warning: %1").arg(q(warning));
    for (const auto& note : fit.notes)
        findings << tr("Note: %1").arg(q(note));
    for (const auto& line : accel::identifiabilityLines(fit))
        findings << q(line);
    m_findings->setPlainText(findings.join(QLatin1Char('\n')));
    m_panels[0]->setContent(fitServiceTimeChart(fit));
    m_panels[1]->setContent(fitResidualChart(fit));
    Q_EMIT fitShown();
}

void FitDialog::showParameters(const accel::FitResult& fit)
{
    for (const auto& p : fit.parameters)
        appendSummaryRow(m_parameters, {q(p.name), q(accel::parameterValueText(p.value, p.unit)),
                                        uncertaintyOf(p), statusOf(p)});
}

void FitDialog::listRuns(int runCount)
{
    const int chosen = m_run->currentData().toInt();
    const QSignalBlocker blocker(m_run);
    m_run->clear();
    m_run->addItem(tr("The run with the most batch sizes"), 0);
    for (int run = 1; run <= runCount && runCount > 1; ++run)
        m_run->addItem(tr("Run %1").arg(run), run);
    m_run->setCurrentIndex(std::max(0, m_run->findData(chosen)));
    m_run->setEnabled(runCount > 1);
}

void FitDialog::useFittedModel()
{
    if (!m_result)
        return;
    m_document->setSection(ProjectSection::Model, accel::toJson(m_result->params),
                           tr("Use the model fitted to %1").arg(m_sweep->currentText()));
    accept();
}

} // namespace bs::widgets
