#include "io/projectfile.h"
#include "playbook/projectplaybook.h"
#include "playbook/report.h"
#include "playbookfixtures.h"
#include "sim/scenariojson.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace bs;
using namespace bs::playbook;

namespace {

const std::string kScript = "<script>alert(1)</script>";

ReportBundle prepare(const data::Project& project, const std::string& stem = "report")
{
    ReportOptions options;
    options.generatedAt = "2026-12-02 12:00 UTC";
    options.fileStem = stem;
    auto bundle = prepareReport(project, options);
    if (!bundle)
        qFatal("prepareReport failed: %s", bundle.error().toString().c_str());
    return std::move(*bundle);
}

data::Project withState(data::Project project, const PlaybookState& state, const Memo& memo)
{
    storePlaybook(project, state, memo);
    return project;
}

bool containsNoCase(std::string haystack, std::string needle)
{
    auto lower = [](std::string& s) {
        std::ranges::transform(s, s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    };
    lower(haystack);
    lower(needle);
    return haystack.find(needle) != std::string::npos;
}

/// Every user-editable text of a project, playbook state and memo set to a script tag.
data::Project hostileProject()
{
    auto project = fixtures::schedulingProject(true);
    project.title = kScript;
    for (auto& d : project.datasets) {
        d.name = kScript + " " + d.id;
        d.tags.compiler = kScript;
        d.provenance.path = "/data/" + kScript;
    }
    project.scenarios[0]["name"] = kScript;
    auto state = fixtures::fastState();
    state.accept("max_queue_delay_ms", kScript);
    state.quality = QualityEvidence{kScript, 1.0, 1.0, std::nullopt, 0.1, true, kScript};
    state.productionEvidence = kScript;
    Memo memo = Memo::blank();
    for (const auto& ref : memoFields())
        (memo.*(ref.field)).setByUser(kScript + " " + ref.key);
    for (auto& owner : memo.owners) {
        owner.name = kScript;
        owner.note = kScript;
    }
    return withState(project, state, memo);
}

} // namespace

class TestPlaybookReport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void memoDraftsNeverOverwriteUserEdits();
    void seniorQuestionIsAnswered();
    void jsonReportRoundTripsMemoAndState();
    void jsonReportHasEvidenceAndProvenance();
    void htmlEscapesScriptInEveryUserField();
    void markdownEscapesAndWritesFiguresBeside();
    void pitfallGuards();
    void demoProjectReport();
};

void TestPlaybookReport::memoDraftsNeverOverwriteUserEdits()
{
    Memo memo = Memo::blank();
    memo.failingMetric.setByUser("p99 of the checkout stream, as I measured it");
    auto bundle = prepare(withState(fixtures::schedulingProject(true),
                                    fixtures::reviewState("max_queue_delay_ms"), memo));
    QCOMPARE(bundle.memo.failingMetric.text,
             std::string("p99 of the checkout stream, as I measured it"));
    QVERIFY(bundle.memo.failingMetric.hasPendingDraft());
    QVERIFY(bundle.memo.failingMetric.draft.rfind("p99 latency +", 0) == 0);
    // Fields the user did not touch take the drafts.
    QVERIFY(bundle.memo.smallestReversibleChange.text.find("max_queue_delay_ms from 8 to 1") !=
            std::string::npos);
    QVERIFY(bundle.memo.expectedMovement.text.find("p99 latency -") != std::string::npos);
    QVERIFY(bundle.memo.firstFailingStage.text.rfind("runtime queue", 0) == 0);
    QVERIFY(bundle.memo.regressionRisk.text.find("bit-identical (pass)") != std::string::npos);
    QVERIFY(bundle.memo.rollbackBoundary.text.find("10 ms (the SLA)") != std::string::npos);
    // The report shows the pending draft beside the kept text.
    const auto html = renderHtml(bundle.document);
    QVERIFY(html.find("newer drafts") != std::string::npos);
}

void TestPlaybookReport::seniorQuestionIsAnswered()
{
    auto bundle = prepare(withState(fixtures::schedulingProject(true),
                                    fixtures::reviewState("max_queue_delay_ms"), Memo::blank()),
                          "review");
    const auto& answer = bundle.memo.seniorQuestionAnswer.text;
    QVERIFY(answer.rfind("Scheduling", 0) == 0);
    QVERIFY(answer.find("first-principles bottleneck class") != std::string::npos);
    QVERIFY(answer.find("review-reproducer.json") != std::string::npos);
    QVERIFY(answer.find("bit-identically") != std::string::npos);
    QVERIFY(bundle.memo.requiredArtifact.text.find("curve pack") != std::string::npos);
}

