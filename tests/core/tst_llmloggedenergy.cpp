// A serving run's energy per output token from a power log beside it
// (analysis::llmLoggedEnergy, llmEnergyPerOutputTokenJ in core/analysis/llmrunfigures.h), on
// logs whose integral is known.
#include "analysis/llmrunfigures.h"

#include <QtTest>

using namespace bs;

namespace {

/// Two GPUs logged once a second from Unix 1,000 s to 1,100 s, at 400 W and 300 W.
data::PowerSeries twoGpuLog()
{
    data::PowerSeries log;
    log.channelNames = {"GPU 0", "GPU 1"};
    log.readingWindowS = 1.0;
    for (int s = 1000; s <= 1100; ++s)
        for (int gpu : {0, 1}) {
            log.timeS.push_back(double(s));
            log.powerW.push_back(gpu == 0 ? 400.0 : 300.0);
            log.channel.push_back(gpu);
        }
    return log;
}

/// One GPU logged once a second from Unix 1,000 s to 1,100 s, alternating 200 W (even
/// seconds) and 600 W (odd): a draw the log samples too coarsely to know between readings.
data::PowerSeries alternatingLog()
{
    data::PowerSeries log;
    log.readingWindowS = 1.0;
    for (int s = 1000; s <= 1100; ++s) {
        log.timeS.push_back(double(s));
        log.powerW.push_back(s % 2 == 0 ? 200.0 : 600.0);
    }
    return log;
}

bool near(double value, double expected)
{
    return std::abs(value - expected) <= 1e-9 * std::max(1.0, std::abs(expected));
}

/// A run of 50 s from Unix 1,010 s that wrote 7,000 output tokens.
data::LlmRun runOf(std::optional<double> originEpochS)
{
    data::LlmRun run;
    run.originEpochS = originEpochS;
    run.durationS = 50.0;
    run.outputTokensTotal = 7000;
    run.outputTokensPerS = 140.0;
    return run;
}

} // namespace

