#include "iotesthelpers.h"

using namespace bs;

class TestIoPower : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsNvidiaSmiWithUnits();
    void readsNvidiaSmiNoUnits();
    void notAvailableValuesAreWarnings();
    void utcOffsetOption();
    void readsGenericPowerCsv();
    void convertsUnitsOfGenericPowerCsv();
    void badInput();
};

void TestIoPower::readsNvidiaSmiWithUnits()
{
    auto read = test::readFixture(QStringLiteral("power/nvidia_smi_units.csv"));
    BS_VERIFY_READ(read);
    QCOMPARE(read->provenance.reader, std::string("nvidia_smi"));
    const auto s = read->powerSeries();
    QCOMPARE(s->size(), std::size_t(4));
    QCOMPARE(s->powerW, (std::vector<double>{24.38, 30.0, 45.68, 50.1}));
    QCOMPARE(s->smClockMHz, (std::vector<double>{135, 135, 1245, 1245}));
    QCOMPARE(s->memClockMHz.size(), std::size_t(4));
    QCOMPARE(s->temperatureC, (std::vector<double>{31, 33, 35, 36}));
    QCOMPARE(s->utilizationPct, (std::vector<double>{0, 5, 87, 90}));
    QCOMPARE(s->channel, (std::vector<int>{0, 1, 0, 1}));
    QCOMPARE(s->channelNames, (std::vector<std::string>{"GPU 0", "GPU 1"}));
    // 2023-11-22 21:23:17.673, naive local time taken as UTC.
    QCOMPARE(s->timeS[0], 1700688197.673);
    QCOMPARE(s->readingWindowS, 1.0);
    QVERIFY(read->provenance.warnings.empty());
}

void TestIoPower::readsNvidiaSmiNoUnits()
{
    auto read = test::readFixture(QStringLiteral("power/nvidia_smi_nounits.csv"));
    BS_VERIFY_READ(read);
    const auto s = read->powerSeries();
    QCOMPARE(s->powerW, (std::vector<double>{24.38, 45.68}));
    QCOMPARE(s->smClockMHz, (std::vector<double>{135, 1245}));
    QVERIFY(s->channel.empty());
}

void TestIoPower::notAvailableValuesAreWarnings()
{
    auto read = test::readFixture(QStringLiteral("power/nvidia_smi_na.csv"));
    BS_VERIFY_READ(read);
    const auto s = read->powerSeries();
    QCOMPARE(s->powerW, (std::vector<double>{24.38, 45.68}));
    QVERIFY(s->smClockMHz.empty());
    QCOMPARE(s->temperatureC, (std::vector<double>{31, 36}));
    QCOMPARE(test::warningLines(*read),
             (QStringList{QStringLiteral("3: power.draw is \"[N/A]\"; the sample is left out"),
                          QStringLiteral("4: clocks.sm is \"[Not Supported]\"; that column is "
                                         "left out")}));
}

void TestIoPower::utcOffsetOption()
{
    auto read = test::readFixtureAs(QStringLiteral("power/nvidia_smi_nounits.csv"), "nvidia_smi",
                                    {{"utc_offset_s", -18000}});
    BS_VERIFY_READ(read);
    QCOMPARE(read->powerSeries()->timeS[0], 1700688197.673 + 18000.0);
}

void TestIoPower::readsGenericPowerCsv()
{
    auto read = test::readFixture(QStringLiteral("power/power_generic.csv"));
    BS_VERIFY_READ(read);
    QCOMPARE(read->provenance.reader, std::string("power_csv"));
    const auto s = read->powerSeries();
    QCOMPARE(s->timeS, (std::vector<double>{1704067200, 1704067201, 1704067202}));
    QCOMPARE(s->powerW, (std::vector<double>{100.5, 200, 150}));
    QCOMPARE(s->temperatureC, (std::vector<double>{40, 41, -2}));
    QCOMPARE(s->channel, (std::vector<int>{0, 1, 0}));
    QCOMPARE(s->channelNames, (std::vector<std::string>{"gpu0", "gpu1"}));
}

void TestIoPower::convertsUnitsOfGenericPowerCsv()
{
    auto read = test::readFixture(QStringLiteral("power/power_mw_relative.csv"));
    BS_VERIFY_READ(read);
    const auto s = read->powerSeries();
    QCOMPARE(s->timeS, (std::vector<double>{0.0, 0.5}));
    QCOMPARE(s->powerW, (std::vector<double>{1.5, 2.5}));
}

void TestIoPower::badInput()
{
    auto read = test::readFixture(QStringLiteral("power/nvidia_smi_bad.csv"));
    QVERIFY(!read);
    QCOMPARE(
        test::whereAndWhy(read.error()),
        QStringLiteral("2:29: column \"power.draw [W]\" holds \"lots\", which is not a number"));
}

QTEST_APPLESS_MAIN(TestIoPower)
#include "tst_io_power.moc"
