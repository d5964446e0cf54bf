#include "io/columnmapping.h"
#include "iotesthelpers.h"

using namespace bs;

class TestIoGenericCsv : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void headerUnits_data();
    void headerUnits();
    void suggestsAMapping();
    void readsSweepCsvWithUnitSuffixes();
    void mappingRoundTripsThroughJson();
    void badInput();
};

void TestIoGenericCsv::headerUnits_data()
{
    QTest::addColumn<QString>("header");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("unit");
    QTest::newRow("parentheses") << "p99 latency (ms)"
                                 << "p99 latency"
                                 << "ms";
    QTest::newRow("brackets") << "power.draw [W]"
                              << "power draw"
                              << "W";
    QTest::newRow("underscore") << "arrival_us"
                                << "arrival"
                                << "us";
    QTest::newRow("percent sign") << "util %"
                                  << "util"
                                  << "pct";
    QTest::newRow("per second") << "Throughput (infer/sec)"
                                << "throughput"
                                << "per_s";
    QTest::newRow("megabytes") << "GPU Memory Usage (MB)"
                               << "gpu memory usage"
                               << "MB";
    QTest::newRow("no unit") << "Batch Size"
                             << "batch size"
                             << "";
    QTest::newRow("not a unit") << "latency (p99)"
                                << "latency (p99)"
                                << "";
    QTest::newRow("milliwatts") << "power_mW"
                                << "power"
                                << "mW";
    QTest::newRow("celsius") << "temp_c"
                             << "temp"
                             << "C";
}

void TestIoGenericCsv::headerUnits()
{
    QFETCH(QString, header);
    QFETCH(QString, name);
    QFETCH(QString, unit);
    const auto split = io::splitHeaderUnit(header.toStdString());
    QCOMPARE(QString::fromStdString(split.name), name);
    QCOMPARE(QString::fromStdString(split.unit), unit);
}

void TestIoGenericCsv::suggestsAMapping()
{
    const std::vector<std::string> headers = {"id", "Arrival (ms)", "done_ms", "tenant",
                                              "prompt tokens"};
    const auto mapping = io::suggestColumnMapping(headers, {"a", "1", "2", "x", "5"},
                                                  io::MappingTarget::RequestTrace);
    QCOMPARE(mapping.columns.size(), std::size_t(4));
    QCOMPARE(*mapping.find("arrival"), (io::ColumnBinding{"arrival", "Arrival (ms)", "ms"}));
    QCOMPARE(*mapping.find("completion"), (io::ColumnBinding{"completion", "done_ms", "ms"}));
    QCOMPARE(*mapping.find("stream"), (io::ColumnBinding{"stream", "tenant", ""}));
    QCOMPARE(*mapping.find("input_tokens"),
             (io::ColumnBinding{"input_tokens", "prompt tokens", ""}));
    // Calendar times in the first row make the unit "datetime".
    const auto dated = io::suggestColumnMapping(
        {"timestamp", "latency"}, {"2024-01-01 00:00:00.5", "3"}, io::MappingTarget::RequestTrace);
    QCOMPARE(dated.find("arrival")->unit, std::string("datetime"));
    QCOMPARE(dated.find("latency")->unit, std::string("s"));
}

void TestIoGenericCsv::readsSweepCsvWithUnitSuffixes()
{
    auto read = test::readFixture(QStringLiteral("generic_csv/sweep_ms.csv"));
    BS_VERIFY_READ(read);
    QCOMPARE(read->provenance.reader, std::string("sweep_csv"));
    const auto t = read->sweep();
    QCOMPARE(t->loadAxis, data::LoadAxis::Concurrency);
    QCOMPARE(t->points.size(), std::size_t(2));
    const auto& p = t->points[1];
    QCOMPARE(p.batchSize, 8);
    QCOMPARE(*p.throughputPerS, 640.0);
    QCOMPARE(*p.latencyP50S, 0.011);
    QCOMPARE(*p.latencyP99S, 0.02);
    QCOMPARE(*p.powerW, 210.0);
    QCOMPARE(*p.utilization, 0.8);
    const auto saved = nlohmann::json::parse(read->readerOptionsJson);
    QCOMPARE(saved["columns"]["utilization"]["unit"].get<std::string>(), std::string("pct"));
    QCOMPARE(saved["columns"]["throughput"]["unit"].get<std::string>(), std::string("per_s"));
    // Reading again with the saved mapping gives the same table.
    auto again =
        test::readFixtureAs(QStringLiteral("generic_csv/sweep_ms.csv"), "sweep_csv", saved);
    BS_VERIFY_READ(again);
    QCOMPARE(again->sweep()->points, t->points);
}

void TestIoGenericCsv::mappingRoundTripsThroughJson()
{
    io::ColumnMapping mapping;
    mapping.target = io::MappingTarget::PowerSeries;
    mapping.delimiter = ';';
    mapping.columns = {{"time", "t", "datetime"}, {"power", "P", "kW"}, {"channel", "gpu", ""}};
    auto back = io::columnMappingFromJson(io::toJson(mapping), io::MappingTarget::PowerSeries, "x");
    QVERIFY(back);
    QCOMPARE(*back, mapping);
    auto missing = io::columnMappingFromJson({{"columns", {{"time", {{"column", "t"}}}}}},
                                             io::MappingTarget::PowerSeries, "x");
    QVERIFY(!missing);
    QCOMPARE(
        QString::fromStdString(missing.error().message),
        QStringLiteral("reader_options.columns: has no column for the required field \"power\""));
}

void TestIoGenericCsv::badInput()
{
    auto util = test::readFixture(QStringLiteral("generic_csv/sweep_bad_util.csv"));
    QVERIFY(!util);
    QCOMPARE(test::whereAndWhy(util.error()),
             QStringLiteral(
                 "2:9: column \"utilization\" holds a utilisation above 100%; check its unit"));
    auto unknown = test::readFixture(QStringLiteral("generic_csv/unrecognised.csv"));
    QVERIFY(!unknown);
    QCOMPARE(test::whereAndWhy(unknown.error()),
             QString::fromStdString("1:0: not a format BatchScope recognises (the first line reads "
                                    "\"x;y\"); choose a reader explicitly: " +
                                    io::readerNameList()));
}

QTEST_APPLESS_MAIN(TestIoGenericCsv)
#include "tst_io_genericcsv.moc"
