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
        QVERIFY(energy.has_value());
        QCOMPARE(energy->devices, std::size_t(2));
        QVERIFY(std::abs(energy->energyJ - 35000.0) < 1e-6 * 35000.0);
        QVERIFY(std::abs(energy->meanPowerW - 700.0) < 1e-9 * 700.0);
        QVERIFY(std::abs(energy->perOutputTokenJ - 5.0) < 1e-9 * 5.0);
    }

    void aLogOfAnotherTimeOrARunWithoutAClockGivesNothing()
    {
        // The run ends at 1,130 s, after the log: no energy from part of a run.
        QVERIFY(!analysis::llmLoggedEnergy(runOf(1080.0), twoGpuLog()));
        QVERIFY(!analysis::llmLoggedEnergy(runOf(std::nullopt), twoGpuLog()));
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
        QVERIFY(!analysis::llmLoggedEnergy(run, twoGpuLog()));
        // A node's log with utilisation: the idle GPU (0%) is left out, so the busy one is the
        // run's only GPU, 400 W for 50 s over 7,000 tokens.
        auto node = twoGpuLog();
        for (std::size_t i = 0; i < node.size(); ++i)
            node.utilizationPct.push_back(node.channel[i] == 0 ? 90.0 : 0.0);
        const auto energy = analysis::llmLoggedEnergy(run, node);
        QVERIFY(energy.has_value());
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
