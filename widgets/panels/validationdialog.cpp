#include "panels/validationdialog.h"

#include "analysis/tritonconfig.h"
#include "charts/chartpanel.h"
#include "charts/validationcharts.h"
#include "data/tritonsettings.h"
#include "document/projectdocument.h"
#include "jobs/joboutcome.h"
#include "jobs/jobrunner.h"
#include "models/displaytext.h"
#include "views/regionview.h"
#include "views/summarytable.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace bs::widgets {

namespace {

const QString kLane = QStringLiteral("validation");

QString percent(double fraction)
{
    return QLocale().toString(fraction * 100.0, 'f', 1) + QLatin1Char('%');
}

QString signedPercent(double fraction)
{
    return (fraction >= 0 ? QStringLiteral("+") : QString()) + percent(fraction);
}

} // namespace

QString validationSummaryText(const analysis::PerfAnalyzerValidation& validation)
{
    const auto s = analysis::summarizeResiduals(validation);
    auto line = [](const QString& name, const analysis::ResidualSpread& spread) {
        return QObject::tr("%1 median |error| %2 (worst %3)")
            .arg(name, percent(spread.medianAbs), percent(spread.worstAbs));
    };
    return QObject::tr("Predicted beside measured over %n row(s): ", nullptr,
                       int(validation.rows.size())) +
           QStringList{line(QObject::tr("throughput"), s.throughput),
                       line(QString::fromLatin1(validation.rows.empty()
                                                    ? "p50"
                                                    : validation.rows.front().centralName()),
                            s.central),
                       line(QObject::tr("p99"), s.p99)}
               .join(QStringLiteral("; ")) +
           QObject::tr(". Nothing was fitted to the measured throughput or latency.");
}

ValidationDialog::ValidationDialog(ProjectDocument* document, JobRunner* jobs,
                                   const QString& datasetId, QWidget* parent)
    : QDialog(parent)
    , m_document(document)
    , m_jobs(jobs)
    , m_sweep(new QComboBox(this))
    , m_instances(new QSpinBox(this))
    , m_maxBatch(new QSpinBox(this))
    , m_preferred(new QLineEdit(this))
    , m_maxQueueDelayUs(new QDoubleSpinBox(this))
    , m_requests(new QSpinBox(this))
    , m_predict(new QPushButton(tr("Predict"), this))
    , m_summary(new QLabel(this))
    , m_settingsSource(new QLabel(this))
    , m_rows(makeSummaryTable({tr("Row"), tr("Batch"), tr("Load"),
                               tr("Throughput predicted / measured (inf/s)"), tr("Error"),
                               tr("p50 predicted / measured"), tr("Error"),
                               tr("p99 predicted / measured"), tr("Error")},
                              this))
    , m_assumptions(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("validationDialog"));
    setWindowTitle(tr("Predict a perf_analyzer sweep and compare"));
    // The selected sweep when it is a perf_analyzer one, else the first perf_analyzer sweep,
    // else the selected one (whose error then says what is missing).
    int selected = -1, firstPerfAnalyzer = -1, selectedPerfAnalyzer = -1;
    for (const auto& dataset : m_document->project().datasets) {
        if (!dataset.sweep())
            continue;
        const QString id = QString::fromStdString(dataset.id);
        m_sweep->addItem(displayText(dataset.name), id);
        const int index = m_sweep->count() - 1;
        const bool perfAnalyzer = dataset.provenance.reader == "perf_analyzer" ||
                                  dataset.provenance.reader == "model_analyzer_checkpoint";
        if (id == datasetId)
            (perfAnalyzer ? selectedPerfAnalyzer : selected) = index;
        if (perfAnalyzer && firstPerfAnalyzer < 0)
            firstPerfAnalyzer = index;
    }
    const int start = selectedPerfAnalyzer >= 0 ? selectedPerfAnalyzer
                      : firstPerfAnalyzer >= 0  ? firstPerfAnalyzer
                                                : selected;
    m_sweep->setCurrentIndex(std::max(start, 0));
    // Triton's defaults; the CSV does not state the model's settings (its config.pbtxt does).
    m_instances->setRange(1, 64);
    m_instances->setToolTip(tr("instance_group count of the model on the GPU"));
    m_maxBatch->setRange(0, 65536);
    m_maxBatch->setSpecialValueText(tr("no dynamic batching"));
    m_maxBatch->setToolTip(tr("max_batch_size with dynamic batching, in items (a batch holds "
                              "whole requests of the row's batch size)"));
    m_preferred->setPlaceholderText(tr("none (e.g. 4, 8)"));
    m_preferred->setToolTip(tr("dynamic_batching preferred_batch_size"));
    m_maxQueueDelayUs->setRange(0.0, 1e7);
    m_maxQueueDelayUs->setDecimals(0);
    m_maxQueueDelayUs->setSuffix(tr(" µs"));
    m_maxQueueDelayUs->setToolTip(tr("dynamic_batching max_queue_delay_microseconds"));
    m_requests->setRange(1000, 10'000'000);
    m_requests->setSingleStep(10000);
    m_requests->setValue(20000);
    m_requests->setToolTip(tr("Measured requests per replication of each row (5 replications)"));
    m_summary->setWordWrap(true);
    m_settingsSource->setWordWrap(true);
    m_settingsSource->setVisible(false);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_assumptions->setReadOnly(true);
    m_assumptions->setPlaceholderText(tr("Every setting the prediction assumed."));

    auto* form = new QFormLayout;
    form->addRow(tr("Sweep:"), m_sweep);
    form->addRow(m_settingsSource);
    form->addRow(tr("Model instances:"), m_instances);
    form->addRow(tr("Max batch (items):"), m_maxBatch);
    form->addRow(tr("Preferred batch sizes:"), m_preferred);
    form->addRow(tr("Max queue delay:"), m_maxQueueDelayUs);
    form->addRow(tr("Requests per replication:"), m_requests);
    auto* readConfig = new QPushButton(tr("Read config.pbtxt…"), this);
    m_readConfig = readConfig;
    readConfig->setToolTip(tr("Take the instances, max batch, preferred sizes and queue delay "
                              "from the model's Triton configuration"));
    connect(readConfig, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Triton model configuration"), {},
            tr("Triton configuration (config.pbtxt *.pbtxt);;All files (*)"));
        if (!path.isEmpty())
            loadTritonConfig(path);
    });
    auto* actions = new QHBoxLayout;
    actions->addWidget(readConfig);
    actions->addWidget(m_predict, 1);
    form->addRow(actions);
    QLayout* charts = chartRow(this, 2, 300, m_panels);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addLayout(charts, 1);
    layout->addWidget(m_rows);
    layout->addWidget(m_assumptions);
    layout->addWidget(buttons);

    connect(m_predict, &QPushButton::clicked, this, &ValidationDialog::predict);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(1200, 950);
    predict();
}

