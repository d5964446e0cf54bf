#include "panels/modelpanel.h"

#include "accel/precision.h"
#include "accel/presetlibrary.h"
#include "document/projectdocument.h"
#include "models/displaytext.h"
#include "workbench/replayarrivals.h"
#include "workbench/servicetable.h"
#include "workbench/workbenchdefaults.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QStandardItemModel>
#include <QVBoxLayout>

namespace bs::widgets {

namespace {

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

std::string stringAt(const nlohmann::json& object, const char* key, const std::string& fallback)
{
    if (object.is_object() && object.contains(key) && object[key].is_string())
        return object[key].get<std::string>();
    return fallback;
}

double numberAt(const nlohmann::json& object, const char* key, double fallback)
{
    if (object.is_object() && object.contains(key) && object[key].is_number())
        return object[key].get<double>();
    return fallback;
}

/// The object at key, or an empty object: project files are user input and are not trusted.
nlohmann::json objectAt(const nlohmann::json& object, const char* key)
{
    if (object.is_object() && object.contains(key) && object[key].is_object())
        return object[key];
    return nlohmann::json::object();
}

bool boolAt(const nlohmann::json& object, const char* key, bool fallback)
{
    if (object.is_object() && object.contains(key) && object[key].is_boolean())
        return object[key].get<bool>();
    return fallback;
}

void selectData(QComboBox* combo, const QString& data)
{
    const int index = combo->findData(data);
    if (index >= 0)
        combo->setCurrentIndex(index);
}

constexpr int kComboMergeId = -1; // a combo choice is always its own undo step

const QString kReplayPrefix = QStringLiteral("replay:");

/// The model keys a fit writes over the presets' values (accel::toJson(ModelParams)).
constexpr const char* kCalibratedKeys[] = {"host_overhead_us", "eta_compute", "eta_memory",
                                           "power_idle_w",     "power_max_w", "memory_activity",
                                           "smooth_max_p"};

/// Choosing another accelerator or workload starts again from the presets: values calibrated
/// for the other one would silently carry over.
void dropCalibration(nlohmann::json& model)
{
    for (const char* key : kCalibratedKeys)
        model.erase(key);
}

} // namespace

ModelPanel::ModelPanel(ProjectDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
{
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    m_summary = new QLabel(content);
    m_summary->setObjectName(QStringLiteral("runSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    layout->addWidget(m_summary);
    layout->addWidget(buildModelGroup());
    layout->addWidget(buildTrafficGroup());
    layout->addWidget(buildPolicyGroup());
    layout->addWidget(buildLimitsGroup());
    layout->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    connect(m_document, &ProjectDocument::projectReset, this, &ModelPanel::loadFromDocument);
    connect(m_document, &ProjectDocument::datasetsChanged, this, &ModelPanel::loadFromDocument);
    connect(m_document, &ProjectDocument::sectionChanged, this, [this](ProjectSection section) {
        if (section != ProjectSection::Memo && section != ProjectSection::Playbook &&
            section != ProjectSection::Llm)
            loadFromDocument();
    });
    loadFromDocument();
}

ParameterControl* ModelPanel::addControl(QFormLayout* form, const QString& objectName,
                                         const ParameterControl::Spec& spec)
{
    auto* control = new ParameterControl(spec, this);
    control->setObjectName(objectName);
    form->addRow(spec.label, control);
    return control;
}

ParameterControl* ModelPanel::control(const QString& objectName) const
{
    return findChild<ParameterControl*>(objectName);
}

void ModelPanel::setRunSummary(const QString& text)
{
    m_summary->setText(text);
}

QWidget* ModelPanel::buildModelGroup()
{
    auto* box = new QGroupBox(tr("Accelerator model"), this);
    auto* form = new QFormLayout(box);
    const accel::PresetLibrary& presets = accel::PresetLibrary::builtIn();
    m_accelerator = new QComboBox(box);
    m_accelerator->setObjectName(QStringLiteral("accelerator"));
    for (const auto& name : presets.acceleratorNames())
        m_accelerator->addItem(q(name), q(name));
    m_workload = new QComboBox(box);
    m_workload->setObjectName(QStringLiteral("workload"));
    for (const auto& name : presets.workloadNames())
        m_workload->addItem(q(name), q(name));
    m_precision = new QComboBox(box);
    for (accel::Precision p : accel::kAllPrecisions)
        m_precision->addItem(QString::fromLatin1(accel::precisionName(p)),
                             QString::fromLatin1(accel::precisionName(p)));
    form->addRow(tr("Accelerator"), m_accelerator);
    form->addRow(tr("Workload"), m_workload);
    form->addRow(tr("Precision"), m_precision);
    m_fusion = addControl(form, QStringLiteral("fusion"),
                          {tr("Fusion factor"), QStringLiteral("×"), 1.0, 16.0, 2, true, 0.25,
                           tr("φ: kernels are fused φ-fold: fewer launches, more bytes per item")});
    m_capEnabled = new QCheckBox(tr("Power cap"), box);
    m_powerCap = addControl(form, QStringLiteral("powerCap"),
                            {tr("Cap"), QStringLiteral("W"), 50.0, 1000.0, 0, false, 5.0,
                             tr("Board power limit: the clock drops until it holds")});
    form->addRow(m_capEnabled);
    m_thermal = new QCheckBox(tr("Thermal throttling"), box);
    m_thermal->setToolTip(tr("RC thermal model: sustained load can heat the device to its limit"));
    form->addRow(m_thermal);

    connect(m_accelerator, &QComboBox::activated, this, [this]() {
        if (m_accelerator->currentData().toString().isEmpty())
            return; // the fitted spec, already in use
        editModel(
            [this](nlohmann::json& m) {
                m["accelerator"] = m_accelerator->currentData().toString().toStdString();
                dropCalibration(m);
            },
            tr("Choose accelerator"), kComboMergeId);
    });
    connect(m_workload, &QComboBox::activated, this, [this]() {
        if (m_workload->currentData().toString().isEmpty())
            return; // the fitted spec, already in use
        editModel(
            [this](nlohmann::json& m) {
                m["workload"] = m_workload->currentData().toString().toStdString();
                m.erase("precision"); // the workload's own precision until chosen again
                dropCalibration(m);
            },
            tr("Choose workload"), kComboMergeId);
    });
    connect(m_precision, &QComboBox::activated, this, [this]() {
        editModel(
            [this](nlohmann::json& m) {
                m["precision"] = m_precision->currentData().toString().toStdString();
            },
            tr("Choose precision"), kComboMergeId);
    });
    connect(m_fusion, &ParameterControl::valueEdited, this, [this](double v, int id) {
        editModel([v](nlohmann::json& m) { m["fusion_factor"] = v; }, tr("Set fusion factor"), id);
    });
    connect(m_capEnabled, &QCheckBox::toggled, this, [this](bool on) {
        if (m_loading)
            return;
        editModel(
            [this, on](nlohmann::json& m) {
                if (on)
                    m["power_cap_w"] = m_powerCap->value();
                else
                    m.erase("power_cap_w");
            },
            on ? tr("Set a power cap") : tr("Remove the power cap"), kComboMergeId);
    });
    connect(m_powerCap, &ParameterControl::valueEdited, this, [this](double v, int id) {
        editModel([v](nlohmann::json& m) { m["power_cap_w"] = v; }, tr("Set power cap"), id);
    });
    connect(m_thermal, &QCheckBox::toggled, this, [this](bool on) {
        if (m_loading)
            return;
        editModel([on](nlohmann::json& m) { m["thermal"]["enabled"] = on; },
                  tr("Toggle thermal throttling"), kComboMergeId);
    });
    m_calibration = new QLabel(box);
    m_calibration->setObjectName(QStringLiteral("calibrationNote"));
    m_calibration->setWordWrap(true);
    m_calibration->setTextFormat(Qt::PlainText);
    form->addRow(m_calibration);
    auto* fit = new QPushButton(tr("Fit to a sweep…"), box);
    fit->setObjectName(QStringLiteral("fitToSweep"));
    fit->setToolTip(tr("Calibrate this model against a measured sweep of the project: see the "
                       "fit, its uncertainty and residuals before using it"));
    connect(fit, &QPushButton::clicked, this, &ModelPanel::fitRequested);
    form->addRow(fit);
    return box;
}

void ModelPanel::showSpecChoice(QComboBox* combo, const nlohmann::json& model, const char* key,
                                const char* fallback)
{
    // A fitted spec is written inline; it gets its own entry (data empty), removed again once a
    // preset is chosen.
    for (int i = combo->count() - 1; i >= 0; --i)
        if (combo->itemData(i).toString().isEmpty())
            combo->removeItem(i);
    const nlohmann::json value = model.is_object() && model.contains(key) ? model[key] : nullptr;
    if (value.is_object()) {
        combo->addItem(tr("Fitted: %1").arg(q(stringAt(value, "name", "unnamed"))), QString());
        combo->setCurrentIndex(combo->count() - 1);
        return;
    }
    selectData(combo, q(value.is_string() ? value.get<std::string>() : std::string(fallback)));
}

void ModelPanel::showCalibration(const nlohmann::json& model)
{
    QStringList calibrated;
    for (const char* key : kCalibratedKeys)
        if (model.is_object() && model.contains(key) && model[key].is_number())
            calibrated << QStringLiteral("%1 = %2").arg(
                QString::fromLatin1(key), QLocale().toString(model[key].get<double>(), 'g', 4));
    const bool inlineWorkload =
        model.is_object() && model.contains("workload") && model["workload"].is_object();
    if (inlineWorkload)
        calibrated << tr("the workload's time terms");
    m_calibration->setVisible(!calibrated.isEmpty());
    m_calibration->setText(
        calibrated.isEmpty()
            ? QString()
            : tr("Calibrated by a fit: %1. Choosing another accelerator or workload returns to "
                 "the presets' values.")
                  .arg(calibrated.join(QStringLiteral(", "))));
}

QWidget* ModelPanel::buildTrafficGroup()
{
    auto* box = new QGroupBox(tr("Traffic and service"), this);
    auto* form = new QFormLayout(box);
    m_service = new QComboBox(box);
    m_service->setToolTip(tr("What sets the service time of a batch in the simulator"));
    form->addRow(tr("Service time"), m_service);
    m_arrivalKind = new QComboBox(box);
    m_arrivalKind->setObjectName(QStringLiteral("arrivals"));
    // A long trace name must not widen the dock: the combo elides, its popup shows all.
    m_arrivalKind->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_arrivalKind->setMinimumContentsLength(16);
    m_arrivalKind->setToolTip(tr("How requests arrive: a traffic model, or an imported request "
                                 "trace replayed once in arrival order"));
    form->addRow(tr("Arrivals"), m_arrivalKind);
    m_rate = addControl(
        form, QStringLiteral("rate"),
        {tr("Arrival rate"), tr("req/s"), 1.0, 1.0e6, 0, true, 50.0, tr("Mean offered load")});
    m_burstiness = addControl(form, QStringLiteral("burstiness"),
                              {tr("Burstiness"), QString(), 0.0, 20.0, 2, true, 0.1,
                               tr("Gamma: coefficient of variation of the gaps (1 = Poisson). "
                                  "MMPP-2: burst rate ÷ calm rate."),
                               0.1});
    m_servers = addControl(
        form, QStringLiteral("servers"),
        {tr("Servers"), QString(), 1.0, 64.0, 0, false, 1.0, tr("Replicas sharing one queue")});

    connect(m_service, &QComboBox::activated, this, [this]() {
        const QString choice = m_service->currentData().toString();
        if (choice.isEmpty())
            return;
        nlohmann::json service = {{"kind", "accelerator"}};
        if (choice.startsWith(QLatin1String("dataset:"))) {
            const auto* dataset = m_document->project().findDataset(choice.mid(8).toStdString());
            const auto table = dataset && dataset->sweep()
                                   ? serviceTableFromSweep(*dataset->sweep())
                                   : std::nullopt;
            if (!table)
                return;
            service = *table;
        }
        editScenario([service](nlohmann::json& s) { s["service"] = service; },
                     tr("Choose service time source"), kComboMergeId);
    });
    connect(m_arrivalKind, &QComboBox::activated, this, &ModelPanel::chooseArrivals);
    connect(m_rate, &ParameterControl::valueEdited, this, &ModelPanel::editRate);
    connect(m_burstiness, &ParameterControl::valueEdited, this, &ModelPanel::editBurstiness);
    connect(m_servers, &ParameterControl::valueEdited, this, [this](double v, int id) {
        editScenario([v](nlohmann::json& s) { s["servers"]["count"] = int(v); }, tr("Set servers"),
                     id);
    });
    return box;
}

QWidget* ModelPanel::buildPolicyGroup()
{
    auto* box = new QGroupBox(tr("Batching policy (Triton dynamic batcher)"), this);
    auto* form = new QFormLayout(box);
    m_maxBatch = addControl(form, QStringLiteral("maxBatch"),
                            {tr("Max batch"), tr("items"), 1.0, 1024.0, 0, true, 1.0,
                             tr("Largest batch the server forms")});
    m_maxDelay = addControl(form, QStringLiteral("maxDelay"),
                            {tr("Max queue delay"), tr("ms"), 0.0, 100.0, 2, true, 0.25,
                             tr("How long the oldest request may wait for a fuller batch"), 0.1});
    connect(m_maxBatch, &ParameterControl::valueEdited, this, [this](double v, int id) {
        editScenario(
            [v](nlohmann::json& s) {
                auto& policy = s["policy"];
                // A static policy names its batch "batch"; the others cap it with "max_batch".
                policy[stringAt(policy, "kind", "dynamic") == "static" ? "batch" : "max_batch"] =
                    int(v);
            },
            tr("Set max batch"), id);
    });
    connect(m_maxDelay, &ParameterControl::valueEdited, this, [this](double v, int id) {
        editScenario(
            [v](nlohmann::json& s) {
                auto& policy = s["policy"];
                policy[stringAt(policy, "kind", "dynamic") == "static" ? "timeout_ms"
                                                                       : "max_queue_delay_ms"] = v;
            },
            tr("Set max queue delay"), id);
    });
    return box;
}

QWidget* ModelPanel::buildLimitsGroup()
{
    auto* box = new QGroupBox(tr("Limits"), this);
    auto* form = new QFormLayout(box);
    m_sla = addControl(form, QStringLiteral("sla"),
                       {tr("SLA p99"), tr("ms"), 0.1, 1000.0, 2, true, 0.5,
                        tr("p99 latency the service must meet")});
    connect(m_sla, &ParameterControl::valueEdited, this, [this](double v, int id) {
        editRegion([v](nlohmann::json& r) { r["sla_p99_ms"] = v; }, tr("Set SLA"), id);
    });
    return box;
}

nlohmann::json ModelPanel::model() const
{
    const auto& model = m_document->project().model;
    return model.is_object() && !model.empty() ? model : defaultModel();
}

nlohmann::json ModelPanel::scenario() const
{
    const auto& scenarios = m_document->project().scenarios;
    if (scenarios.is_array() && !scenarios.empty() && scenarios[0].is_object())
        return scenarios[0];
    return defaultScenario();
}

nlohmann::json ModelPanel::region() const
{
    const auto& region = m_document->project().region;
    return region.is_object() && region.contains("sla_p99_ms") ? region : defaultRegion();
}

void ModelPanel::editModel(const std::function<void(nlohmann::json&)>& change, const QString& what,
                           int mergeId)
{
    if (m_loading)
        return;
    nlohmann::json model = this->model();
    change(model);
    m_document->setSection(ProjectSection::Model, model, what, mergeId);
}

void ModelPanel::editScenario(const std::function<void(nlohmann::json&)>& change,
                              const QString& what, int mergeId)
{
    if (m_loading)
        return;
    nlohmann::json scenarios = m_document->project().scenarios;
    if (!scenarios.is_array() || scenarios.empty() || !scenarios[0].is_object())
        scenarios = nlohmann::json::array({defaultScenario()});
    change(scenarios[0]);
    m_document->setSection(ProjectSection::Scenarios, scenarios, what, mergeId);
}

void ModelPanel::editRegion(const std::function<void(nlohmann::json&)>& change, const QString& what,
                            int mergeId)
{
    if (m_loading)
        return;
    nlohmann::json region = this->region();
    change(region);
    m_document->setSection(ProjectSection::Region, region, what, mergeId);
}

void ModelPanel::chooseArrivals()
{
    const QString choice = m_arrivalKind->currentData().toString();
    if (choice.isEmpty())
        return; // the scenario's own arrivals, already in place
    const nlohmann::json current = objectAt(scenario(), "arrivals");
    if (choice.startsWith(kReplayPrefix)) {
        const auto* dataset =
            m_document->project().findDataset(choice.mid(kReplayPrefix.size()).toStdString());
        if (!dataset || !isReplayable(*dataset) || replayedDataset(m_document->project(), current))
            return;
        editScenario([dataset](nlohmann::json& s) { s = scenarioReplaying(s, *dataset); },
                     tr("Replay %1").arg(displayText(dataset->name)), kComboMergeId);
        return;
    }
    const std::string kind = choice.toStdString();
    const std::string currentKind = stringAt(current, "kind", "poisson");
    if (kind == currentKind)
        return; // choosing the shown traffic again changes nothing
    const double rate = shownRatePerS(current);
    const double burst = burstinessOf(current);
    editScenario(
        [&](nlohmann::json& s) {
            nlohmann::json arrivals = arrivalsFor(kind, rate, burst);
            // Keep a rate profile (diurnal, ramp) the scenario may carry.
            if (current.contains("profile"))
                arrivals["profile"] = current["profile"];
            s["arrivals"] = arrivals;
            if (currentKind == "replay") { // a replay ran the trace once; models run long
                s["requests"] = defaultScenario()["requests"];
                s["warmup_requests"] = defaultScenario()["warmup_requests"];
            }
        },
        tr("Set traffic"), kComboMergeId);
}

void ModelPanel::editRate(double ratePerS, int mergeId)
{
    const nlohmann::json current = objectAt(scenario(), "arrivals");
    // Typing the value already shown is no edit: the saved rates may hold more digits.
    if (ratePerS == m_rate->displayed(shownRatePerS(current)))
        return;
    editScenario(
        [ratePerS, current](nlohmann::json& s) { s["arrivals"] = withMeanRate(current, ratePerS); },
        tr("Set arrival rate"), mergeId);
}

void ModelPanel::editBurstiness(double burstiness, int mergeId)
{
    const nlohmann::json current = objectAt(scenario(), "arrivals");
    if (burstiness == m_burstiness->displayed(burstinessOf(current)))
        return;
    editScenario([burstiness, current](
                     nlohmann::json& s) { s["arrivals"] = withBurstiness(current, burstiness); },
                 tr("Set burstiness"), mergeId);
}

double ModelPanel::shownRatePerS(const nlohmann::json& arrivals) const
{
    const double own = meanRateOf(arrivals);
    if (own > 0.0 || stringAt(arrivals, "kind", {}) != "replay")
        return own;
    const auto* dataset = replayedDataset(m_document->project(), arrivals);
    return dataset ? recordedRatePerS(*dataset->requestTrace()) : 0.0;
}

void ModelPanel::rebuildArrivalChoices(const nlohmann::json& arrivals)
{
    m_arrivalKind->clear();
    m_arrivalKind->addItem(tr("Poisson"), QStringLiteral("poisson"));
    m_arrivalKind->addItem(tr("Bursty renewal (gamma)"), QStringLiteral("gamma"));
    m_arrivalKind->addItem(tr("On/off bursts (MMPP-2)"), QStringLiteral("mmpp2"));
    const std::string kind = stringAt(arrivals, "kind", "poisson");
    int current = m_arrivalKind->findData(q(kind));
    const auto* replayed = replayedDataset(m_document->project(), arrivals);
    for (const auto& dataset : m_document->project().datasets) {
        if (!isReplayable(dataset))
            continue;
        m_arrivalKind->addItem(tr("Replay imported trace: %1").arg(displayText(dataset.name)),
                               QString(kReplayPrefix + q(dataset.id)));
        if (&dataset == replayed)
            current = m_arrivalKind->count() - 1;
    }
    if (m_arrivalKind->count() == 3) {
        // Say where trace replay comes from instead of hiding the choice.
        m_arrivalKind->addItem(tr("Replay imported trace (import a request trace first)"),
                               QString());
        qobject_cast<QStandardItemModel*>(m_arrivalKind->model())->item(3)->setEnabled(false);
    }
    if (current < 0) {
        // Arrivals the scenario file defines itself (deterministic, a replay of its own file).
        m_arrivalKind->addItem(tr("From the scenario (%1)").arg(q(kind)), QString());
        current = m_arrivalKind->count() - 1;
    }
    m_arrivalKind->setCurrentIndex(current);
}

void ModelPanel::rebuildServiceChoices()
{
    m_service->clear();
    m_service->addItem(tr("Accelerator model"), QStringLiteral("accelerator"));
    const nlohmann::json scenario = this->scenario();
    const nlohmann::json service = objectAt(scenario, "service");
    int current = stringAt(service, "kind", {}) == "accelerator" ? 0 : -1;
    for (const auto& dataset : m_document->project().datasets) {
        const auto sweep = dataset.sweep();
        if (!sweep)
            continue;
        const auto table = serviceTableFromSweep(*sweep);
        if (!table)
            continue;
        m_service->addItem(tr("Measured: %1").arg(displayText(dataset.name)),
                           QString(QStringLiteral("dataset:") + q(dataset.id)));
        if (*table == service)
            current = m_service->count() - 1;
    }
    if (current < 0) {
        // A service the scenario file defines itself (linear, exponential, another table).
        m_service->addItem(tr("From the scenario (%1)").arg(q(stringAt(service, "kind", "?"))),
                           QString());
        current = m_service->count() - 1;
    }
    m_service->setCurrentIndex(current);
}

void ModelPanel::loadFromDocument()
{
    m_loading = true;
    const nlohmann::json m = model();
    showSpecChoice(m_accelerator, m, "accelerator", "a100-sxm-80gb");
    showSpecChoice(m_workload, m, "workload", "resnet50");
    showCalibration(m);
    selectData(m_precision, q(stringAt(m, "precision", "fp16")));
    m_fusion->setValue(numberAt(m, "fusion_factor", 1.0));
    const bool capped = m.contains("power_cap_w");
    m_capEnabled->setChecked(capped);
    m_powerCap->setEnabled(capped);
    m_powerCap->setValue(numberAt(m, "power_cap_w", 300.0));
    m_thermal->setChecked(boolAt(objectAt(m, "thermal"), "enabled", true));

    const nlohmann::json s = scenario();
    rebuildServiceChoices();
    const nlohmann::json arrivals = objectAt(s, "arrivals");
    rebuildArrivalChoices(arrivals);
    m_rate->setValue(shownRatePerS(arrivals));
    m_burstiness->setValue(burstinessOf(arrivals));
    const std::string kind = stringAt(arrivals, "kind", "poisson");
    m_burstiness->setEnabled(kind == "gamma" || kind == "mmpp2");
    const nlohmann::json servers = objectAt(s, "servers");
    m_servers->setValue(numberAt(servers, "count", 1.0));
    const nlohmann::json policy = objectAt(s, "policy");
    m_maxBatch->setValue(numberAt(policy, "max_batch", numberAt(policy, "batch", 32.0)));
    m_maxDelay->setValue(
        numberAt(policy, "max_queue_delay_ms", numberAt(policy, "timeout_ms", 0.0)));
    m_sla->setValue(numberAt(region(), "sla_p99_ms", 15.0));
    m_loading = false;
}

} // namespace bs::widgets
