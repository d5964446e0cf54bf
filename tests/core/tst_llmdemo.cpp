// The built-in LLM demo project (resources/demo/llm-demo.bsproj, io/llmdemo.h): it opens with or
// without the public vLLM run, says which requests it serves, its fitted stand-in is the run's
// fit, and its story holds: max_num_batched_tokens trades TTFT against TPOT.
#include "analysis/llmregion.h"
#include "analysis/projectregion.h"
#include "io/llmdemo.h"
#include "io/projectfile.h"
#include "llmsim/llmscenariojson.h"
#include "llmsim/tracefit.h"
#include "testsupport.h"

#include <QtTest>

#include <cmath>

using namespace bs;

namespace {

data::Project demoProject()
{
    const QString path = test::sourceDir() + QStringLiteral("/resources/demo/llm-demo.bsproj");
    auto project = io::loadProject(path.toStdString());
    if (!project)
        qFatal("%s", project.error().toString().c_str());
    return *project;
}

analysis::LlmRegionSpec specOf(const data::Project& project)
{
    auto spec = analysis::llmRegionSpecOfProject(project, "llm-demo.bsproj");
    if (!spec || !spec->has_value())
        qFatal("the demo has no valid LLM spec");
    return **spec;
}

/// The cell with these knobs in a region over max_num_seqs x budget x rate multiplier.
const analysis::LlmRegionCell& cellAt(const analysis::LlmRegionResult& r, int seqs, int budget,
                                      double multiplier)
{
    for (const auto& c : r.cells)
        if (c.knobs.maxNumSeqs == seqs && c.knobs.maxNumBatchedTokens == budget &&
            std::abs(c.knobs.load - multiplier) < 1e-12)
            return c;
    qFatal("no cell %d x %d at %g", seqs, budget, multiplier);
}

} // namespace

class TestLlmDemo : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void opensWithoutTheRunAndSaysSo()
    {
        data::Project project = demoProject();
        const nlohmann::json before = project.llm;
        const auto source = io::attachLlmDemoRun(project, "/nonexistent/shared");
        QVERIFY(!source.realRequests);
        QVERIFY2(source.note.find("looked for /nonexistent/shared/llm/llmservingsim") !=
                     std::string::npos,
                 source.note.c_str());
        QVERIFY(source.note.find("BATCHSCOPE_SHARED_DATA") != std::string::npos);
        QCOMPARE(project.llm, before);
        QVERIFY(project.datasets.empty());
        const auto spec = specOf(project);
        QCOMPARE(int(spec.scenario.arrivals.kind), int(llmsim::LlmArrivalSpec::Kind::Poisson));
        QCOMPARE(spec.scenario.step.modelConfig, std::string("builtin:llama-3.1-8b"));
        QCOMPARE(spec.scenario.step.accelerator.name, std::string("rtx-4090"));
        QCOMPARE(*spec.scenario.step.powerCapW, 300.0);
        // The stand-in computes on any machine.
        QVERIFY(analysis::computeLlmRegion(spec).hasValue());
    }

    void replaysTheRealRunWhenItIsThere()
    {
        BS_REQUIRE_SHARED_FILE(run, QString::fromLatin1(io::kLlmDemoRunPath));
        data::Project project = demoProject();
        const auto fallback = specOf(project).scenario.arrivals;
        const auto source = io::attachLlmDemoRun(project, runFolder.toStdString());
        QVERIFY2(source.realRequests, source.note.c_str());
        QCOMPARE(project.datasets.size(), std::size_t(1));
        const auto runs = project.datasets.front().llmRuns();
        QVERIFY(runs && runs->runs.size() == 1);
        QCOMPARE(runs->runs.front().requests.size(), std::size_t(300));
        QCOMPARE(int(project.datasets.front().role), int(data::DatasetRole::Baseline));
        const auto spec = specOf(project);
        QCOMPARE(int(spec.scenario.arrivals.kind), int(llmsim::LlmArrivalSpec::Kind::Replay));
        QCOMPARE(spec.scenario.arrivals.file, source.runPath);
        QCOMPARE(spec.scenario.arrivals.rateMultiplier, fallback.rateMultiplier);

        // The stand-in without the run is the run's own fit (tracefit.h), to the digits stored.
        std::vector<llmsim::RequestSpec> trace;
        for (const auto& r : runs->runs.front().requests)
            trace.push_back({*r.arrivalS, *r.promptTokens, *r.outputTokens});
        auto fit = llmsim::poissonFittedTo(trace, 300);
        QVERIFY(fit);
        QVERIFY(std::abs(fit->ratePerS - fallback.ratePerS) < 0.005);
        QVERIFY(std::abs(fit->promptTokens.mean - fallback.promptTokens.mean) < 0.05);
        QVERIFY(std::abs(fit->promptTokens.cv - fallback.promptTokens.cv) < 0.0005);
        QCOMPARE(fit->promptTokens.max, fallback.promptTokens.max);
        QVERIFY(std::abs(fit->outputTokens.mean - fallback.outputTokens.mean) < 0.05);
        QVERIFY(std::abs(fit->outputTokens.cv - fallback.outputTokens.cv) < 0.0005);
        QCOMPARE(fit->outputTokens.max, fallback.outputTokens.max);
    }

    void theTokenBudgetTradesTtftAgainstTpot()
    {
        BS_REQUIRE_SHARED_FILE(run, QString::fromLatin1(io::kLlmDemoRunPath));
        data::Project project = demoProject();
        QVERIFY(io::attachLlmDemoRun(project, runFolder.toStdString()).realRequests);
        auto region = analysis::computeLlmRegion(specOf(project));
        QVERIFY2(region, region ? "" : region.error().toString().c_str());
        // At a tenth of the recorded rate: the largest budget prefills long prompts in one step
        // (TTFT p99 over the limit), the smallest keeps the decodes' steps short (lowest TPOT).
        const auto& small = cellAt(*region, 256, 256, 0.1);
        const auto& large = cellAt(*region, 256, 8192, 0.1);
        QCOMPARE(int(small.status), int(analysis::LlmCellStatus::Feasible));
        QCOMPARE(int(large.status), int(analysis::LlmCellStatus::Infeasible));
        QCOMPARE(int(large.binding), int(analysis::LlmConstraint::TtftP99));
        QVERIFY(small.metrics.tpotP99Ms.value < large.metrics.tpotP99Ms.value);
        QVERIFY(small.metrics.ttftP99Ms.value < large.metrics.ttftP99Ms.value);
        // Under the 300 W cap every GPU stays below it.
        for (const auto& c : region->cells)
            QVERIFY(c.metrics.powerPerGpuW.value <= 300.0);
        // Sixteen seats cannot hold the rate's requests in flight: TTFT fails first there.
        QCOMPARE(int(cellAt(*region, 16, 2048, 0.1).binding),
                 int(analysis::LlmConstraint::TtftP99));
        QVERIFY(region->recommended() != nullptr);
    }
};

QTEST_GUILESS_MAIN(TestLlmDemo)
#include "tst_llmdemo.moc"
