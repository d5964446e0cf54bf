#include "views/regionview.h"

#include "analysis/projectregion.h"
#include "analysis/region.h"
#include "analysis/regiongrid.h"
#include "charts/chartpanel.h"
#include "charts/regioncharts.h"
#include "charts/regionheatmap.h"
#include "charts/regionheatmappanel.h"
#include "charts/sweeprecommendation.h"
#include "document/projectdocument.h"
#include "jobs/joboutcome.h"
#include "jobs/jobrunner.h"
#include "panels/modelpanel.h"
#include "sim/scenariojson.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPointer>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace bs::widgets {

namespace {

const QString kLane = QStringLiteral("region");

QString joinValues(const nlohmann::json& values)
{
    QStringList parts;
    if (values.is_array())
        for (const auto& value : values)
            if (value.is_number())
                parts << QLocale::c().toString(value.get<double>(), 'g', 10);
    return parts.join(QStringLiteral(", "));
}

/// The value at key when it has the wanted type, else the fallback: a hand-edited project with
/// `robust: "yes"` must open (the compute step then names the bad key), never throw.
nlohmann::json valueOfType(const nlohmann::json& object, const char* key, nlohmann::json fallback)
{
    if (!object.is_object())
        return fallback;
    const auto it = object.find(key);
    return it != object.end() && it->type() == fallback.type() ? *it : fallback;
}

std::optional<double> optionalNumber(const nlohmann::json& object, const char* key)
{
    if (object.is_object() && object.contains(key) && object[key].is_number())
        return object[key].get<double>();
    return std::nullopt;
}

QString headroomText(const analysis::Headroom& headroom)
{
    QString text = QObject::tr("Headroom: load ×%1 (%2 req/s, then %3 fails)")
                       .arg(QLocale().toString(headroom.loadMultiplier, 'f', 2),
                            QLocale().toString(headroom.maxRatePerS, 'f', 0),
                            QString::fromUtf8(analysis::constraintName(headroom.loadBinding)));
    if (std::isfinite(headroom.maxArrivalCv) && headroom.maxArrivalCv > 0)
        text += QObject::tr("; burstiness up to gap CV %1 (now %2)")
                    .arg(QLocale().toString(headroom.maxArrivalCv, 'f', 2),
                         QLocale().toString(headroom.baseArrivalCv, 'f', 2));
    else if (!headroom.note.empty())
        text += QStringLiteral("; ") + QString::fromStdString(headroom.note);
    return text;
}

} // namespace

Expected<std::vector<double>> parseValueList(const QString& text, const QString& field)
{
    std::vector<double> values;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const double value = QLocale::c().toDouble(part.trimmed(), &ok);
        if (!ok || !std::isfinite(value))
            return makeError(ErrorCode::Usage, QStringLiteral("%1: '%2' is not a number")
                                                   .arg(field, part.trimmed())
                                                   .toStdString());
        values.push_back(value);
    }
    return values;
}