class TestLlmLoggedEnergy : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void chargesTheRunsWindowEveryDevice()
    {
        // 700 W for 50 s = 35 kJ over 7,000 tokens: 5 J a token.
        const auto energy = analysis::llmLoggedEnergy(runOf(1010.0), twoGpuLog());
        QVERIFY(energy.hasValue());
        QCOMPARE(energy->devices, std::size_t(2));
        QVERIFY(std::abs(energy->energyJ - 35000.0) < 1e-6 * 35000.0);
        QVERIFY(std::abs(energy->meanPowerW - 700.0) < 1e-9 * 700.0);
        QVERIFY(std::abs(energy->perOutputTokenJ - 5.0) < 1e-9 * 5.0);
        // A constant draw is known between readings: the band is the figure itself.
        QVERIFY(near(energy->lowJ, energy->energyJ) && near(energy->highJ, energy->energyJ));
        QVERIFY(!energy->perRequestJ); // the run records no completed requests
        auto counted = runOf(1010.0);
        counted.completed = 100;
        QVERIFY(near(*analysis::llmLoggedEnergy(counted, twoGpuLog())->perRequestJ, 350.0));
    }

    void aCoarselySampledDrawCarriesItsBand()
    {
        // Readings stand for the second before their timestamp (centres at t - 0.5 s). Over
        // [1,010, 1,060] the interpolated draw averages 400 W (the half intervals at the two
        // ends average 500 W and 300 W): 20 kJ. Each interval lies between a 200 W and a
        // 600 W reading, so the band is 200 W to 600 W held for 50 s: [10, 30] kJ, per token
        // [1.43, 4.29] J around 2.86 J.
        const auto energy = analysis::llmLoggedEnergy(runOf(1010.0), alternatingLog());
        QVERIFY2(energy.hasValue(), energy ? "" : energy.error().message.c_str());
        QVERIFY(near(energy->energyJ, 20000.0));
        QVERIFY(near(energy->lowJ, 10000.0));
        QVERIFY(near(energy->highJ, 30000.0));
        QVERIFY(near(energy->perOutputTokenLowJ, 10000.0 / 7000.0));
        QVERIFY(near(energy->perOutputTokenHighJ, 30000.0 / 7000.0));
        QCOMPARE(energy->fewestReadings, std::uint64_t(50));
    }

    void aRunShorterThanTwoReadingsIsNotMeasured()
    {
        // Half a second inside a once-a-second log holds one reading: the figure would be an
        // interpolation between readings of other moments, so none is given, and it says so.
        auto run = runOf(1010.2);
        run.durationS = 0.5;
        const auto energy = analysis::llmLoggedEnergy(run, twoGpuLog());
        QVERIFY(!energy);
        QVERIFY2(energy.error().message.find("holds 1 reading(s) of a device inside the run's "
                                             "0.5 s window; at least 2") != std::string::npos,
                 energy.error().message.c_str());
        run.durationS = 2.0;
        QVERIFY(analysis::llmLoggedEnergy(run, twoGpuLog()));
    }

    void aLogOfAnotherTimeOrARunWithoutAClockGivesNothing()
    {
        // The run ends at 1,130 s, after the log: no energy from part of a run.
        const auto reason = [](const data::LlmRun& run) {
            const auto energy = analysis::llmLoggedEnergy(run, twoGpuLog());
            return energy ? QString() : QString::fromStdString(energy.error().message);
        };
        QCOMPARE(reason(runOf(1080.0)),
                 QStringLiteral("the power log does not cover the run's whole window"));
        QCOMPARE(
            reason(runOf(std::nullopt)),
            QStringLiteral("the run has no absolute clock to place it on the power log's time"));
        auto noTokens = runOf(1010.0);
        noTokens.outputTokensTotal = 0;
        QVERIFY(!analysis::llmLoggedEnergy(noTokens, twoGpuLog()));
        QVERIFY(!analysis::llmEnergyPerOutputTokenJ(runOf(1080.0), nullptr));
    }

    void onlyTheRunsGpusAreCharged()
    {
        // The run records two GPUs: the two-GPU log is its; one GPU of it is not the run.
        auto run = runOf(1010.0);
        run.knobs["hardware.device_count"] = "2";
        QVERIFY(analysis::llmLoggedEnergy(run, twoGpuLog()));
        run.knobs["hardware.device_count"] = "1";
        const auto onePair = analysis::llmLoggedEnergy(run, twoGpuLog());
        QVERIFY(!onePair);
        QCOMPARE(QString::fromStdString(onePair.error().message),
                 QStringLiteral("the power log's serving devices number 2, the run's GPUs 1"));
        // A node's log with utilisation: the idle GPU (0%) is left out, so the busy one is the
        // run's only GPU, 400 W for 50 s over 7,000 tokens.
        auto node = twoGpuLog();
        for (std::size_t i = 0; i < node.size(); ++i)
            node.utilizationPct.push_back(node.channel[i] == 0 ? 90.0 : 0.0);
        const auto energy = analysis::llmLoggedEnergy(run, node);
        QVERIFY(energy.hasValue());
        QCOMPARE(energy->devices, std::size_t(1));
        QVERIFY(std::abs(energy->perOutputTokenJ - 400.0 * 50.0 / 7000.0) < 1e-9);
    }

    void theRunsOwnTelemetryComesFirst()
    {
        // Telemetry recorded with the run (GenAI-Perf's): 280 W over 140 tokens/s, 2 J a token,
        // whatever a log beside it says.
        auto run = runOf(1010.0);
        data::LlmGpuTelemetry gpu;
        gpu.gpu = "0";
        gpu.meanPowerW = 280.0;
        run.gpus.push_back(gpu);
        const auto log = twoGpuLog();
        QCOMPARE(*analysis::llmEnergyPerOutputTokenJ(run, &log), 2.0);
        QVERIFY(std::abs(*analysis::llmEnergyPerOutputTokenJ(runOf(1010.0), &log) - 5.0) < 1e-9);
    }
};

QTEST_GUILESS_MAIN(TestLlmLoggedEnergy)
#include "tst_llmloggedenergy.moc"
