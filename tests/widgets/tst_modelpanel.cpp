#include "document/projectdocument.h"
#include "io/readdataset.h"
#include "panels/modelpanel.h"
#include "panels/parametercontrol.h"
#include "testsupport.h"
#include "workbench/replayarrivals.h"
#include "workbench/workbenchdefaults.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QUndoStack>
#include <QtTest>

using namespace bs;
using namespace bs::widgets;

/// The Model dock's traffic edits (issue 21).
class TestModelPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void retypingTheShownMmppValuesChangesNothing();
    void aNewValueChangesOnlyWhatItMeans_data();
    void aNewValueChangesOnlyWhatItMeans();
    void anImportedTraceCanBeReplayed();

private:
    /// A project whose first scenario has MMPP-2 arrivals with more digits than the dock shows.
    void openMmppProject(ProjectDocument& document) const;
    nlohmann::json savedArrivals(const ProjectDocument& document) const;
    QTemporaryDir m_dir;
};

namespace {

const nlohmann::json kMmpp = {
    {"kind", "mmpp2"},
    {"rates_per_s", {1234.5678, 5432.1987}},
    {"mean_dwell_s", {0.7, 0.3}},
    {"profile", {{"kind", "diurnal"}, {"period_s", 600}, {"amplitude", 0.2}}}};

ParameterControl* controlOf(ModelPanel& panel, const char* name)
{
    auto* control = panel.control(QString::fromLatin1(name));
    if (!control)
        qFatal("no control %s", name);
    return control;
}

QComboBox* arrivalsBox(ModelPanel& panel)
{
    return panel.findChild<QComboBox*>(QStringLiteral("arrivals"));
}

/// Types text into a control's spin box and presses Enter, as a user does.
void typeInto(ParameterControl* control, const QString& text)
{
    QLineEdit* edit = control->spinBox()->findChild<QLineEdit*>();
    edit->selectAll();
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
}

double ratio(const nlohmann::json& arrivals)
{
    return arrivals["rates_per_s"][1].get<double>() / arrivals["rates_per_s"][0].get<double>();
}

} // namespace

void TestModelPanel::openMmppProject(ProjectDocument& document) const
{
    data::Project project;
    nlohmann::json scenario = defaultScenario();
    scenario["arrivals"] = kMmpp;
    project.scenarios = nlohmann::json::array({scenario});
    document.reset(std::move(project), {});
}

nlohmann::json TestModelPanel::savedArrivals(const ProjectDocument& document) const
{
    return document.project().scenarios[0]["arrivals"];
}

void TestModelPanel::retypingTheShownMmppValuesChangesNothing()
{
    ProjectDocument document;
    openMmppProject(document);
    ModelPanel panel(&document);
    const QString path = m_dir.filePath(QStringLiteral("mmpp.bsproj"));
    QVERIFY(document.save(path));
    const QByteArray before = test::readFile(path);

    ParameterControl* rate = controlOf(panel, "rate");
    ParameterControl* burstiness = controlOf(panel, "burstiness");
    QCOMPARE(rate->value(),
             2494.0); // 1234.5678 · 0.7 + 5432.1987 · 0.3 = 2493.857, shown to 0 decimals
    // What a user sees, typed again; then the same edits as the controls report them (a spin
    // box that already holds the value stays quiet, so emit as a slider release would).
    typeInto(rate, rate->spinBox()->cleanText());
    typeInto(burstiness, burstiness->spinBox()->cleanText());
    Q_EMIT rate->valueEdited(rate->value(), 1);
    Q_EMIT burstiness->valueEdited(burstiness->value(), 2);
    QComboBox* arrivals = arrivalsBox(panel);
    QVERIFY(arrivals);
    Q_EMIT arrivals->activated(arrivals->currentIndex());

    QCOMPARE(document.undoStack()->count(), 0);
    QVERIFY(!document.isModified());
    QCOMPARE(savedArrivals(document), kMmpp);
    QVERIFY(document.save(path));
    QCOMPARE(test::readFile(path), before);
}

