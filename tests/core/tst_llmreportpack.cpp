// The review report carries the LLM curve pack of a project that studies an LLM server
// (issue 20): the section's recommendation and headroom are computeLlmRegion's for the same
// spec, its files are attached under the report's stem, the JSON report holds the region, a
// broken llm section says why (naming the key or the file), and a project without an LLM
// server gets the report it got before.

#include "analysis/llmregionpack.h"
#include "llmsim/llmscenariojson.h"
#include "llmsimtesthelpers.h"
#include "playbook/llmcurvepacksection.h"
#include "playbook/report.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <filesystem>

using namespace bs;
using namespace bs::playbook;

namespace {

constexpr char kStem[] = "review";

/// tst_llmregionaxes's known-answer region (llmsimtesthelpers.h) on a 2 × 2 grid of engine
/// knobs and two loads, with few requests, so the whole region takes well under a second.
analysis::LlmRegionSpec smallSpec()
{
    auto spec = test::linearRegionSpec();
    spec.scenario.replications = 3;
    spec.scenario.arrivals.count = 300;
    spec.maxNumSeqs = {1, 4};
    spec.maxNumBatchedTokens = {256, 2048};
    spec.ratesPerS = {2.0, 4.0};
    return spec;
}

/// A project with no datasets: the playbook has nothing to review, so the report is quick and
/// its LLM section is the one under test.
data::Project projectWith(const nlohmann::json& llm)
{
    data::Project project;
    project.title = "LLM server review";
    project.llm = llm;
    return project;
}

ReportBundle prepare(const data::Project& project, const std::string& projectPath = {})
{
    ReportOptions options;
    options.generatedAt = "2026-12-05 12:00 UTC";
    options.fileStem = kStem;
    options.projectPath = projectPath;
    auto bundle = prepareReport(project, options);
    if (!bundle)
        qFatal("prepareReport failed: %s", bundle.error().toString().c_str());
    return std::move(*bundle);
}

analysis::LlmRegionResult computed(const analysis::LlmRegionSpec& spec,
                                   const std::string& baseDirectory = {})
{
    analysis::LlmRegionOptions options;
    options.baseDirectory = baseDirectory;
    auto region = analysis::computeLlmRegion(spec, options);
    if (!region)
        qFatal("computeLlmRegion failed: %s", region.error().toString().c_str());
    return std::move(*region);
}

const ReportSection* sectionOf(const ReportDocument& document, const std::string& id)
{
    const auto found =
        std::ranges::find_if(document.sections, [&](const ReportSection& s) { return s.id == id; });
    return found == document.sections.end() ? nullptr : &*found;
}

const ReportAttachment* attachmentOf(const ReportDocument& document, const std::string& name)
{
    const auto found = std::ranges::find_if(
        document.attachments, [&](const ReportAttachment& a) { return a.fileName == name; });
    return found == document.attachments.end() ? nullptr : &*found;
}

std::vector<std::string> attachmentNames(const ReportDocument& document)
{
    std::vector<std::string> names;
    for (const auto& a : document.attachments)
        names.push_back(a.fileName);
    return names;
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

/// The section's text as one string (paragraphs, key/values, table cells).
std::string sectionText(const ReportSection& section)
{
    std::string text;
    for (const auto& block : section.blocks) {
        if (const auto* p = std::get_if<ReportParagraph>(&block))
            text += p->text + "\n";
        else if (const auto* kv = std::get_if<ReportKeyValues>(&block))
            for (const auto& [key, value] : kv->entries)
                text += key + ": " + value + "\n";
        else if (const auto* t = std::get_if<ReportTable>(&block))
            for (const auto& row : t->rows)
                for (const auto& cell : row)
                    text += cell + "\n";
    }
    return text;
}

/// The document without the LLM curve pack's section and files.
ReportDocument withoutLlmPack(ReportDocument document)
{
    std::erase_if(document.sections,
                  [](const ReportSection& s) { return s.id == "llm-curve-pack"; });
    std::erase_if(document.attachments, [](const ReportAttachment& a) {
        return a.fileName.rfind(std::string(kStem) + "-llm-", 0) == 0;
    });
    return document;
}

} // namespace

class TestLlmReportPack : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sectionQuotesTheRegionsRecommendationAndHeadroom();
    void packFilesAreAttachedUnderTheStem();
    void jsonReportHoldsTheRegion();
    void noRecommendationSaysSoAndAttachesNoScenario();
    void relativeReplayResolvesAgainstTheProjectFolder();
    void brokenSectionSaysWhyNamingTheKey();
    void missingReplayFileIsNamed();
    void withoutAnLlmServerTheReportIsUnchanged();
    void cancellationStopsThePack();
};

