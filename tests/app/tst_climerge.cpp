// `batchscope-cli region --shard I/N` and `merge` as an array job uses them: the merged result
// equals the single run, and shards that were edited or hold extreme values (p99 from 1e-300 s
// to 1e300 s: 600 decades on the log axes of the curve pack's plots) end in a result or a clear
// error within seconds, never an abort or a hang.
#include "clirun.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using bs::test::CliRun;
using bs::test::runCli;

namespace {

constexpr int kHostileDeadlineMs = 10000;

QStringList regionArgs(const QString& scenario)
{
    return {QStringLiteral("region"),         scenario,
            QStringLiteral("--max-batch"),    QStringLiteral("1,8,32"),
            QStringLiteral("--max-delay-ms"), QStringLiteral("0,2"),
            QStringLiteral("--sla-p99-ms"),   QStringLiteral("10")};
}

QJsonObject readObject(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

bool writeObject(const QString& path, const QJsonObject& object)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           file.write(QJsonDocument(object).toJson()) > 0;
}

/// Sets a cell's p99 (value and interval) and re-judges its one p99 check the way the region
/// analysis does: what a consistent shard with such a value would hold.
void setP99Consistently(QJsonObject& cell, double p99S)
{
    QJsonObject metrics = cell[QStringLiteral("metrics")].toObject();
    metrics[QStringLiteral("p99_s")] = QJsonArray{p99S, p99S, p99S};
    cell[QStringLiteral("metrics")] = metrics;
    QJsonArray checks = cell[QStringLiteral("checks")].toArray();
    QJsonObject check = checks.at(0).toObject();
    const double limit = check[QStringLiteral("limit")].toDouble();
    const double margin = (limit - p99S) / limit;
    check[QStringLiteral("value")] = p99S;
    check[QStringLiteral("margin")] = margin;
    check[QStringLiteral("satisfied")] = margin >= 0.0;
    check[QStringLiteral("decided")] = true;
    checks[0] = check;
    cell[QStringLiteral("checks")] = checks;
    cell[QStringLiteral("status")] =
        margin >= 0.0 ? QStringLiteral("feasible") : QStringLiteral("infeasible");
    cell[QStringLiteral("binding")] = QStringLiteral("p99");
    cell[QStringLiteral("confident")] = true;
}

} // namespace

class TestCliMerge : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_shard0;
    QString m_shard1;
    QJsonObject m_single;

    QString path(const QString& name) const { return m_dir.filePath(name); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QFile scenario(path(QStringLiteral("scenario.json")));
        QVERIFY(scenario.open(QIODevice::WriteOnly));
        // A region small enough for a test: 3 x 2 policies, a 10 ms SLA.
        scenario.write(bs::test::poissonTableScenario(20000, 2));
        scenario.close();
        const QString shards = path(QStringLiteral("shards"));
        for (const char* shard : {"0/2", "1/2"}) {
            const CliRun run = runCli(regionArgs(scenario.fileName())
                                      << QStringLiteral("--shard") << QString::fromLatin1(shard)
                                      << QStringLiteral("--out") << shards);
            QVERIFY2(run.exitCode == 0, run.err.constData());
        }
        m_shard0 = shards + QStringLiteral("/region-shard-0-of-2.json");
        m_shard1 = shards + QStringLiteral("/region-shard-1-of-2.json");
        QVERIFY(QFileInfo::exists(m_shard0) && QFileInfo::exists(m_shard1));
        const CliRun single = runCli(regionArgs(scenario.fileName()) << QStringLiteral("--json"));
        QVERIFY2(single.exitCode == 0, single.err.constData());
        m_single = QJsonDocument::fromJson(single.out).object();
        QVERIFY(!m_single.isEmpty());
    }

    void mergedShardsEqualTheSingleRun()
    {
        const CliRun merged =
            runCli({QStringLiteral("merge"), m_shard1, m_shard0, QStringLiteral("--json")});
        QVERIFY2(merged.exitCode == 0, merged.err.constData());
        const QJsonObject result = QJsonDocument::fromJson(merged.out).object();
        for (const char* key : {"cells", "recommendation", "pareto_cells", "summary", "capacity"})
            QCOMPARE(result[QLatin1String(key)], m_single[QLatin1String(key)]);
    }

    void extremeP99ValuesMergeWithinSeconds()
    {
        QJsonObject shard = readObject(m_shard0);
        QJsonArray cells = shard[QStringLiteral("cells")].toArray();
        QVERIFY(cells.size() >= 2);
        QJsonObject tiny = cells[0].toObject();
        QJsonObject huge = cells[1].toObject();
        setP99Consistently(tiny, 1e-300);
        setP99Consistently(huge, 1e300);
        cells[0] = tiny;
        cells[1] = huge;
        shard[QStringLiteral("cells")] = cells;
        const QString edited = path(QStringLiteral("extreme-shard-0.json"));
        QVERIFY(writeObject(edited, shard));

        const QString pack = path(QStringLiteral("extreme-pack"));
        const CliRun run =
            runCli({QStringLiteral("merge"), edited, m_shard1, QStringLiteral("--out"), pack},
                   kHostileDeadlineMs);
        QVERIFY2(run.finished, "merge did not end within 10 s");
        QVERIFY2(!run.crashed, run.err.constData());
        QVERIFY2(run.exitCode == 0, run.err.constData());
        // The 1e300 s cell misses the SLA; its plots are drawn with bounded ticks.
        QVERIFY(run.out.contains("p99"));
        for (const char* svg : {"throughput-p99.svg", "region-heatmap.svg"}) {
            const QFileInfo plot(pack + QLatin1Char('/') + QLatin1String(svg));
            QVERIFY2(plot.exists(), svg);
            QVERIFY2(plot.size() < 2 * 1024 * 1024, svg);
        }
    }

    void anEditedVerdictIsRefusedNamingTheShardAndCell()
    {
        QJsonObject shard = readObject(m_shard0);
        QJsonArray cells = shard[QStringLiteral("cells")].toArray();
        QJsonObject cell = cells[1].toObject();
        QJsonObject metrics = cell[QStringLiteral("metrics")].toObject();
        metrics[QStringLiteral("p99_s")] = QJsonArray{1e300, 1e300, 1e300};
        cell[QStringLiteral("metrics")] = metrics;
        cells[1] = cell; // still "feasible", its check still "met"
        shard[QStringLiteral("cells")] = cells;
        const QString edited = path(QStringLiteral("edited-shard-0.json"));
        QVERIFY(writeObject(edited, shard));

        const CliRun run = runCli({QStringLiteral("merge"), edited, m_shard1}, kHostileDeadlineMs);
        QVERIFY(run.finished && !run.crashed);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("edited-shard-0.json"), run.err.constData());
        const QString cellName =
            QStringLiteral("cell %1:").arg(cell[QStringLiteral("index")].toInt());
        QVERIFY2(run.err.contains(cellName.toUtf8()), run.err.constData());
        QVERIFY2(run.err.contains("not what its metrics give"), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliMerge)
#include "tst_climerge.moc"
