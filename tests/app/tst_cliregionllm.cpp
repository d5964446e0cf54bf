// `batchscope-cli region` on an LLM scenario (REGION.md, "LLM servers"): the grid, the
// recommendation, the curve pack whose reproducer `simulate` runs to the same figures, and
// clear usage errors for bad flags. The scenario is tst_llmregion's hand-worked one.
#include "clirun.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using bs::test::CliRun;
using bs::test::runCli;

namespace {

constexpr char kLlmScenario[] = R"({"kind": "llm", "seed": 11, "replications": 5,
 "engine": {"policy": "vllm_v1", "max_num_seqs": 16, "max_num_batched_tokens": 1024,
            "enable_chunked_prefill": true, "block_size": 16, "num_gpu_blocks": 8192},
 "step": {"kind": "linear", "base_ms": 5, "per_prefill_token_ms": 0.04, "per_decode_seq_ms": 0.5},
 "arrivals": {"kind": "poisson", "rate_per_s": 10, "requests": 2000,
              "prompt_tokens": {"kind": "fixed", "tokens": 1000},
              "output_tokens": {"kind": "fixed", "tokens": 20}}})";

QStringList args(const QString& scenario)
{
    return {QStringLiteral("region"),
            scenario,
            QStringLiteral("--max-num-seqs"),
            QStringLiteral("1,4,16"),
            QStringLiteral("--max-num-batched-tokens"),
            QStringLiteral("256,2048"),
            QStringLiteral("--sla-ttft-ms"),
            QStringLiteral("1000"),
            QStringLiteral("--sla-tpot-ms"),
            QStringLiteral("25"),
            QStringLiteral("--min-output-tokens-per-s"),
            QStringLiteral("150")};
}

