#pragma once

#include "workbench/workbenchjob.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>

#include <memory>

namespace bs {
class ThreadPool;
}

namespace bs::widgets {

class JobRunner;
class ModelPanel;
class ProjectDocument;
class SimulationView;
class SweepView;

/// Re-runs the accelerator model and the simulator whenever the model, the scenario or the
/// limits change (a slider moves, undo, a project opens), in the "simulation" job lane: the
/// newest change wins and stale results are dropped. Results go to the sweep view (overlays,
/// SLA and power-cap lines), the simulation view and the Model dock's summary line.
class WorkbenchController : public QObject
{
    Q_OBJECT
public:
    WorkbenchController(ProjectDocument* document, JobRunner* jobs, ModelPanel* panel,
                        SweepView* sweepView, SimulationView* simulationView,
                        QObject* parent = nullptr);
    ~WorkbenchController() override;

    /// The inputs the next run uses (for tests and the playbook's reproducer).
    WorkbenchInputs currentInputs() const;
    const WorkbenchOutputs* lastOutputs() const { return m_last.get(); }
    /// Starts a run now (otherwise runs start on every relevant change).
    void rerun();
    ThreadPool& pool() { return *m_pool; }
    /// The limits set in the Model dock (for the other views' reference lines).
    std::optional<double> slaP99Ms() const;
    std::optional<double> powerCapW() const;

Q_SIGNALS:
    /// A run finished and its results are on screen; `latencyMs` is from the change that caused
    /// it to the redraw.
    void resultsApplied(double latencyMs);

private:
    void apply(WorkbenchOutputs outputs);

    ProjectDocument* m_document;
    QPointer<JobRunner> m_jobs;
    ModelPanel* m_panel;
    SweepView* m_sweepView;
    SimulationView* m_simulationView;
    /// Shared with running jobs, so a job never outlives the pool it computes on.
    std::shared_ptr<ThreadPool> m_pool;
    std::unique_ptr<WorkbenchOutputs> m_last;
    QElapsedTimer m_sinceChange;
};

} // namespace bs::widgets