void TestPlaybookReport::jsonReportRoundTripsMemoAndState()
{
    auto state = fixtures::fastState();
    state.accept("max_queue_delay_ms", "the change under review");
    Memo memo = Memo::blank();
    memo.owners[2].name = "S. Perf";
    memo.owners[2].state = SignoffState::Approved;
    memo.decision = Decision::BoundedRollout;
    memo.rollbackBoundary.setByUser("roll back at p99 > 10 ms for 5 min");
    auto bundle = prepare(withState(fixtures::schedulingProject(true), state, memo));
    const std::string text = bundle.json.dump(2);
    auto back = reportFromJson(nlohmann::json::parse(text), "report.json");
    QVERIFY2(back, back ? "" : back.error().toString().c_str());
    QVERIFY(back->memo == bundle.memo);
    QVERIFY(back->state == state);
    QCOMPARE(toJson(back->memo).dump(), toJson(bundle.memo).dump());
    auto scenario = sim::scenarioFromJson(back->reproducerScenario, "report.json");
    QVERIFY(scenario);
    QVERIFY(*scenario == *bundle.result.fix.reproducer);
    // Not a report: a clear error.
    auto bad = reportFromJson(nlohmann::json{{"format", "something"}}, "x.json");
    QVERIFY(!bad);
    QVERIFY(bad.error().toString().find("x.json: report: not a BatchScope JSON report") == 0);
}

void TestPlaybookReport::jsonReportHasEvidenceAndProvenance()
{
    auto bundle =
        prepare(withState(fixtures::schedulingProject(true), fixtures::fastState(), Memo::blank()));
    const auto& json = bundle.json;
    QCOMPARE(json["format"], "batchscope-report");
    QCOMPARE(json["steps"].size(), std::size_t(5));
    QCOMPARE(json["steps"][0]["status"], "blocker"); // max_queue_delay_ms differs, not accepted
    QCOMPARE(json["steps"][1]["number"], 2);
    QCOMPARE(json["classification"][0]["mechanism"], "scheduling");
    QCOMPARE(json["fix"]["knob"], "max_queue_delay_ms");
    QCOMPARE(json["fix"]["reproducer_file"], "report-reproducer.json");
    QCOMPARE(json["fix"]["reproducer_scenario"]["seed"], 42);
    QVERIFY(json["fix"]["movements"][1]["ci_high"].get<double>() < 0.0);
    QCOMPARE(json["matrix"]["replay_identical"], true);
    const auto& datasets = json["provenance"]["datasets"];
    QCOMPARE(datasets.size(), std::size_t(2));
    QCOMPARE(datasets[0]["source"]["sha256"], std::string(64, 'b'));
    QCOMPARE(datasets[0]["source"]["reader_version"], 1);
    QCOMPARE(json["provenance"]["reproducer_seed"], 42);
    QCOMPARE(json["provenance"]["replication_seeds"].size(), std::size_t(3));
    QVERIFY(!json["provenance"]["tool"]["version"].get<std::string>().empty());
    // The step 2 evidence table is there with the queue row first after the tail.
    const auto& tables = json["steps"][1]["tables"];
    QVERIFY(!tables.empty());
    QCOMPARE(tables[0]["rows"][0][1], "p99 latency (ms)");
}

void TestPlaybookReport::htmlEscapesScriptInEveryUserField()
{
    auto bundle = prepare(hostileProject());
    const auto html = renderHtml(bundle.document);
    QVERIFY(!containsNoCase(html, "<script"));
    for (const auto& ref : memoFields())
        QVERIFY2(html.find("&lt;script&gt;alert(1)&lt;/script&gt; " + std::string(ref.key)) !=
                     std::string::npos,
                 ref.key);
    // Title, owners, dataset names (tables and figure legends), accepted reason, scenario name.
    QVERIFY(html.find("<title>Accelerator review: &lt;script&gt;") != std::string::npos);
    QVERIFY(html.find("&lt;script&gt;alert(1)&lt;/script&gt; ds1") != std::string::npos);
    QVERIFY(html.find("accepted: &lt;script&gt;") != std::string::npos);
    // Self-contained: no external resources.
    QVERIFY(html.find("src=\"http") == std::string::npos);
    QVERIFY(html.find("href=\"http") == std::string::npos);
    QVERIFY(html.find("data:application/json;base64,") != std::string::npos);
    // The Markdown report and its files are just as clean.
    const auto md = renderMarkdown(bundle.document, "report");
    QVERIFY(!containsNoCase(md.markdown, "<script"));
    for (const auto& file : md.files) {
        if (file.name.ends_with(".svg"))
            QVERIFY2(!containsNoCase(file.content, "<script"), file.name.c_str());
    }
    // The JSON report keeps the text as data (a JSON string, not markup).
    QCOMPARE(bundle.json["memo"]["fields"]["failing_metric"]["text"], kScript + " failing_metric");
}