void TestLlmReportPack::sectionQuotesTheRegionsRecommendationAndHeadroom()
{
    const auto spec = smallSpec();
    const auto bundle = prepare(projectWith(analysis::llmRegionSpecToJson(spec)));
    const auto expected = computed(spec);
    QVERIFY(expected.recommended());
    const auto& cell = *expected.recommended();
    QVERIFY(bundle.llmCurvePack && bundle.llmCurvePack->region);
    QCOMPARE(analysis::llmRegionToJson(*bundle.llmCurvePack->region),
             analysis::llmRegionToJson(expected));

    // The batching server's pack does not apply to a project that studies only an LLM server.
    QCOMPARE(bundle.curvePackNote,
             std::string("not applicable: the project studies an LLM server (its LLM curve pack "
                         "follows)"));
    const ReportSection* section = sectionOf(bundle.document, "llm-curve-pack");
    QVERIFY(section);
    QCOMPARE(section->heading, std::string("LLM curve pack"));
    const std::string text = sectionText(*section);
    const std::string knobs = "max_num_seqs " + std::to_string(cell.knobs.maxNumSeqs) +
                              ", max_num_batched_tokens " +
                              std::to_string(cell.knobs.maxNumBatchedTokens) + ", rate_per_s " +
                              formatNumber(cell.knobs.load);
    QVERIFY2(contains(text, "Recommendation (max-output-tokens): " + knobs), text.c_str());
    QVERIFY2(contains(text, std::to_string(expected.cells.size()) + " (" +
                                std::to_string(expected.feasible) + " feasible, " +
                                std::to_string(expected.infeasible) + " infeasible, " +
                                std::to_string(expected.refused) + " refused up front; " +
                                std::to_string(expected.notConfident) + " not confident)"),
             text.c_str());
    // Every check of the recommended cell: value, interval, limit and margin as the region has
    // them; the binding limit marked.
    const auto* table = std::get_if<ReportTable>(&section->blocks.at(2));
    QVERIFY(table);
    QCOMPARE(table->rows.size(), cell.checks.size());
    for (std::size_t i = 0; i < cell.checks.size(); ++i) {
        const auto& check = cell.checks[i];
        const auto& row = table->rows[i];
        QCOMPARE(row[1], formatValue(check.value, "ms"));
        QVERIFY2(row[2].rfind(formatNumber(check.ciLow) + " to " + formatNumber(check.ciHigh), 0) ==
                     0,
                 row[2].c_str());
        QCOMPARE(row[3], "≤ " + formatValue(check.limit, "ms"));
        QCOMPARE(row[4], formatNumber(check.margin * 100.0) + "%");
        QCOMPARE(row[5], std::string(check.satisfied ? "pass" : "fail"));
        QCOMPARE(contains(row[0], "(binding)"), check.kind == cell.binding);
    }
    QVERIFY(contains(text, formatValue(cell.metrics.outputTokensPerS.value, "output tokens/s")));

    // Every format shows the section and the recommended TTFT p99.
    const std::string ttft = formatValue(cell.checks[0].value, "ms");
    const auto md = renderMarkdown(bundle.document, kStem);
    QVERIFY(contains(md.markdown, "LLM curve pack"));
    QVERIFY(contains(md.markdown, "| TTFT p99 | " + ttft));
    const std::string html = renderHtml(bundle.document);
    QVERIFY(contains(html, "LLM curve pack"));
    QVERIFY(contains(html, "<td>" + ttft + "</td>"));
    // The figures of llmRegionFigures, drawn as the document's figures (Markdown: SVGs beside).
    const auto figures = analysis::llmRegionFigures(expected);
    QVERIFY(figures.size() >= 3);
    for (std::size_t i = 1; i <= figures.size(); ++i) {
        const std::string svg =
            std::string(kStem) + "-llm-curve-pack-fig" + std::to_string(i) + ".svg";
        QVERIFY2(
            std::ranges::any_of(md.files, [&](const RenderedFile& f) { return f.name == svg; }),
            svg.c_str());
    }
}

