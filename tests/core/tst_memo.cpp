#include "playbook/memo.h"

#include <QtTest>

using namespace bs;
using namespace bs::playbook;

class TestMemo : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void blankMemoNamesOwnersAndArtifact();
    void userEditsAreNeverOverwrittenByDrafts();
    void jsonRoundTripIsIdentical();
    void badJsonNamesTheKey();
};

void TestMemo::blankMemoNamesOwnersAndArtifact()
{
    const Memo memo = Memo::blank();
    QCOMPARE(memo.owners.size(), std::size_t(4));
    QCOMPARE(memo.owners[3].role, std::string("Power and thermal architect"));
    QVERIFY(memo.requiredArtifact.text.find("curve pack") != std::string::npos);
    QCOMPARE(memo.decision, Decision::Undecided);
}

void TestMemo::userEditsAreNeverOverwrittenByDrafts()
{
    MemoField field;
    field.offerDraft("p99 latency at batch 64");
    QCOMPARE(field.text, std::string("p99 latency at batch 64"));
    field.setByUser("p99 latency at batch 64 under MMPP bursts");
    field.offerDraft("p99 latency at batch 128");
    QCOMPARE(field.text, std::string("p99 latency at batch 64 under MMPP bursts"));
    QVERIFY(field.hasPendingDraft());
    field.acceptDraft();
    QCOMPARE(field.text, std::string("p99 latency at batch 128"));
    QVERIFY(!field.hasPendingDraft());
    field.offerDraft("p99 latency at batch 32");
    QCOMPARE(field.text, std::string("p99 latency at batch 32"));
}

void TestMemo::jsonRoundTripIsIdentical()
{
    Memo memo = Memo::blank();
    memo.failingMetric.setByUser("p99 > 15 ms <script>alert(1)</script>");
    memo.primaryMechanism.offerDraft("thermal");
    memo.owners[1].name = "R. Okafor";
    memo.owners[1].state = SignoffState::Approved;
    memo.decision = Decision::BoundedRollout;
    memo.rollbackBoundary.setByUser("revert if p99 > 18 ms for 10 min");
    // An attached chart with every kind of content travels exactly (NaN comes back as NaN
    // only through the "no value" null, so the points here are finite).
    MemoEvidence evidence;
    evidence.title = "Latency <distribution>";
    evidence.source = "Traces view of the demo";
    evidence.figure.title = "p99 over time";
    evidence.figure.yLog = true;
    evidence.figure.series.push_back(
        {"p99", figure::FigureSeriesKind::Step, {{0.5, 2.25}, {1.5, 3.0}}, 3, true});
    evidence.figure.referenceLines.push_back(
        {figure::FigureReferenceLine::Orientation::Vertical, 1.0, "SLA"});
    evidence.figure.markers.push_back({{1.5, 3.0}, "worst"});
    figure::FigureHeatmap map;
    map.columnLabels = {"1", "2"};
    map.rowLabels = {"0"};
    map.categoryNames = {"feasible"};
    map.categories = {0, -1};
    map.highlightedCell = std::pair{1, 0};
    evidence.figure.heatmap = map;
    memo.evidence.push_back(evidence);
    auto back = memoFromJson(toJson(memo));
    QVERIFY(back);
    QVERIFY(*back == memo);
    QVERIFY(toJson(*back) == toJson(memo));
}

void TestMemo::badJsonNamesTheKey()
{
    auto bad = memoFromJson(nlohmann::json{{"decision", "yolo"}}, "p.bsproj");
    QVERIFY(!bad);
    QCOMPARE(QString::fromStdString(bad.error().toString()),
             QStringLiteral("p.bsproj: memo.decision: unknown value 'yolo'; expected one of: "
                            "undecided, ship, bounded_rollout, rollback, escalate"));
    auto typo =
        memoFromJson(nlohmann::json{{"fields", {{"failing_metrik", {{"text", "x"}}}}}}, "p.bsproj");
    QVERIFY(!typo);
    QVERIFY(QString::fromStdString(typo.error().message)
                .startsWith(QStringLiteral("memo.fields.failing_metrik: unknown key")));
    auto badFigure = memoFromJson(
        nlohmann::json{
            {"evidence", {{{"title", "x"}, {"figure", {{"series", {{{"kind", "pie"}}}}}}}}}},
        "p.bsproj");
    QVERIFY(!badFigure);
    QVERIFY2(QString::fromStdString(badFigure.error().message)
                 .contains(QStringLiteral("series[0].kind")),
             badFigure.error().message.c_str());
}

QTEST_APPLESS_MAIN(TestMemo)
#include "tst_memo.moc"