RegionView::RegionView(ProjectDocument* document, JobRunner* jobs, ModelPanel* model,
                       QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_jobs(jobs)
    , m_model(model)
    , m_maxBatches(new QLineEdit(this))
    , m_delays(new QLineEdit(this))
    , m_rates(new QLineEdit(this))
    , m_objective(new QComboBox(this))
    , m_robust(new QCheckBox(tr("Robust"), this))
    , m_rateSlice(new QComboBox(this))
    , m_limits(new QLabel(this))
    , m_recommendation(new QLabel(this))
    , m_heatmapPanel(new RegionHeatmapPanel(this))
    , m_debounce(new QTimer(this))
{
    m_maxBatches->setObjectName(QStringLiteral("regionMaxBatches"));
    m_delays->setObjectName(QStringLiteral("regionDelays"));
    m_rates->setObjectName(QStringLiteral("regionRates"));
    m_rates->setPlaceholderText(tr("the scenario's rate"));
    m_objective->addItem(tr("Max throughput"), QStringLiteral("max-throughput"));
    m_objective->addItem(tr("Min energy per inference"), QStringLiteral("min-energy"));
    m_objective->addItem(tr("Min p99 latency"), QStringLiteral("min-p99"));
    // The explanation goes in the tooltip: in the label it forced the Region tab wider than
    // the view at 1600 px (horizontal scrolling).
    m_robust->setToolTip(tr("Judge each limit at the pessimistic end of the metric's 95% "
                            "interval instead of at its estimate"));
    m_recommendation->setWordWrap(true);
    m_recommendation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_limits->setWordWrap(true);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(300);

    auto* form = new QFormLayout;
    form->addRow(tr("Max batch values:"), m_maxBatches);
    form->addRow(tr("Max queue delay (ms):"), m_delays);
    form->addRow(tr("Offered rates (req/s):"), m_rates);
    auto* options = new QHBoxLayout;
    options->addWidget(new QLabel(tr("Objective:"), this));
    options->addWidget(m_objective);
    options->addWidget(m_robust);
    options->addStretch(1);
    options->addWidget(new QLabel(tr("Rate slice:"), this));
    options->addWidget(m_rateSlice);
    auto* computeButton = new QPushButton(tr("Compute"), this);
    computeButton->setToolTip(tr("Recompute the region now (it also recomputes on every change)"));
    options->addWidget(computeButton);
    form->addRow(options);
    form->addRow(tr("Limits:"), m_limits);

    auto* charts = new QGridLayout;
    charts->addWidget(m_heatmapPanel, 0, 0);
    for (int i = 0; i < 3; ++i) {
        auto* panel = new ChartPanel(this);
        m_panels.append(panel);
        charts->addWidget(panel, (i + 1) / 2, (i + 1) % 2);
    }
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_recommendation);
    layout->addLayout(charts, 1);

    for (auto* edit : {m_maxBatches, m_delays, m_rates})
        connect(edit, &QLineEdit::editingFinished, this, &RegionView::writeInputsToProject);
    connect(m_objective, &QComboBox::currentIndexChanged, this, &RegionView::writeInputsToProject);
    connect(m_robust, &QCheckBox::toggled, this, &RegionView::writeInputsToProject);
    connect(m_rateSlice, &QComboBox::currentIndexChanged, this, &RegionView::redrawHeatmap);
    connect(computeButton, &QPushButton::clicked, this, &RegionView::compute);
    connect(m_debounce, &QTimer::timeout, this, &RegionView::compute);
    connect(heatmap(), &RegionHeatmap::cellActivated, this, &RegionView::loadCell);
    for (int i : {0, 1})
        connect(m_panels[i], &ChartPanel::pointClicked, this,
                [this, i](const QString&, const QPointF& value) {
                    if (m_result)
                        if (const auto cell = regionCellForPoint(*m_result, value, i == 1))
                            loadCell(*cell);
                });
    connect(m_document, &ProjectDocument::sectionChanged, this, [this](ProjectSection section) {
        if (section == ProjectSection::Region)
            readInputsFromProject();
        if (section != ProjectSection::Memo && section != ProjectSection::Playbook &&
            section != ProjectSection::Llm)
            scheduleCompute();
    });
    connect(m_document, &ProjectDocument::projectReset, this, [this] {
        readInputsFromProject();
        scheduleCompute();
    });
    readInputsFromProject();
    showResult(nullptr, true);
    scheduleCompute();
}

void RegionView::readInputsFromProject()
{
    const nlohmann::json region = m_model->region();
    m_loading = true;
    const nlohmann::json batches =
        valueOfType(region, "max_batch_values", nlohmann::json::array({1, 2, 4, 8, 16, 32, 64}));
    const nlohmann::json delays = valueOfType(region, "max_queue_delay_ms_values",
                                              nlohmann::json::array({0, 0.5, 1, 2, 5, 10}));
    m_maxBatches->setText(joinValues(batches));
    m_delays->setText(joinValues(delays));
    m_rates->setText(joinValues(valueOfType(region, "rate_per_s_values", nlohmann::json::array())));
    const int objective = m_objective->findData(QString::fromStdString(
        valueOfType(region, "objective", "max-throughput").get<std::string>()));
    m_objective->setCurrentIndex(std::max(objective, 0));
    m_robust->setChecked(valueOfType(region, "robust", false).get<bool>());
    QStringList limits;
    if (const auto sla = optionalNumber(region, "sla_p99_ms"))
        limits << tr("p99 ≤ %1 ms").arg(*sla);
    if (const auto power = optionalNumber(region, "max_power_w"))
        limits << tr("power ≤ %1 W").arg(*power);
    if (const auto demand = optionalNumber(region, "min_throughput_per_s"))
        limits << tr("throughput ≥ %1 req/s").arg(*demand);
    if (const auto temperature = optionalNumber(region, "max_temperature_c"))
        limits << tr("temperature ≤ %1 °C").arg(*temperature);
    if (const auto energy = optionalNumber(region, "max_energy_per_inference_j"))
        limits << tr("energy ≤ %1 mJ/inference").arg(*energy * 1e3);
    QString text = limits.join(QStringLiteral(", ")) +
                   tr("   (SLA in the Model dock; other limits in the project's region section)");
    // A wrongly typed key was replaced by its default above; say so rather than hide it.
    if (auto status = analysis::checkRegionSection(region, "region"); !status)
        text += tr("\nThe project's region section is not usable as stored: %1")
                    .arg(QString::fromStdString(status.error().toString()));
    m_limits->setText(text);
    m_loading = false;
}