void TestLlmReportPack::packFilesAreAttachedUnderTheStem()
{
    const auto spec = smallSpec();
    const auto bundle = prepare(projectWith(analysis::llmRegionSpecToJson(spec)));
    const auto expected = computed(spec);
    const std::string stem = kStem;
    // "-llm-" keeps them apart from the queueing curve pack's "<stem>-cells.csv".
    for (const char* file :
         {"-llm-region.json", "-llm-cells.csv", "-llm-capacity.csv", "-llm-pareto.csv",
          "-llm-recommendation.json", "-llm-recommended-scenario.json"})
        QVERIFY2(attachmentOf(bundle.document, stem + file), file);
    QCOMPARE(attachmentOf(bundle.document, stem + "-llm-cells.csv")->content,
             analysis::llmCellsCsv(expected));
    QCOMPARE(attachmentOf(bundle.document, stem + "-llm-capacity.csv")->content,
             analysis::llmCapacityCsv(expected));
    QCOMPARE(attachmentOf(bundle.document, stem + "-llm-pareto.csv")->content,
             analysis::llmParetoCsv(expected));
    const auto scenario = llmsim::llmScenarioFromJson(nlohmann::json::parse(
        attachmentOf(bundle.document, stem + "-llm-recommended-scenario.json")->content));
    QVERIFY(scenario);
    QVERIFY(*scenario == analysis::llmCellScenario(spec, expected.recommendation->cell));
    // The Markdown writer puts them beside the report.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string md = dir.filePath(QStringLiteral("review.md")).toStdString();
    QVERIFY(writeMarkdownReport(bundle, md));
    QVERIFY(std::filesystem::exists(
        dir.filePath(QStringLiteral("review-llm-cells.csv")).toStdString()));
}

void TestLlmReportPack::jsonReportHoldsTheRegion()
{
    const auto spec = smallSpec();
    const auto bundle = prepare(projectWith(analysis::llmRegionSpecToJson(spec)));
    const auto expected = computed(spec);
    QVERIFY(bundle.json.contains("llm_curve_pack"));
    QCOMPARE(bundle.json["llm_curve_pack"], analysis::llmRegionToJson(expected));
    QCOMPARE(bundle.json["llm_curve_pack"]["recommendation"]["cell"]["index"].get<std::size_t>(),
             expected.recommendation->cell);
    // It reads back as a region.
    QVERIFY(analysis::isLlmRegionJson(bundle.json["llm_curve_pack"]));
    QVERIFY(analysis::llmRegionFromJson(bundle.json["llm_curve_pack"], "report.json"));
}

void TestLlmReportPack::noRecommendationSaysSoAndAttachesNoScenario()
{
    auto spec = smallSpec();
    spec.limits.tpotP99Ms = 1.0; // Below one 5 ms decode step: no cell meets it.
    const auto bundle = prepare(projectWith(analysis::llmRegionSpecToJson(spec)));
    QVERIFY(bundle.llmCurvePack && bundle.llmCurvePack->region);
    QVERIFY(!bundle.llmCurvePack->region->recommendation);
    const ReportSection* section = sectionOf(bundle.document, "llm-curve-pack");
    QVERIFY(section);
    const std::string text = sectionText(*section);
    QVERIFY2(contains(text, "Recommendation: none: no configuration is confidently feasible"),
             text.c_str());
    QVERIFY(std::ranges::none_of(section->blocks, [](const ReportBlock& b) {
        return std::holds_alternative<ReportTable>(b) || std::holds_alternative<ReportCode>(b);
    }));
    QVERIFY(attachmentOf(bundle.document, "review-llm-cells.csv"));
    QVERIFY(!attachmentOf(bundle.document, "review-llm-recommended-scenario.json"));
}

void TestLlmReportPack::relativeReplayResolvesAgainstTheProjectFolder()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QFile::copy(test::testDataPath(QStringLiteral("llm_playbook/baseline/requests.jsonl")),
                        dir.filePath(QStringLiteral("requests.jsonl"))));
    auto spec = smallSpec();
    spec.scenario.arrivals = {};
    spec.scenario.arrivals.file = "requests.jsonl";
    spec.scenario.replications = 1;
    spec.ratesPerS.clear();
    spec.limits.ttftP99Ms = 1e6; // A replay's verdict is its value: let every cell pass.
    spec.limits.tpotP99Ms = 1e6;
    const std::string projectPath = dir.filePath(QStringLiteral("server.bsproj")).toStdString();
    const auto bundle = prepare(projectWith(analysis::llmRegionSpecToJson(spec)), projectPath);
    QVERIFY2(bundle.llmCurvePack && bundle.llmCurvePack->region,
             bundle.llmCurvePack ? bundle.llmCurvePack->note.c_str() : "no pack");
    const auto scenario = llmsim::llmScenarioFromJson(nlohmann::json::parse(
        attachmentOf(bundle.document, "review-llm-recommended-scenario.json")->content));
    QVERIFY(scenario);
    QCOMPARE(std::filesystem::path(scenario->arrivals.file),
             std::filesystem::absolute(dir.filePath(QStringLiteral("requests.jsonl")).toStdString())
                 .lexically_normal());
    QCOMPARE(analysis::llmCellsCsv(*bundle.llmCurvePack->region),
             analysis::llmCellsCsv(computed(spec, dir.path().toStdString())));
}

