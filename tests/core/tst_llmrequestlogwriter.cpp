// A simulated LLM run written as an engine's per-request log (core/llmsim/requestlogwriter.h)
// reads back through the request-log reader as the same run: every request's TTFT, TPOT, E2E
// and queue time, the engine knobs and KV cache a replay needs, the engine series, and the mark
// that it is simulated.
#include "io/readdataset.h"
#include "llmsim/llmsimulator.h"
#include "llmsim/requestlogwriter.h"
#include "llmsim/runreplay.h"
#include "llmsimtesthelpers.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace bs;

namespace {

llmsim::LlmScenario smallScenario()
{
    auto s = test::halfBusyPoissonScenario();
    s.arrivals.count = 600;
    s.engine.maxNumSeqs = 8;
    s.engine.numGpuBlocks = 512;
    return s;
}

bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

} // namespace

class TestLlmRequestLogWriter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void simulatedRunReadsBackRequestForRequest()
    {
        auto simulated = llmsim::simulateLlm(smallScenario());
        QVERIFY2(simulated, simulated ? "" : simulated.error().toString().c_str());
        QTemporaryDir dir;
        const std::string folder = dir.filePath(QStringLiteral("run")).toStdString();
        const auto written = llmsim::writeSimulatedRequestLog(*simulated, folder);
        QVERIFY2(written, written ? "" : written.error().toString().c_str());

        auto dataset = io::readDataset(folder + "/requests.jsonl");
        QVERIFY2(dataset, dataset ? "" : dataset.error().toString().c_str());
        QVERIFY(dataset->llmRuns());
        const auto& run = dataset->llmRuns()->runs.front();
        QCOMPARE(run.requests.size(), simulated->requests.size());
        const double origin = simulated->requests.front().arrivalS;
        for (std::size_t i = 0; i < run.requests.size(); ++i) {
            const auto& read = run.requests[i];
            const auto& sim = simulated->requests[i];
            QVERIFY(near(*read.arrivalS, sim.arrivalS - origin));
            QVERIFY(near(*read.ttftS, sim.ttftS));
            QVERIFY(near(*read.e2eS, sim.e2eS));
            QVERIFY(near(*read.queueS, sim.queueS));
            QCOMPARE(*read.promptTokens, sim.promptTokens);
            QCOMPARE(*read.outputTokens, sim.outputTokens);
            if (sim.outputTokens > 1)
                QVERIFY(near(*read.tpotS, sim.tpotS));
        }
        // The knobs a replay needs, and the mark that nobody measured it.
        QCOMPARE(data::llmKnob(run, {"simulated_by"}), std::string(llmsim::kSimulatedByLlmsim));
        const auto engine = llmsim::recordedEngineOf(run);
        QVERIFY2(engine, engine ? "" : engine.error().toString().c_str());
        QCOMPARE(engine->maxNumSeqs, 8);
        QCOMPARE(engine->maxNumBatchedTokens, 512);
        QCOMPARE(engine->numGpuBlocks, std::int64_t(512));
        QVERIFY(engine->enableChunkedPrefill);
    }

    void engineSeriesHoldsEverySecondOfTheRun()
    {
        auto simulated = llmsim::simulateLlm(smallScenario());
        QVERIFY(simulated);
        QTemporaryDir dir;
        const std::string folder = dir.path().toStdString();
        QVERIFY(llmsim::writeSimulatedRequestLog(*simulated, folder));
        auto dataset = io::readDataset(folder + "/requests.jsonl");
        QVERIFY(dataset);
        const auto& series = dataset->llmRuns()->runs.front().engineSeries;
        const auto& last = simulated->steps.back();
        const double spanS = last.startS + last.durationS - simulated->requests.front().arrivalS;
        QCOMPARE(double(series.size()), std::ceil(spanS));
        // The prompt tokens per second add up to every prefill token the steps scheduled.
        double promptTokens = 0.0, stepPromptTokens = 0.0;
        for (const auto& s : series)
            promptTokens += s.promptTokensPerS;
        for (const auto& s : simulated->steps)
            stepPromptTokens += s.prefillTokens;
        QCOMPARE(promptTokens, stepPromptTokens);
        std::int32_t peakRunning = 0;
        for (const auto& s : series) {
            QVERIFY(s.kvCacheUsePct >= 0.0 && s.kvCacheUsePct <= 100.0);
            QVERIFY(s.running <= 8);
            peakRunning = std::max(peakRunning, s.running);
        }
        QVERIFY(peakRunning > 0);
    }

    void anUnwritableFolderIsAnErrorNamingIt()
    {
        auto simulated = llmsim::simulateLlm(smallScenario());
        QVERIFY(simulated);
        QTemporaryDir dir;
        const std::string blocker = dir.filePath(QStringLiteral("file")).toStdString();
        QFile file(QString::fromStdString(blocker));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        const auto status = llmsim::writeSimulatedRequestLog(*simulated, blocker + "/run");
        QVERIFY(!status);
        QVERIFY2(status.error().message.find(blocker) != std::string::npos,
                 status.error().message.c_str());
    }
};

QTEST_APPLESS_MAIN(TestLlmRequestLogWriter)
#include "tst_llmrequestlogwriter.moc"