void RegionView::writeInputsToProject()
{
    if (m_loading)
        return;
    nlohmann::json region = m_model->region();
    auto store = [&](QLineEdit* edit, const char* key, const QString& field) {
        auto values = parseValueList(edit->text(), field);
        if (!values)
            return; // compute() reports it
        if (values->empty())
            region.erase(key);
        else
            region[key] = *values;
    };
    store(m_maxBatches, "max_batch_values", tr("max batch"));
    store(m_delays, "max_queue_delay_ms_values", tr("max queue delay"));
    store(m_rates, "rate_per_s_values", tr("rates"));
    region["objective"] = m_objective->currentData().toString().toStdString();
    region["robust"] = m_robust->isChecked();
    if (region != m_document->project().region)
        m_document->setSection(ProjectSection::Region, region, tr("Change region grid"));
    else
        scheduleCompute();
}

void RegionView::scheduleCompute()
{
    m_jobs->cancel(kLane);
    Q_EMIT resultInvalidated();
    // A grid is dozens of simulations: computed only while the page is on screen, so moving a
    // Model-dock slider elsewhere does not compete with the workbench for the cores.
    if (!isVisible()) {
        m_stale = true;
        return;
    }
    m_debounce->start();
}

void RegionView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale)
        scheduleCompute();
}

RegionHeatmap* RegionView::heatmap() const
{
    return m_heatmapPanel->heatmap();
}

Expected<analysis::RegionSpec> RegionView::currentSpec() const
{
    // The grid as typed (not yet stored), the limits from the project: the same spec the
    // report's curve pack computes (analysis::regionSpecFromSections).
    nlohmann::json region = m_model->region();
    const std::pair<QLineEdit*, const char*> axes[] = {
        {m_maxBatches, "max_batch_values"},
        {m_delays, "max_queue_delay_ms_values"},
        {m_rates, "rate_per_s_values"},
    };
    for (const auto& [edit, key] : axes) {
        auto values = parseValueList(edit->text(), QString::fromLatin1(key));
        if (!values)
            return values.error();
        region[key] = *values;
    }
    region["objective"] = m_objective->currentData().toString().toStdString();
    region["robust"] = m_robust->isChecked();
    auto spec = analysis::regionSpecFromSections(m_model->scenario(), m_model->model(), region);
    if (!spec)
        return spec.error();
    if (!*spec)
        return makeError(ErrorCode::Value, "region: set an SLA (p99) in the Model dock first");
    return std::move(**spec);
}

void RegionView::compute()
{
    m_debounce->stop();
    m_stale = false;
    auto spec = currentSpec();
    if (!spec) {
        m_recommendation->setText(tr("Cannot compute the region: %1")
                                      .arg(QString::fromStdString(spec.error().toString())));
        showResult(nullptr, true);
        return;
    }
    const quint64 generation = ++m_generation;
    // The preview arrives on the computing thread; it is drawn on the GUI thread unless a newer
    // computation has started meanwhile. Qt drops the queued call if the view is gone by then.
    RegionView* view = this;
    QPointer<RegionView> guard(this);
    auto onPreview = [view, guard, generation](const analysis::RegionResult& preview) {
        if (!guard)
            return;
        auto copy = std::make_shared<const analysis::RegionResult>(preview);
        QMetaObject::invokeMethod(
            view,
            [view, generation, copy] {
                if (view->m_generation == generation)
                    view->showResult(copy, false);
            },
            Qt::QueuedConnection);
    };
    m_recommendation->setText(tr("Computing the region…"));
    m_jobs->run<JobOutcome<analysis::RegionResult>>(
        kLane, tr("Feasible region"),
        [spec = std::move(*spec), onPreview](JobRunner::Context& context) {
            return JobOutcome<analysis::RegionResult>::from(
                analysis::computeRegion(spec, {}, context.progress, context.cancel, onPreview));
        },
        [this, generation](JobOutcome<analysis::RegionResult> result) {
            if (generation != m_generation)
                return;
            if (!result.value) {
                m_recommendation->setText(tr("Region failed: %1").arg(result.error));
                return;
            }
            showResult(result.value, true);
        });
}