QJsonObject readObject(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace

class TestCliRegionLlm : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_scenario;

    QString path(const QString& name) const { return m_dir.filePath(name); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_scenario = path(QStringLiteral("llm.json"));
        QFile file(m_scenario);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(kLlmScenario);
        file.close();
    }

    void printsTheGridAndTheRecommendation()
    {
        const CliRun run = runCli(args(m_scenario));
        QVERIFY2(run.exitCode == 0, run.err.constData());
        qInfo("%s", run.out.constData());
        const QByteArray& out = run.out;
        QVERIFY(out.contains("3 feasible, 3 infeasible, 0 refused, 1 not confident"));
        QVERIFY(out.contains("       1    ttft    ttft\n"));
        QVERIFY(out.contains("       4     ok?      ok\n"));
        QVERIFY(out.contains("      16     ok*    tpot\n"));
        QVERIFY(out.contains("recommended: max_num_seqs 16, max_num_batched_tokens 256"));
        QVERIFY(out.contains("headroom: ttft_p99 "));
        // No load axis: the headroom is a multiple of the scenario's 10 req/s.
        QVERIFY(out.contains("  load headroom: x"));
        QVERIFY(out.contains(" req/s) met, x"));
    }

    void itlAndE2eLimitsAreJudgedAndStated()
    {
        // Every gap between tokens is at least one decode step (5.5 ms with one sequence), so
        // an ITL limit of 5 ms fails every cell; cells the TTFT limit does not fail first say
        // "itl". The limits are stated with the others; 0 is refused, naming the option.
        const CliRun run =
            runCli(args(m_scenario) << QStringLiteral("--sla-itl-ms") << QStringLiteral("5")
                                    << QStringLiteral("--sla-e2e-ms") << QStringLiteral("100000"));
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.contains("TPOT p99 <= 25 ms, ITL p99 <= 5 ms, E2E p99 <= 100000 ms"),
                 run.out.constData());
        QVERIFY(run.out.contains("0 feasible"));
        QVERIFY(run.out.contains("    itl"));
        const CliRun zero =
            runCli(args(m_scenario) << QStringLiteral("--sla-itl-ms") << QStringLiteral("0"));
        QCOMPARE(zero.exitCode, 2);
        QVERIFY2(zero.err.contains("--sla-itl-ms: must be a number above 0"), zero.err.constData());
    }

    void packReproducerSimulatesToTheSameFigures()
    {
        const QString pack = path(QStringLiteral("pack"));
        const CliRun run = runCli(args(m_scenario) << QStringLiteral("--out") << pack);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        for (const char* name :
             {"cells.csv", "recommendation.json", "llm-region.json", "recommended-scenario.json"})
            QVERIFY2(QFileInfo::exists(pack + QLatin1Char('/') + QLatin1String(name)), name);
        const QJsonObject rec = readObject(pack + QStringLiteral("/recommendation.json"));
        const QJsonObject metrics =
            rec[QStringLiteral("cell")][QStringLiteral("metrics")].toObject();
        QVERIFY(!metrics.isEmpty());
        QVERIFY(rec[QStringLiteral("headroom_margins")].toObject().contains(
            QStringLiteral("tpot_p99")));
        const QJsonObject load = rec[QStringLiteral("load_headroom")].toObject();
        const double met = load[QStringLiteral("multiplier")].toDouble();
        const double fails = load[QStringLiteral("failing_multiplier")].toDouble();
        QVERIFY(load[QStringLiteral("converged")].toBool());
        QVERIFY2(fails > met && fails / met <= 1.02, qPrintable(QString::number(fails / met)));
        QCOMPARE(load[QStringLiteral("max_rate_per_s")].toDouble(), 10.0 * met);
        QVERIFY(load[QStringLiteral("simulations")].toInt() > 0);

        const CliRun sim =
            runCli({QStringLiteral("simulate"), pack + QStringLiteral("/recommended-scenario.json"),
                    QStringLiteral("--json")});
        QVERIFY2(sim.exitCode == 0, sim.err.constData());
        const QJsonObject result = QJsonDocument::fromJson(sim.out).object();
        const auto value = [&](const char* metric, const char* percentile) {
            const QJsonObject m = result[QLatin1String(metric)].toObject();
            return (percentile ? m[QLatin1String(percentile)].toObject()
                               : m)[QStringLiteral("value")]
                .toDouble();
        };
        const auto regionValue = [&](const char* key) {
            return metrics[QLatin1String(key)].toArray().at(0).toDouble();
        };
        QCOMPARE(value("ttft_ms", "p99"), regionValue("ttft_p99_ms"));
        QCOMPARE(value("tpot_ms", "p99"), regionValue("tpot_p99_ms"));
        QCOMPARE(value("output_tokens_per_s", nullptr), regionValue("output_tokens_per_s"));
        QCOMPARE(result[QStringLiteral("replications")].toInt(), 5);
    }

    void identicalForOneAndTwoThreads()
    {
        const CliRun one =
            runCli(args(m_scenario) << QStringLiteral("--json") << QStringLiteral("--threads")
                                    << QStringLiteral("1"));
        const CliRun two =
            runCli(args(m_scenario) << QStringLiteral("--json") << QStringLiteral("--threads")
                                    << QStringLiteral("2"));
        QVERIFY2(one.exitCode == 0 && two.exitCode == 0, one.err.constData());
        QCOMPARE(one.out, two.out);
        const QJsonObject r = QJsonDocument::fromJson(one.out).object();
        QCOMPARE(r[QStringLiteral("kind")].toString(),
                 QStringLiteral("batchscope.llmregion.result"));
        QCOMPARE(r[QStringLiteral("cells")].toArray().size(), 6);
    }

    void shardsMergeToTheSingleMachineResult()
    {
        // The Slurm job array's two steps, by hand: each task computes a slice, merge joins.
        QStringList argv = args(m_scenario);
        argv << QStringLiteral("--rate-per-s") << QStringLiteral("5,10")
             << QStringLiteral("--json");
        const CliRun whole = runCli(argv);
        QVERIFY2(whole.exitCode == 0, whole.err.constData());
        QStringList shardFiles;
        for (int i = 0; i < 3; ++i) {
            const QString folder = path(QStringLiteral("shards"));
            QStringList shard = args(m_scenario);
            shard << QStringLiteral("--rate-per-s") << QStringLiteral("5,10")
                  << QStringLiteral("--shard") << QStringLiteral("%1/3").arg(i)
                  << QStringLiteral("--out") << folder;
            const CliRun run = runCli(shard);
            QVERIFY2(run.exitCode == 0, run.err.constData());
            QVERIFY(run.err.contains("shard written to"));
            shardFiles << folder + QStringLiteral("/llm-region-shard-%1-of-3.json").arg(i);
        }
        std::reverse(shardFiles.begin(), shardFiles.end());
        const QString pack = path(QStringLiteral("merged"));
        const CliRun merged =
            runCli(QStringList{QStringLiteral("merge")} << shardFiles << QStringLiteral("--json")
                                                        << QStringLiteral("--out") << pack);
        QVERIFY2(merged.exitCode == 0, merged.err.constData());
        QCOMPARE(merged.out, whole.out);
        for (const char* name : {"cells.csv", "capacity.csv", "pareto.csv", "llm-capacity.svg"})
            QVERIFY2(QFileInfo::exists(pack + QLatin1Char('/') + QLatin1String(name)), name);
        // A slice missing is an error, not a smaller region.
        shardFiles.removeLast();
        const CliRun missing = runCli(QStringList{QStringLiteral("merge")} << shardFiles);
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains("slice 0/3 is missing"), missing.err.constData());
    }

    void rateAndReplicaAxesPrintCapacity()
    {
        QStringList argv = args(m_scenario);
        argv << QStringLiteral("--rate-per-s") << QStringLiteral("10,40")
             << QStringLiteral("--servers") << QStringLiteral("1,2");
        const CliRun run = runCli(argv);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QByteArray out = run.out;
        qInfo("%s", out.constData());
        QVERIFY(out.contains("at replicas 2, rate_per_s 40:"));
        QVERIFY(out.contains("capacity: the highest rate_per_s each configuration meets every "
                             "limit at"));
        // One seat saturates at 6.7 requests/s, so it meets no load of this grid.
        QVERIFY(out.contains(
            "  max_num_seqs 1, budget 256, replicas 1: none (not met at 10: ttft_p99)"));
        QVERIFY(out.contains("Pareto front (output tokens/s, TTFT p99, TPOT p99): "));
    }

    void kvMemoryAxisSizesTheCacheOfEachSlice()
    {
        // tst_llmregionkvmemory's case: Llama-3.1-8B on a 20 GiB GPU at 12 req/s.
        QJsonObject scenario = QJsonDocument::fromJson(kLlmScenario).object();
        QJsonObject engine = scenario.value(QStringLiteral("engine")).toObject();
        engine.remove(QStringLiteral("num_gpu_blocks"));
        engine.insert(
            QStringLiteral("kv_memory"),
            QJsonObject{{QStringLiteral("model_config"), QStringLiteral("builtin:llama-3.1-8b")},
                        {QStringLiteral("device_memory_gib"), 20}});
        scenario.insert(QStringLiteral("engine"), engine);
        QJsonObject arrivals = scenario.value(QStringLiteral("arrivals")).toObject();
        arrivals.insert(QStringLiteral("rate_per_s"), 12);
        scenario.insert(QStringLiteral("arrivals"), arrivals);
        const QString file = path(QStringLiteral("kv.json"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(scenario).toJson());
        out.close();
        const QString pack = path(QStringLiteral("kv-pack"));
        const CliRun run = runCli(
            {QStringLiteral("region"), file, QStringLiteral("--max-num-seqs"), QStringLiteral("64"),
             QStringLiteral("--max-num-batched-tokens"), QStringLiteral("2048"),
             QStringLiteral("--gpu-memory-utilization"), QStringLiteral("0.5,0.9"),
             QStringLiteral("--sla-ttft-ms"), QStringLiteral("600"),
             QStringLiteral("--sla-tpot-ms"), QStringLiteral("52"), QStringLiteral("--out"), pack});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        qInfo("%s", run.out.constData());
        QVERIFY(run.out.contains("at gpu_memory_utilization 0.5:"));
        QVERIFY(run.out.contains("at gpu_memory_utilization 0.9:"));
        // A refused cell prints "ref" in the grid; the summary says why once per reason.
        QVERIFY(run.out.contains("refusals:\n  1 cell(s), first "
                                 "max_num_seqs 64, budget 2048, gpu_memory_utilization 0.5: "
                                 "refused up front: scenario.engine.kv_memory: the weights"));
        QVERIFY(run.out.contains("recommended: max_num_seqs 64, max_num_batched_tokens 2048, "
                                 "gpu_memory_utilization 0.9"));
        const QJsonObject region = readObject(pack + QStringLiteral("/llm-region.json"));
        const QJsonArray cells = region.value(QStringLiteral("cells")).toArray();
        QCOMPARE(cells.size(), 2);
        const QJsonObject refused = cells.at(0).toObject();
        QCOMPARE(refused.value(QStringLiteral("status")).toString(), QStringLiteral("refused"));
        QVERIFY(refused.value(QStringLiteral("note"))
                    .toString()
                    .contains(QStringLiteral("leave no room for a KV block")));
        QCOMPARE(refused.value(QStringLiteral("knobs"))
                     .toObject()
                     .value(QStringLiteral("gpu_memory_utilization"))
                     .toDouble(),
                 0.5);
        // The reproducer carries the recommended share.
        const QJsonObject reproducer =
            readObject(pack + QStringLiteral("/recommended-scenario.json"));
        QCOMPARE(reproducer.value(QStringLiteral("engine"))
                     .toObject()
                     .value(QStringLiteral("kv_memory"))
                     .toObject()
                     .value(QStringLiteral("gpu_memory_utilization"))
                     .toDouble(),
                 0.9);
    }

    void badFlagsAreUsageErrors_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QStringList>("remove");
        QTest::addColumn<QByteArray>("expected");
        const QStringList none;
        QTest::newRow("no tpot limit") << none << QStringList{QStringLiteral("--sla-tpot-ms")}
                                       << QByteArray("--sla-tpot-ms: required for an LLM scenario");
        QTest::newRow("fractional seqs")
            << QStringList{QStringLiteral("--max-num-seqs"), QStringLiteral("2.5")} << none
            << QByteArray("--max-num-seqs: '2.5' is not a whole number");
        QTest::newRow("queueing axis")
            << QStringList{QStringLiteral("--max-batch"), QStringLiteral("8")} << none
            << QByteArray("--max-batch: applies to queueing scenarios");
        QStringList many;
        for (int i = 1; i <= 70; ++i)
            many << QString::number(i);
        QTest::newRow("too many cells")
            << QStringList{QStringLiteral("--max-num-seqs"), many.join(QLatin1Char(',')),
                           QStringLiteral("--max-num-batched-tokens"), many.join(QLatin1Char(','))}
            << none << QByteArray("4900 cells, more than the 4096");
        QTest::newRow("memory share on a fixed cache")
            << QStringList{QStringLiteral("--gpu-memory-utilization"), QStringLiteral("0.9")}
            << none
            << QByteArray("--gpu-memory-utilization: needs the scenario's KV cache sized from "
                          "memory");
        QTest::newRow("replications on nothing")
            << QStringList{QStringLiteral("--replications"), QStringLiteral("0")} << none
            << QByteArray("--replications");
    }
    void badFlagsAreUsageErrors()
    {
        QFETCH(QStringList, extra);
        QFETCH(QStringList, remove);
        QFETCH(QByteArray, expected);
        QStringList argv = args(m_scenario);
        for (const QString& option : remove) {
            const auto at = argv.indexOf(option);
            argv.remove(at, 2);
        }
        // A repeated option replaces the earlier value.
        argv << extra;
        const CliRun run = runCli(argv);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(expected), run.err.constData());
    }

    void llmAxesOnAQueueingScenarioAreRefused()
    {
        const QString queueing = path(QStringLiteral("queueing.json"));
        QFile file(queueing);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bs::test::poissonTableScenario(1000, 1));
        file.close();
        const CliRun run =
            runCli({QStringLiteral("region"), queueing, QStringLiteral("--max-num-seqs"),
                    QStringLiteral("8"), QStringLiteral("--sla-p99-ms"), QStringLiteral("10")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("--max-num-seqs: applies to LLM scenarios"), run.err.constData());
    }

    void helpDescribesTheLlmRegion()
    {
        const CliRun run = runCli({QStringLiteral("region"), QStringLiteral("--help")});
        QCOMPARE(run.exitCode, 0);
        for (const char* text : {"--max-num-seqs", "--max-num-batched-tokens", "--sla-ttft-ms",
                                 "--sla-tpot-ms", "recommended-scenario.json"})
            QVERIFY2(run.out.contains(text), text);
    }
};

QTEST_GUILESS_MAIN(TestCliRegionLlm)
#include "tst_cliregionllm.moc"