void TestPlaybookReport::markdownEscapesAndWritesFiguresBeside()
{
    auto bundle = prepare(
        withState(fixtures::thermalProject(true), fixtures::fastState(), Memo::blank()), "thermal");
    const auto output = renderMarkdown(bundle.document, "thermal");
    const auto& md = output.markdown;
    for (const char* heading :
         {"# Accelerator review: Large-batch slowdown", "## Accelerator review memo",
          "### 1\\. Symptom", "### Step 1: Freeze", "### Step 3: Classify the dominant mechanism",
          "### Step 5: Re-run the full matrix", "## Provenance"})
        QVERIFY2(md.find(heading) != std::string::npos, heading);
    QVERIFY(md.find("![p99 latency by batch size](thermal-step2-fig1.svg)") != std::string::npos);
    // A plain ampersand stays readable; one that would start a character reference is escaped.
    QVERIFY(md.find("_Scheduling & Workload Mapping / Batch Size Effects_") != std::string::npos);
    ReportDocument tricky;
    tricky.title = "R&D &lt;b&gt; & more";
    QVERIFY(renderMarkdown(tricky, "t").markdown.find("R&D &amp;lt;b&amp;gt; & more") !=
            std::string::npos);
    QVERIFY(md.find("[thermal-reproducer.json](thermal-reproducer.json)") != std::string::npos);
    bool svg = false, reproducer = false;
    for (const auto& f : output.files) {
        svg = svg || (f.name == "thermal-step3-fig1.svg" && f.content.rfind("<svg", 0) == 0);
        reproducer = reproducer || (f.name == "thermal-reproducer.json" &&
                                    sim::scenarioFromJson(nlohmann::json::parse(f.content)));
    }
    QVERIFY(svg);
    QVERIFY(reproducer);
    // Written to disk: the .md with its figures and the reproducer beside it.
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("thermal.md")).toStdString();
    QVERIFY(writeMarkdownReport(bundle, path));
    for (const auto& f : output.files)
        QVERIFY2(
            std::filesystem::exists(dir.filePath(QString::fromStdString(f.name)).toStdString()),
            f.name.c_str());
    // The thermal case's mechanism reaches the memo.
    QVERIFY(bundle.memo.primaryMechanism.text.rfind("Thermal or power limit", 0) == 0);
}

void TestPlaybookReport::pitfallGuards()
{
    auto has = [](const std::vector<PitfallWarning>& list, const std::string& id) {
        return std::ranges::any_of(list, [&](const PitfallWarning& p) { return p.id == id; });
    };
    // Sweeps only: synthetic evidence.
    auto thermal =
        prepare(withState(fixtures::thermalProject(false), fixtures::fastState(), Memo::blank()));
    QVERIFY(has(thermal.pitfalls, "synthetic_only"));
    QVERIFY(thermal.result.steps[2].warnings.size() >= 1);
    // Request traces are production-shape evidence.
    auto traced = prepare(withState(fixtures::schedulingProject(true),
                                    fixtures::reviewState("max_queue_delay_ms"), Memo::blank()));
    QVERIFY(!has(traced.pitfalls, "synthetic_only"));
    // A sweep that reports only mean latency.
    auto meanOnly = fixtures::thermalProject(false);
    auto table = *meanOnly.datasets[1].sweep();
    for (auto& p : table.points) {
        p.latencyP95S.reset();
        p.latencyP99S.reset();
    }
    meanOnly.datasets[1].setContent(std::make_shared<const data::SweepTable>(table));
    auto averages = prepare(withState(meanOnly, fixtures::fastState(), Memo::blank()));
    QVERIFY(has(averages.pitfalls, "average_latency"));
    // A memo claim from averages.
    Memo memo = Memo::blank();
    memo.expectedMovement.setByUser("mean latency falls by 2 ms");
    QVERIFY(has(memoPitfalls(memo), "average_latency"));
    memo.expectedMovement.setByUser("mean latency falls by 2 ms, p99 by 5 ms");
    QVERIFY(!has(memoPitfalls(memo), "average_latency"));
    // A precision win without a tested fallback.
    data::Project precision;
    precision.datasets.push_back(
        fixtures::sweepDataset("ds1", fixtures::DatasetRole::Baseline,
                               fixtures::sweep("fp16", 1e-3, 1e-4, [](int) { return 1.0; }),
                               fixtures::tags({{"precision", "fp16"}})));
    precision.datasets.push_back(
        fixtures::sweepDataset("ds2", fixtures::DatasetRole::Candidate,
                               fixtures::sweep("fp8", 1e-3, 1e-4, [](int) { return 0.7; }),
                               fixtures::tags({{"precision", "fp8"}})));
    auto state = fixtures::fastState();
    state.quality = QualityEvidence{"top-1 (%)", 76.1, 76.0, std::nullopt, 0.5, false, "eval"};
    auto noFallback = prepare(withState(precision, state, Memo::blank()));
    QVERIFY(has(noFallback.pitfalls, "precision_without_fallback"));
    state.quality->fallbackTested = true;
    auto withFallback = prepare(withState(precision, state, Memo::blank()));
    QVERIFY(!has(withFallback.pitfalls, "precision_without_fallback"));
}