QString RegionView::recommendationText(const analysis::RegionResult& result) const
{
    const auto& s = result.summary;
    QString counts = tr("%1 feasible, %2 infeasible, %3 unstable of %4 cells (%5 short runs, %6 "
                        "full simulations)")
                         .arg(s.feasible)
                         .arg(s.infeasible)
                         .arg(s.unstable)
                         .arg(result.cells.size())
                         .arg(s.shortRun)
                         .arg(s.simulated);
    if (result.stage == analysis::RegionStage::Preview)
        return tr("Preview from short runs — confirming cells near the boundary by full runs; the "
                  "recommendation follows on full runs only. ") +
               counts;
    if (!result.recommendation)
        return counts + tr(". No feasible cell: no recommendation.");
    const auto* cell = result.cell(result.recommendation->cell);
    if (!cell)
        return counts;
    const auto& p99 = cell->metrics.p99S;
    QString text =
        tr("<b>Recommended (%1):</b> %2 → %3 req/s at p99 %4 ms (95% interval %5–%6 ms; %7)")
            .arg(QString::fromUtf8(analysis::objectiveName(result.recommendation->objective)),
                 regionCellPolicyText(result, *cell).toHtmlEscaped(),
                 QLocale().toString(cell->metrics.throughputPerS.value, 'f', 0),
                 QLocale().toString(p99.value * 1e3, 'g', 4),
                 QLocale().toString(p99.ciLow * 1e3, 'g', 4),
                 QLocale().toString(p99.ciHigh * 1e3, 'g', 4),
                 QString::fromStdString(analysis::cellEvidence(*cell)).toHtmlEscaped());
    if (result.recommendation->indistinguishableCells.size() > 1)
        text += tr("; chosen among %1 cells the simulation cannot tell apart on the objective, by "
                   "the secondary metrics")
                    .arg(result.recommendation->indistinguishableCells.size());
    if (result.recommendation->headroom)
        text +=
            QStringLiteral(". ") + headroomText(*result.recommendation->headroom).toHtmlEscaped();
    return text + QStringLiteral("<br>") + counts.toHtmlEscaped();
}

void RegionView::showResult(std::shared_ptr<const analysis::RegionResult> result, bool complete)
{
    m_result = std::move(result);
    const analysis::RegionResult empty;
    const auto& shown = m_result ? *m_result : empty;
    {
        const QSignalBlocker blocker(m_rateSlice);
        const int previous = m_rateSlice->currentIndex();
        m_rateSlice->clear();
        for (std::size_t axis = 0; axis < shown.spec.axes.size(); ++axis)
            if (shown.spec.axes[axis].isRate())
                for (std::size_t i = 0; i < shown.spec.axes[axis].size(); ++i)
                    m_rateSlice->addItem(QString::fromStdString(shown.spec.axes[axis].label(i)) +
                                         tr(" req/s"));
        m_rateSlice->setEnabled(m_rateSlice->count() > 0);
        m_rateSlice->setCurrentIndex(
            std::clamp(previous, 0, std::max(0, m_rateSlice->count() - 1)));
    }
    redrawHeatmap();
    m_panels[0]->setContent(regionLatencyThroughputChart(shown));
    m_panels[1]->setContent(regionEnergyThroughputChart(shown));
    m_panels[2]->setContent(regionCapacityChart(shown));
    if (m_result)
        m_recommendation->setText(recommendationText(*m_result));
    if (m_result)
        Q_EMIT resultShown(complete);
}

void RegionView::redrawHeatmap()
{
    if (!m_result) {
        m_heatmapPanel->setResult(nullptr, 0, 1, {});
        return;
    }
    const auto& axes = m_result->spec.axes;
    std::vector<std::size_t> fixed(axes.size(), 0);
    std::vector<std::size_t> shownAxes;
    for (std::size_t axis = 0; axis < axes.size(); ++axis) {
        if (axes[axis].isRate())
            fixed[axis] = std::size_t(std::max(0, m_rateSlice->currentIndex()));
        else
            shownAxes.push_back(axis);
    }
    // Without a second policy axis the rate goes up the heatmap.
    for (std::size_t axis = 0; axis < axes.size() && shownAxes.size() < 2; ++axis)
        if (axes[axis].isRate())
            shownAxes.push_back(axis);
    const std::size_t column = shownAxes.empty() ? 0 : shownAxes[0];
    const std::size_t row = shownAxes.size() > 1 ? shownAxes[1] : column;
    m_heatmapPanel->setResult(m_result, column, row, fixed);
}

void RegionView::loadCell(std::size_t cellIndex)
{
    if (!m_result)
        return;
    auto grid = analysis::RegionGrid::create(m_result->spec, m_result->baseDirectory);
    if (!grid || cellIndex >= grid->cellCount())
        return;
    nlohmann::json scenario = sim::scenarioToJson(grid->cellScenario(cellIndex));
    // Keep the scenario's service as the Model dock has it (the model lives in its own section).
    const nlohmann::json current = m_model->scenario();
    if (current.contains("service"))
        scenario["service"] = current["service"];
    nlohmann::json scenarios = m_document->project().scenarios;
    if (!scenarios.is_array() || scenarios.empty())
        scenarios = nlohmann::json::array({scenario});
    else
        scenarios[0] = scenario;
    m_document->setSection(ProjectSection::Scenarios, scenarios,
                           tr("Load region cell %1").arg(cellIndex));
}

} // namespace bs::widgets
