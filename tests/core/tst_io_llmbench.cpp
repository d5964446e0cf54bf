// vLLM and SGLang serving benchmark results -> data::LlmRunSet (issue 18).
//
// Figures on the real files (../shared/data/llm) were worked out independently with python3:
// json.load() of the vLLM file (len(ttfts), p99_ttft_ms / 1000, output_throughput, and the mean
// over requests with more than one output token of sum(itls[i]) / (output_lens[i] - 1)), and
// json.loads() of each SGLang line (count, completed, median_ttft_ms / 1000).

#include "io/llmbenchreader.h"
#include "iotesthelpers.h"
#include "testsupport.h"

using namespace bs;

namespace {

Expected<data::LlmRunSet> readRuns(const QString& path)
{
    auto source = io::openByteSource(path.toStdString(), {});
    if (!source)
        return source.error();
    io::ReaderContext context(path.toStdString(), {}, nlohmann::json::object(), Progress::null(),
                              CancelToken());
    return io::parseLlmBenchmark(**source, context);
}

const QString kVllmQps4 =
    QStringLiteral("/llm/llm-k8s/results_serving_meta-llama-Llama-3.3-70B-Instruct/01_tp8_pp1/"
                   "serving_meta-llama-Llama-3.3-70B-Instruct_tp8_pp1_sharegpt_qps_04.json");
const QString kSglang =
    QStringLiteral("/llm/h200-benchmarks/sglang/outputs/llama_3_3_70b_online_output.jsonl");

} // namespace

class TestIoLlmBench : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void vllmSaveResultWithArrays();
    void sglangOneRunPerLine();
    void vllmAppendResult();
    void vllmPrettyPrintedResult();
    void badInput_data();
    void badInput();
};

void TestIoLlmBench::vllmSaveResultWithArrays()
{
    BS_REQUIRE_SHARED_DATA(root);
    auto set = readRuns(root + kVllmQps4);
    QVERIFY2(set, set ? "" : set.error().toString().c_str());
    QCOMPARE(set->runs.size(), std::size_t(1));
    const auto& run = set->runs.front();
    QCOMPARE(run.tool, std::string("vllm"));
    QCOMPARE(run.requests.size(), std::size_t(200));
    QCOMPARE(*run.completed, std::int64_t(200));
    QCOMPARE(*run.requestRatePerS, 4.0);
    QVERIFY(!run.maxConcurrency); // null: unlimited
    QVERIFY(!run.goodputPerS);    // "request_goodput:" null
    QCOMPARE(*run.outputTokensPerS, 673.9184869835061);
    QCOMPARE(run.metrics.at("ttft").percentileS.at("99"), 0.06756385031015722);
    QCOMPARE(run.metrics.at("itl").definition.substr(0, 6), std::string("pooled"));
    QCOMPARE(run.knobs.at("date"), std::string("20250414-141621"));
    // Request 0: 13 prompt, 120 output tokens; e2e = ttft + sum(itls) = 2.801625621000312 s.
    const auto& first = run.requests.front();
    QCOMPARE(*first.promptTokens, 13);
    QCOMPARE(*first.outputTokens, 120);
    QCOMPARE(*first.ttftS, 0.03028566500006491);
    QVERIFY(std::fabs(*first.e2eS - 2.801625621000312) < 1e-12);
    // The per-request TPOT derived from the ITL lists gives vLLM's own mean TPOT (27.0833 ms)
    // to 1e-6: vLLM took latency - ttft from its clock, we sum the gaps.
    double sum = 0.0;
    int n = 0;
    for (const auto& r : run.requests) {
        if (r.tpotS) {
            sum += *r.tpotS;
            ++n;
        }
    }
    QVERIFY(std::fabs(sum / n / *run.metrics.at("tpot").meanS - 1.0) < 1e-6);
}

void TestIoLlmBench::sglangOneRunPerLine()
{
    BS_REQUIRE_SHARED_DATA(root);
    auto set = readRuns(root + kSglang);
    QVERIFY2(set, set ? "" : set.error().toString().c_str());
    QCOMPARE(set->runs.size(), std::size_t(7));
    const auto& first = set->runs.front();
    QCOMPARE(first.tool, std::string("sglang"));
    QCOMPARE(*first.completed, std::int64_t(300));
    QCOMPARE(*first.requestRatePerS, 1.0);
    QCOMPARE(*first.metrics.at("ttft").medianS, 0.08574514742940664);
    QCOMPARE(*first.outputTokensPerS, 537.4142851849319);
    QVERIFY(first.metrics.count("e2e"));
    QVERIFY(first.requests.empty());
    QCOMPARE(first.knobs.at("dataset_name"), std::string("random"));
    QCOMPARE(set->runs.back().line, std::int64_t(7));
}