void TestPlaybookReport::demoProjectReport()
{
    const QString path = test::sourceDir() + QStringLiteral("/resources/demo/demo.bsproj");
    auto project = io::loadProject(path.toStdString());
    QVERIFY2(project, project ? "" : project.error().toString().c_str());
    auto state = fixtures::fastState();
    project->playbook = toJson(state);
    auto blocked = prepare(*project);
    // The candidate's 250 W power limit is the change under review: a blocker until accepted.
    QCOMPARE(blocked.result.steps[0].status, StepStatus::Blocker);
    QVERIFY(blocked.result.steps[0].summary.find("power_limit_w") != std::string::npos);
    state.accept("power_limit_w", "the 250 W rack power cap is the change under review");
    project->playbook = toJson(state);
    auto bundle = prepare(*project);
    QCOMPARE(bundle.result.steps[0].status, StepStatus::Ok);
    // Power at the cap from batch 16: the power/thermal hypothesis leads, and a power log is
    // what would confirm it.
    QCOMPARE(bundle.result.classification.ranked.front().mechanism, Mechanism::Thermal);
    QVERIFY(bundle.result.classification.decided);
    QCOMPARE(bundle.result.scenarioRoute, std::string("knobs"));
    // The accelerator model of both scenarios (250 W vs 400 W cap) puts the first divergence in
    // the batch service time from batch 16 on, before the queue.
    QCOMPARE(*bundle.result.locate.firstPersistentStage, Stage::CompilePlan);
    const auto& first = bundle.result.locate.metrics[std::size_t(bundle.result.locate.firstMetric)];
    QCOMPARE(first.source, std::string("accelerator model"));
    QCOMPARE(first.persistence.firstLabel, std::string("batch 16"));
    QVERIFY(bundle.result.fix.reproducer.has_value());
    QVERIFY(bundle.result.matrix.replayIdentical);
    // The demo's story ends in a passing matrix. Max batch 8 misses the SLA on every
    // configuration alike (a cap nobody proposes): that row asks for no regression, and passes.
    QCOMPARE(bundle.result.matrix.failed, 0);
    QCOMPARE(bundle.result.steps[4].status, StepStatus::Ok);
    const auto capEight = std::ranges::find_if(bundle.result.matrix.rows, [](const MatrixRow& r) {
        return r.slice == "traffic ×1, max batch 8" && r.metric == "p99 latency";
    });
    QVERIFY(capEight != bundle.result.matrix.rows.end());
    QVERIFY(std::stod(capEight->fixed) > 15.0);
    QCOMPARE(capEight->result, std::string("pass"));
    QVERIFY(capEight->criterion.find("no regression") != std::string::npos);
    QVERIFY(std::ranges::any_of(bundle.pitfalls,
                                [](const PitfallWarning& p) { return p.id == "synthetic_only"; }));
    const auto md = renderMarkdown(bundle.document, "demo");
    QVERIFY(md.markdown.find("Thermal or power limit") != std::string::npos);
}

QTEST_APPLESS_MAIN(TestPlaybookReport)
#include "tst_playbook_report.moc"