ValidationDialog::~ValidationDialog()
{
    if (m_jobs)
        m_jobs->cancel(kLane);
}

Expected<analysis::TritonModelSettings> ValidationDialog::settings() const
{
    analysis::TritonModelSettings settings;
    settings.instances = m_instances->value();
    settings.maxBatchItems = m_maxBatch->value();
    auto preferred = parseValueList(m_preferred->text(), tr("preferred batch sizes"));
    if (!preferred)
        return preferred.error();
    for (double items : *preferred) {
        if (items < 1 || items != std::floor(items) || items > settings.maxBatchItems)
            return makeError(ErrorCode::Value,
                             tr("preferred batch sizes: %1 is not a whole number from 1 to the "
                                "max batch (%2)")
                                 .arg(items)
                                 .arg(settings.maxBatchItems)
                                 .toStdString());
        settings.preferredBatchItems.push_back(int(items));
    }
    settings.maxQueueDelayS = m_maxQueueDelayUs->value() / 1e6;
    return settings;
}

bool ValidationDialog::loadTritonConfig(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_summary->setText(tr("%1 cannot be read: %2").arg(path, file.errorString()));
        return false;
    }
    const auto settings =
        analysis::tritonSettingsFromConfig(file.readAll().toStdString(), path.toStdString());
    if (!settings) {
        m_summary->setText(tr("The configuration was not used: %1")
                               .arg(QString::fromStdString(settings.error().toString())));
        return false;
    }
    m_instances->setValue(settings->instances);
    m_maxBatch->setValue(settings->maxBatchItems);
    QStringList preferred;
    for (int items : settings->preferredBatchItems)
        preferred << QString::number(items);
    m_preferred->setText(preferred.join(QStringLiteral(", ")));
    m_maxQueueDelayUs->setValue(settings->maxQueueDelayS * 1e6);
    predict();
    return true;
}