void TestIoLlmBench::vllmAppendResult()
{
    auto set = readRuns(test::testDataPath(QStringLiteral("llm/vllm_append.jsonl")));
    QVERIFY2(set, set ? "" : set.error().toString().c_str());
    QCOMPARE(set->runs.size(), std::size_t(2));
    const auto& a = set->runs[0];
    QCOMPARE(a.requests.size(), std::size_t(3));
    // Arrivals from the first start (100.5 s); e2e = ttft + sum(itls); tpot = sum(itls) / 2.
    QCOMPARE(*a.requests[1].arrivalS, 0.5);
    QCOMPARE(*a.requests[0].e2eS, 0.2);
    QCOMPARE(*a.requests[0].tpotS, 0.05);
    QCOMPARE(*a.requests[1].tpotS, 0.04);
    QVERIFY(!a.requests[2].ok);
    QCOMPARE(a.requests[2].error, std::string("timeout"));
    QVERIFY(!a.requests[2].e2eS);
    QCOMPARE(a.metrics.at("ttft").percentileS.at("99"), 0.199);
    QVERIFY(!a.goodputPerS);
    const auto& b = set->runs[1];
    QCOMPARE(b.line, std::int64_t(2));
    QVERIFY(!b.requestRatePerS);
    QCOMPARE(b.knobs.at("request_rate"), std::string("inf"));
    QCOMPARE(*b.maxConcurrency, 8.0);
    QCOMPARE(*b.goodputPerS, 1.5);
    QCOMPARE(b.metrics.at("e2e").percentileS.at("99"), 0.4);
    QVERIFY(b.requests.empty());
}

// vllm_pretty.json is the first run of vllm_append.jsonl written with json.dumps(indent=4):
// detected, and read to the same run (same figures, line 1).
void TestIoLlmBench::vllmPrettyPrintedResult()
{
    auto dataset = test::readFixture(QStringLiteral("llm/vllm_pretty.json"));
    BS_VERIFY_READ(dataset);
    QCOMPARE(dataset->provenance.reader, std::string("llm_benchmark"));
    auto lines = readRuns(test::testDataPath(QStringLiteral("llm/vllm_append.jsonl")));
    QVERIFY(lines);
    const auto& pretty = dataset->llmRuns()->runs.front();
    const auto& oneLine = lines->runs.front();
    QCOMPARE(dataset->llmRuns()->runs.size(), std::size_t(1));
    QCOMPARE(pretty.line, std::int64_t(1));
    QCOMPARE(pretty.requests.size(), std::size_t(3));
    QCOMPARE(*pretty.requests[0].tpotS, 0.05);
    QCOMPARE(pretty.metrics.at("ttft").percentileS.at("99"), 0.199);
    QCOMPARE(pretty.knobs, oneLine.knobs);
    QCOMPARE(*pretty.completed, *oneLine.completed);
}

void TestIoLlmBench::badInput_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::newRow("arrays of different lengths")
        << "vllm_unequal_arrays.json"
        << "1:0: \"ttfts\" has 2 entries but \"output_lens\" has 1; the per-request arrays must "
           "be of one length";
    QTest::newRow("negative TTFT")
        << "sglang_negative.jsonl"
        << "2:0: \"median_ttft_ms\" holds -5.0, which is not a non-negative finite number";
    // Column 54: the last byte of the number where ':' was due.
    QTest::newRow("JSON syntax error")
        << "vllm_bad_json.jsonl"
        << "2:54: not a JSON object: syntax error while parsing object separator - unexpected "
           "number literal; expected ':'";
    QTest::newRow("pretty-printed, a comma missing")
        << "vllm_pretty_bad.json"
        << "6:18: JSON syntax error: syntax error while parsing object - unexpected string "
           "literal; expected '}'";
    QTest::newRow("not a benchmark run")
        << "not_a_run.jsonl"
        << "1:0: not a vLLM or SGLang benchmark result (no \"completed\" and no TTFT or latency "
           "aggregates)";
}

void TestIoLlmBench::badInput()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    auto set = readRuns(test::testDataPath(QStringLiteral("llm/") + file));
    QVERIFY(!set);
    QCOMPARE(test::whereAndWhy(set.error()), expected);
}

QTEST_APPLESS_MAIN(TestIoLlmBench)
#include "tst_io_llmbench.moc"