void TestLlmReportPack::brokenSectionSaysWhyNamingTheKey()
{
    auto llm = analysis::llmRegionSpecToJson(smallSpec());
    llm["limits"]["ttft_p99_ms"] = "fast";
    const auto bundle = prepare(projectWith(llm), "/projects/server.bsproj");
    QVERIFY(bundle.llmCurvePack && !bundle.llmCurvePack->region);
    const ReportSection* section = sectionOf(bundle.document, "llm-curve-pack");
    QVERIFY(section);
    const auto* why = std::get_if<ReportParagraph>(&section->blocks.at(0));
    QVERIFY(why);
    QCOMPARE(why->style, ParagraphStyle::Warning);
    QVERIFY2(contains(why->text, "No LLM curve pack: ") &&
                 contains(why->text, "llm.limits.ttft_p99_ms") &&
                 contains(why->text, "/projects/server.bsproj"),
             why->text.c_str());
    QVERIFY(
        contains(renderMarkdown(bundle.document, kStem).markdown, "llm.limits.ttft\\_p99\\_ms"));
    QVERIFY(contains(bundle.json["llm_curve_pack"]["note"].get<std::string>(),
                     "llm.limits.ttft_p99_ms"));
    for (const auto& name : attachmentNames(bundle.document))
        QVERIFY2(!contains(name, "-llm-"), name.c_str());
}

void TestLlmReportPack::missingReplayFileIsNamed()
{
    auto spec = smallSpec();
    spec.scenario.arrivals = {};
    spec.scenario.arrivals.file = "no-such-requests.jsonl";
    spec.scenario.replications = 1;
    spec.ratesPerS.clear();
    const auto bundle = prepare(projectWith(analysis::llmRegionSpecToJson(spec)));
    QVERIFY(bundle.llmCurvePack && !bundle.llmCurvePack->region);
    const std::string text = sectionText(*sectionOf(bundle.document, "llm-curve-pack"));
    QVERIFY2(contains(text, "No LLM curve pack: ") && contains(text, "no-such-requests.jsonl"),
             text.c_str());
}

void TestLlmReportPack::withoutAnLlmServerTheReportIsUnchanged()
{
    // Both projects also hold a batching server's model, so the batch policy pack's note is
    // the same on both sides (an LLM-only project says that pack does not apply).
    const auto withModel = [](data::Project project) {
        project.model = {{"accelerator", "h100-sxm"}, {"workload", "resnet50"}};
        return project;
    };
    const auto plain = prepare(withModel(projectWith(nlohmann::json::object())));
    QVERIFY(!plain.llmCurvePack);
    QVERIFY(!sectionOf(plain.document, "llm-curve-pack"));
    QVERIFY(!plain.json.contains("llm_curve_pack"));
    QVERIFY(!contains(renderMarkdown(plain.document, kStem).markdown, "LLM curve pack"));
    // The LLM pack adds its section, files and JSON key, and touches nothing else.
    const auto withLlm =
        prepare(withModel(projectWith(analysis::llmRegionSpecToJson(smallSpec()))));
    QCOMPARE(withLlm.curvePackNote, plain.curvePackNote);
    const auto stripped = withoutLlmPack(withLlm.document);
    QVERIFY(stripped.attachments.size() < withLlm.document.attachments.size());
    QCOMPARE(renderMarkdown(stripped, kStem).markdown,
             renderMarkdown(plain.document, kStem).markdown);
    QCOMPARE(renderHtml(stripped), renderHtml(plain.document));
    auto json = withLlm.json;
    json.erase("llm_curve_pack");
    QCOMPARE(json, plain.json);
}

void TestLlmReportPack::cancellationStopsThePack()
{
    CancelToken cancel;
    cancel.cancel();
    auto pack = computeLlmCurvePack(projectWith(analysis::llmRegionSpecToJson(smallSpec())), {}, 0,
                                    Progress::null(), cancel);
    QVERIFY(!pack);
    QCOMPARE(pack.error().code, ErrorCode::Cancelled);
}

QTEST_APPLESS_MAIN(TestLlmReportPack)
#include "tst_llmreportpack.moc"
