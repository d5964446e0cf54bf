#pragma once

#include "panels/parametercontrol.h"

#include <QWidget>

#include <nlohmann/json.hpp>

#include <functional>

class QCheckBox;
class QFormLayout;
class QComboBox;
class QLabel;

namespace bs::widgets {

class ProjectDocument;

/// The Model dock: accelerator and workload presets, precision, fusion, power cap and thermal
/// throttling (the project's `model` section); traffic, batching policy and servers (its first
/// scenario); the SLA (its `region` section). Every edit goes through the undo stack (a slider
/// drag is one step); the WorkbenchController re-runs the model and the simulator on each change.
class ModelPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ModelPanel(ProjectDocument* document, QWidget* parent = nullptr);

    /// The model, scenario and limits the panel shows (the project's, or the defaults when the
    /// project has none yet).
    nlohmann::json model() const;
    nlohmann::json scenario() const;
    nlohmann::json region() const;

    ParameterControl* control(const QString& objectName) const;
    /// The mean arrival rate shown for `arrivals`: their own, or a replayed trace's recorded one.
    double shownRatePerS(const nlohmann::json& arrivals) const;
    void setRunSummary(const QString& text);
    /// Says which of the model's values come from a fit (empty when none do).
    QLabel* calibrationNote() const { return m_calibration; }

Q_SIGNALS:
    /// "Fit to a sweep…": calibrate the model against a measured sweep.
    void fitRequested();

private:
    void showCalibration(const nlohmann::json& model);
    /// Selects the preset named at `key`, or an entry for the fitted (inline) spec there.
    void showSpecChoice(QComboBox* combo, const nlohmann::json& model, const char* key,
                        const char* fallback);
    QWidget* buildModelGroup();
    QWidget* buildTrafficGroup();
    QWidget* buildPolicyGroup();
    QWidget* buildLimitsGroup();
    ParameterControl* addControl(QFormLayout* form, const QString& objectName,
                                 const ParameterControl::Spec& spec);
    void rebuildServiceChoices();
    void rebuildArrivalChoices(const nlohmann::json& arrivals);
    void loadFromDocument();
    void editModel(const std::function<void(nlohmann::json&)>& change, const QString& what,
                   int mergeId);
    void editScenario(const std::function<void(nlohmann::json&)>& change, const QString& what,
                      int mergeId);
    void editRegion(const std::function<void(nlohmann::json&)>& change, const QString& what,
                    int mergeId);
    void chooseArrivals();
    void editRate(double ratePerS, int mergeId);
    void editBurstiness(double burstiness, int mergeId);

    ProjectDocument* m_document;
    QComboBox* m_accelerator = nullptr;
    QComboBox* m_workload = nullptr;
    QComboBox* m_precision = nullptr;
    ParameterControl* m_fusion = nullptr;
    QCheckBox* m_capEnabled = nullptr;
    ParameterControl* m_powerCap = nullptr;
    QCheckBox* m_thermal = nullptr;
    QComboBox* m_service = nullptr;
    QComboBox* m_arrivalKind = nullptr;
    ParameterControl* m_rate = nullptr;
    ParameterControl* m_burstiness = nullptr;
    ParameterControl* m_servers = nullptr;
    ParameterControl* m_maxBatch = nullptr;
    ParameterControl* m_maxDelay = nullptr;
    ParameterControl* m_sla = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_calibration = nullptr;
    bool m_loading = false;
};

} // namespace bs::widgets