void TestModelPanel::aNewValueChangesOnlyWhatItMeans_data()
{
    const double savedMean = meanRateOf(kMmpp);
    QTest::addColumn<QString>("control");
    QTest::addColumn<QString>("typed");
    QTest::addColumn<double>("mean");
    QTest::addColumn<double>("burstRatio");
    QTest::addColumn<double>("shownRate");
    // A new mean scales both state rates: the ratio (burstiness) stays as saved.
    QTest::newRow("mean rate") << QStringLiteral("rate") << QStringLiteral("5000") << 5000.0
                               << ratio(kMmpp) << 5000.0;
    // A new burstiness keeps the mean over the saved dwell times.
    QTest::newRow("burstiness") << QStringLiteral("burstiness") << QStringLiteral("6") << savedMean
                                << 6.0 << 2494.0;
}

void TestModelPanel::aNewValueChangesOnlyWhatItMeans()
{
    QFETCH(QString, control);
    QFETCH(QString, typed);
    QFETCH(double, mean);
    QFETCH(double, burstRatio);
    QFETCH(double, shownRate);
    ProjectDocument document;
    openMmppProject(document);
    ModelPanel panel(&document);
    typeInto(controlOf(panel, control.toLatin1().constData()), typed);
    const nlohmann::json after = savedArrivals(document);
    QCOMPARE(document.undoStack()->count(), 1);
    QVERIFY2(qAbs(meanRateOf(after) / mean - 1.0) < 1e-12,
             qPrintable(QString::number(meanRateOf(after))));
    QVERIFY2(qAbs(ratio(after) / burstRatio - 1.0) < 1e-12,
             qPrintable(QString::number(ratio(after))));
    QCOMPARE(after["mean_dwell_s"], kMmpp["mean_dwell_s"]);
    QCOMPARE(after["profile"], kMmpp["profile"]);
    QCOMPARE(controlOf(panel, "rate")->value(), shownRate);
}

void TestModelPanel::anImportedTraceCanBeReplayed()
{
    ProjectDocument document;
    openMmppProject(document);
    ModelPanel panel(&document);
    QComboBox* arrivals = arrivalsBox(panel);
    QVERIFY(arrivals->findText(QStringLiteral("Replay imported trace"), Qt::MatchStartsWith) >= 0);

    auto trace = io::readDataset(
        test::testDataPath(QStringLiteral("request_trace/azure_replay_400.csv")).toStdString());
    QVERIFY2(trace, trace ? "" : trace.error().toString().c_str());
    document.addDataset(*trace);
    const int replay =
        arrivals->findText(QStringLiteral("Replay imported trace: "), Qt::MatchStartsWith);
    QVERIFY2(replay >= 0, "no replay choice for the imported trace");
    arrivals->setCurrentIndex(replay);
    Q_EMIT arrivals->activated(replay);

    const nlohmann::json scenario = document.project().scenarios[0];
    QCOMPARE(scenario["arrivals"]["kind"], "replay");
    QCOMPARE(scenario["arrivals"]["file"], trace->provenance.path);
    QCOMPARE(scenario["requests"].get<std::size_t>(), std::size_t(400));
    QCOMPARE(scenario["warmup_requests"].get<int>(), 0);
    QCOMPARE(arrivals->currentIndex(), replay);
    const double recorded = recordedRatePerS(*document.project().datasets[0].requestTrace());
    QCOMPARE(controlOf(panel, "rate")->value(), controlOf(panel, "rate")->displayed(recorded));
    QVERIFY(!controlOf(panel, "burstiness")->isEnabled());
    // The simulator gets the trace from memory, in arrival order (two rows are swapped).
    const nlohmann::json resolved = withReplayInMemory(scenario, document.project());
    QVERIFY(!resolved["arrivals"].contains("file"));
    const auto times = resolved["arrivals"]["times_s"].get<std::vector<double>>();
    QCOMPARE(times.size(), std::size_t(400));
    QVERIFY(std::is_sorted(times.begin(), times.end()));

    // Back to a traffic model: the run length of a model comes back.
    arrivals->setCurrentIndex(arrivals->findData(QStringLiteral("poisson")));
    Q_EMIT arrivals->activated(arrivals->currentIndex());
    const nlohmann::json poisson = document.project().scenarios[0];
    QCOMPARE(poisson["arrivals"]["kind"], "poisson");
    QCOMPARE(poisson["requests"], defaultScenario()["requests"]);
}

QTEST_MAIN(TestModelPanel)
#include "tst_modelpanel.moc"
