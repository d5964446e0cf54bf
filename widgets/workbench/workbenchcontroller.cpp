#include "workbench/workbenchcontroller.h"

#include "analysis/projectregion.h"
#include "document/projectdocument.h"
#include "jobs/jobrunner.h"
#include "panels/modelpanel.h"
#include "util/threadpool.h"
#include "views/simulationview.h"
#include "views/sweepview.h"
#include "workbench/answertext.h"
#include "workbench/replayarrivals.h"
#include "workbench/workbenchoverlays.h"

#include <QLocale>

namespace bs::widgets {

namespace {
int maxBatchOf(const nlohmann::json& scenario)
{
    if (!scenario.is_object() || !scenario.contains("policy") || !scenario["policy"].is_object())
        return 1;
    const auto& policy = scenario["policy"];
    for (const char* key : {"max_batch", "batch"}) {
        if (policy.contains(key) && policy[key].is_number())
            return std::clamp(int(policy[key].get<double>()), 1, 65536);
    }
    return 1;
}

/// The offered load per batch size of the sweep the model describes - the candidate sweep
/// (the model is the candidate's configuration), else the baseline, else the first sweep -
/// when every point of it was run at a set request rate; empty otherwise (the model is then
/// drawn at saturation, as an offline sweep measures).
std::map<int, double> offeredRates(const data::Project& project)
{
    const data::Dataset* chosen = nullptr;
    for (auto role :
         {data::DatasetRole::Candidate, data::DatasetRole::Baseline, data::DatasetRole::None}) {
        for (const auto& d : project.datasets)
            if (!chosen && d.kind == data::DatasetKind::Sweep && d.sweep() &&
                (d.role == role || role == data::DatasetRole::None))
                chosen = &d;
    }
    std::map<int, double> out;
    if (!chosen)
        return out;
    for (const auto& point : chosen->sweep()->points) {
        if (!point.requestRatePerS)
            return {};
        out[point.batchSize] = *point.requestRatePerS;
    }
    return out;
}
} // namespace

WorkbenchController::WorkbenchController(ProjectDocument* document, JobRunner* jobs,
                                         ModelPanel* panel, SweepView* sweepView,
                                         SimulationView* simulationView, QObject* parent)
    : QObject(parent)
    , m_document(document)
    , m_jobs(jobs)
    , m_panel(panel)
    , m_sweepView(sweepView)
    , m_simulationView(simulationView)
    , m_pool(std::make_shared<ThreadPool>(0, ThreadPool::Priority::Background))
{
    connect(m_document, &ProjectDocument::projectReset, this, &WorkbenchController::rerun);
    connect(m_document, &ProjectDocument::sectionChanged, this, [this](ProjectSection section) {
        if (section == ProjectSection::Model || section == ProjectSection::Scenarios ||
            section == ProjectSection::Region)
            rerun();
    });
}

WorkbenchController::~WorkbenchController()
{
    // A running job keeps the pool alive through its own reference; its result is dropped.
    if (m_jobs)
        m_jobs->cancel(QStringLiteral("simulation"));
}

WorkbenchInputs WorkbenchController::currentInputs() const
{
    WorkbenchInputs inputs;
    inputs.model = m_panel->model();
    inputs.scenario =
        withReplayInMemory(analysis::scenarioWithProjectModel(m_panel->scenario(), inputs.model),
                           m_document->project());
    inputs.curveBatches = powersOfTwoUpTo(maxBatchOf(inputs.scenario));
    inputs.offeredRateByBatch = offeredRates(m_document->project());
    return inputs;
}

std::optional<double> WorkbenchController::slaP99Ms() const
{
    const nlohmann::json region = m_panel->region();
    if (region.contains("sla_p99_ms") && region["sla_p99_ms"].is_number())
        return region["sla_p99_ms"].get<double>();
    return std::nullopt;
}

std::optional<double> WorkbenchController::powerCapW() const
{
    const nlohmann::json model = m_panel->model();
    if (model.contains("power_cap_w") && model["power_cap_w"].is_number())
        return model["power_cap_w"].get<double>();
    return std::nullopt;
}

void WorkbenchController::rerun()
{
    // An LLM-only project has no batching scenario: simulating the dock's defaults would show
    // numbers that belong to no part of it (the LLM server tab simulates it instead).
    if (m_document->project().studiesOnlyAnLlmServer())
        return;
    m_sinceChange.start();
    const WorkbenchInputs inputs = currentInputs();
    std::shared_ptr<ThreadPool> pool = m_pool;
    QPointer<WorkbenchController> self(this);
    m_jobs->run<WorkbenchOutputs>(
        QStringLiteral("simulation"), tr("Simulating"),
        [inputs, pool](JobRunner::Context& context) {
            return computeWorkbench(inputs, *pool, context.progress, context.cancel);
        },
        [self](WorkbenchOutputs outputs) {
            if (self)
                self->apply(std::move(outputs));
        });
}

void WorkbenchController::apply(WorkbenchOutputs outputs)
{
    const QLocale locale;
    const nlohmann::json scenario = m_panel->scenario();
    const double rate = m_panel->shownRatePerS(
        scenario.contains("arrivals") ? scenario["arrivals"] : nlohmann::json::object());
    const QString traffic = locale.toString(rate, 'f', 0) + tr(" req/s");
    m_sweepView->setLimits(slaP99Ms(), powerCapW());
    m_sweepView->setOverlays(workbenchOverlays(outputs, traffic));
    m_simulationView->setOutputs(outputs, slaP99Ms());

    QString summary;
    if (outputs.simulationError) {
        summary = tr("Scenario error: %1")
                      .arg(QString::fromStdString(outputs.simulationError->toString()));
    } else if (outputs.current) {
        const auto& r = *outputs.current;
        summary =
            r.stability.stable
                ? tr("At %1: %2, %3 req/s, ρ = %4 (computed in %5 ms)")
                      .arg(traffic, p99AnswerText(r),
                           locale.toString(r.throughputPerS.value, 'f', 0),
                           locale.toString(r.stability.rho, 'f', 2),
                           locale.toString(outputs.elapsedS * 1e3, 'f', 0))
                : tr("Unstable at %1: %2").arg(traffic, QString::fromStdString(r.stability.reason));
    }
    if (outputs.modelError)
        summary +=
            tr("\nModel error: %1").arg(QString::fromStdString(outputs.modelError->toString()));
    m_panel->setRunSummary(summary);
    m_last = std::make_unique<WorkbenchOutputs>(std::move(outputs));
    Q_EMIT resultsApplied(double(m_sinceChange.nsecsElapsed()) / 1e6);
}

} // namespace bs::widgets
