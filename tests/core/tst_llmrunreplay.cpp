// Replaying a measured LLM run (core/llmsim/runreplay.h): the engine read from the run's header,
// the refusal when the header lacks what the simulator needs, and the replay itself — the same
// with a fit carried over, different under other knobs.
#include "io/readdataset.h"
#include "llmsim/runreplay.h"
#include "testsupport.h"

#include <QtTest>

using namespace bs;

namespace {

data::LlmRun firstRun(const char* relative)
{
    auto dataset = io::readDataset(test::testDataPath(QString::fromLatin1(relative)).toStdString());
    if (!dataset || !dataset->llmRuns() || dataset->llmRuns()->runs.empty())
        qFatal("%s: no LLM run", relative);
    return dataset->llmRuns()->runs.front();
}

} // namespace

class TestLlmRunReplay : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void engineComesFromTheRunHeader()
    {
        // tests/data/llm/servinglog/meta.json: engine_kwargs 4 seqs, 64 tokens; 8 blocks of 16.
        const auto recorded = llmsim::runEngineOf(firstRun("llm/servinglog/requests.jsonl"));
        QVERIFY(recorded.policyRecorded);
        QVERIFY(recorded.kvBlocksRecorded);
        QCOMPARE(recorded.engine.policy, std::string("vllm_v1"));
        QCOMPARE(recorded.engine.maxNumSeqs, 4);
        QCOMPARE(recorded.engine.maxNumBatchedTokens, 64);
        QCOMPARE(recorded.engine.numGpuBlocks, std::int64_t(8));
        QCOMPARE(recorded.engine.blockSize, 16);
        QVERIFY(llmsim::recordedEngineOf(firstRun("llm/servinglog/requests.jsonl")));
    }

    void aRunWithoutItsKvSizeIsRefusedWithTheReason()
    {
        const auto run = firstRun("llm/vllm_rate_sweep.jsonl");
        const auto recorded = llmsim::runEngineOf(run);
        QVERIFY(!recorded.kvBlocksRecorded);
        QCOMPARE(recorded.engine.numGpuBlocks, std::int64_t(0));
        const auto engine = llmsim::recordedEngineOf(run);
        QVERIFY(!engine);
        QVERIFY2(engine.error().message.find("num_gpu_blocks") != std::string::npos,
                 engine.error().message.c_str());
    }

    void replayKeepsItsFitAndFollowsTheKnobs()
    {
        const auto run = firstRun("llm/servinglog/requests.jsonl");
        const auto engine = *llmsim::recordedEngineOf(run);
        auto first = llmsim::replayRun(run, engine, engine, std::nullopt);
        QVERIFY2(first, first ? "" : first.error().toString().c_str());
        QCOMPARE(first->result.requests.size(), run.requests.size());
        // Carrying the fit over gives the very same replay (the fit is the costly part).
        auto again = llmsim::replayRun(run, engine, engine, first->fit);
        QVERIFY(again);
        QVERIFY(again->fit.step == first->fit.step);
        QCOMPARE(again->result.replications.front().ttft.p99S,
                 first->result.replications.front().ttft.p99S);
        QVERIFY(again->scenario == first->scenario);
        // One sequence at a time serves the same requests later.
        auto oneSeat = engine;
        oneSeat.maxNumSeqs = 1;
        auto serial = llmsim::replayRun(run, engine, oneSeat, first->fit);
        QVERIFY(serial);
        QCOMPARE(serial->scenario.engine.maxNumSeqs, 1);
        QVERIFY(serial->result.replications.front().e2e.meanS >=
                first->result.replications.front().e2e.meanS);
    }
};

QTEST_GUILESS_MAIN(TestLlmRunReplay)
#include "tst_llmrunreplay.moc"