void ValidationDialog::predict()
{
    const quint64 generation = ++m_generation;
    const data::Dataset* dataset = nullptr;
    for (const auto& d : m_document->project().datasets)
        if (QString::fromStdString(d.id) == m_sweep->currentData().toString())
            dataset = &d;
    if (!dataset || !dataset->sweep()) {
        showPrediction(nullptr, tr("no sweep to predict: import a perf_analyzer CSV or a Model "
                                   "Analyzer checkpoint (File ▸ Import…)."));
        return;
    }
    showSettingsSource(*dataset->sweep());
    auto settings = this->settings();
    if (!settings) {
        showPrediction(nullptr, QString::fromStdString(settings.error().toString()));
        return;
    }
    if (!m_jobs)
        return;
    m_summary->setText(tr("Predicting every row…"));
    const auto requests = std::uint64_t(m_requests->value());
    m_jobs->run<JobOutcome<analysis::PerfAnalyzerValidation>>(
        kLane, tr("Predict the perf_analyzer sweep"),
        [sweep = dataset->sweep(), settings = *settings, requests](JobRunner::Context& context) {
            return JobOutcome<analysis::PerfAnalyzerValidation>::from(
                analysis::validatePerfAnalyzer(*sweep, settings, requests, context.cancel));
        },
        // Runs only while the lane's job is current: the destructor cancels it.
        [this, generation](JobOutcome<analysis::PerfAnalyzerValidation> outcome) {
            if (m_generation == generation)
                showPrediction(outcome.value, outcome.error);
        });
}

void ValidationDialog::showSettingsSource(const data::SweepTable& sweep)
{
    std::set<std::string> series;
    for (const auto& point : sweep.points)
        series.insert(point.series);
    const bool allStated =
        !series.empty() && std::all_of(series.begin(), series.end(), [&](const auto& name) {
            return data::tritonSettingsOf(sweep, name).has_value();
        });
    for (QWidget* field : std::initializer_list<QWidget*>{m_instances, m_maxBatch, m_preferred,
                                                          m_maxQueueDelayUs, m_readConfig})
        field->setEnabled(!allStated);
    m_settingsSource->setVisible(allStated);
    m_settingsSource->setText(
        tr("This sweep states each configuration's instances and batching (%n configuration(s)): "
           "every row runs under its own, listed under the table; the fields below are not "
           "used.",
           nullptr, int(series.size())));
}

void ValidationDialog::showPrediction(
    std::shared_ptr<const analysis::PerfAnalyzerValidation> result, const QString& error)
{
    m_result = std::move(result);
    m_rows->setRowCount(0);
    if (!m_result) {
        m_summary->setText(tr("No prediction: %1").arg(error));
        m_assumptions->clear();
        for (ChartPanel* panel : std::as_const(m_panels))
            panel->setContent({});
        Q_EMIT predictionShown();
        return;
    }
    m_summary->setText(validationSummaryText(*m_result));
    if (!m_result->rows.empty())
        m_rows->horizontalHeaderItem(5)->setText(
            tr("%1 predicted / measured")
                .arg(QString::fromLatin1(m_result->rows.front().centralName())));
    for (const auto& row : m_result->rows) {
        const auto r = row.residuals();
        appendSummaryRow(
            m_rows,
            {QString::number(row.row + 1) +
                 (row.calibratesSeries ? QStringLiteral("*") : QString()),
             QString::number(row.batchItems),
             row.concurrency > 0 ? QString::number(row.concurrency)
                                 : tr("%1/s").arg(QLocale().toString(row.requestRatePerS)),
             QStringLiteral("%1 / %2").arg(QLocale().toString(row.predictedItemsPerS, 'f', 0),
                                           QLocale().toString(row.measuredItemsPerS, 'f', 0)),
             signedPercent(r.throughput),
             QStringLiteral("%1 / %2").arg(msText(row.predictedCentralS),
                                           msText(row.measuredCentralS)),
             signedPercent(r.central),
             QStringLiteral("%1 / %2").arg(msText(row.predictedP99S), msText(row.measuredP99S)),
             signedPercent(r.p99)});
    }
    QStringList assumed;
    for (const auto& assumption : m_result->assumptions)
        assumed << QStringLiteral("• ") + QString::fromStdString(assumption);
    m_assumptions->setPlainText(assumed.join(QLatin1Char('\n')));
    m_panels[0]->setContent(validationThroughputChart(*m_result));
    m_panels[1]->setContent(validationLatencyChart(*m_result));
    Q_EMIT predictionShown();
}

} // namespace bs::widgets
