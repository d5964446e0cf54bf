// MLPerf LoadGen v4.x LLM logs (llama2-70b, ../shared/data/llm): TTFT and TPOT blocks, token
// throughput, token latency targets and early-stopping verdicts (issue 18).
//
// Expected figures were read from the files independently of BatchScope, with python3: a regex
// `^<key>\s*:\s*(\S+)` over each summary, and json.loads() of every ":::MLLOG " line of each
// detail log (last record per key), then ns / 1e9 for seconds.

#include "iotesthelpers.h"
#include "testsupport.h"

using namespace bs;

namespace {

const QString kV41 =
    QStringLiteral("/llm/inference_results_v4.1/closed/NVIDIA/results/DGX-H100_H100-SXM-80GBx8_TRT/"
                   "llama2-70b-99.9/");
const QString kV40 =
    QStringLiteral("/llm/inference_results_v4.0/closed/NVIDIA/results/DGX-H100_H100-SXM-80GBx2_TRT/"
                   "llama2-70b-99.9/");

Expected<data::Dataset> readShared(const QString& path)
{
    return io::readDataset(path.toStdString());
}

std::string meta(const data::Dataset& d, const char* key)
{
    const auto& m = d.sweep()->metadata;
    const auto it = m.find(key);
    return it == m.end() ? std::string("(absent)") : it->second;
}

} // namespace

class TestIoMlperfLlm : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void serverSummaryWithRepeatedTokenKeys();
    void detailKeepsTokenLatencies();
    void offlineSummaryAndDetail();
    void v40ServerSummary();
    void repeatedKeyInOneSectionIsStillRefused();
};

// Regression (issue 18): the v4.1 Server summary prints "Completed tokens per second" both in
// the results block and in the TTFT block of "Additional Stats"; it was refused as two
// summaries.
void TestIoMlperfLlm::serverSummaryWithRepeatedTokenKeys()
{
    BS_REQUIRE_SHARED_DATA(root);
    auto read = readShared(root + kV41 +
                           QStringLiteral("Server/performance/run_1/"
                                          "mlperf_log_summary.txt"));
    BS_VERIFY_READ(read);
    QCOMPARE(read->provenance.reader, std::string("mlperf_summary"));
    QCOMPARE(meta(*read, "ttft_p99.00_s"), std::string("0.461278089")); // 461278089 ns
    QCOMPARE(meta(*read, "tpot_p99.00_s"), std::string("0.175354317")); // 175354317 ns
    QCOMPARE(meta(*read, "ttft_mean_s"), std::string("0.27592644"));
    QCOMPARE(meta(*read, "tokens_per_s"), std::string("21605.79"));
    QCOMPARE(meta(*read, "ttft_target_s"), std::string("2"));
    QCOMPARE(meta(*read, "tpot_target_s"), std::string("0.2"));
    QCOMPARE(meta(*read, "early_stopping_ttft"), std::string("Run successful."));
    QCOMPARE(meta(*read, "early_stopping_tpot"), std::string("Run successful."));
    QCOMPARE(meta(*read, "early_stopping_satisfied"), std::string("yes"));
    // Every other key is kept, ms converted to seconds.
    QCOMPARE(meta(*read, "min_duration_s"), std::string("2400"));
    QCOMPARE(meta(*read, "performance_sample_count"), std::string("24576"));
    const auto& p = read->sweep()->points.at(0);
    QCOMPARE(*p.throughputPerS, 74.42);
    QCOMPARE(*p.latencyP99S, 144.812821227);
}

// Regression (issue 18): the detail log's TTFT/TPOT records were dropped and the run showed
// target_latency_s 0 (LoadGen logs 0 for LLM runs, whose limits are TTFT and TPOT).
void TestIoMlperfLlm::detailKeepsTokenLatencies()
{
    BS_REQUIRE_SHARED_DATA(root);
    auto read =
        readShared(root + kV41 + QStringLiteral("Server/performance/run_1/mlperf_log_detail.txt"));
    BS_VERIFY_READ(read);
    QCOMPARE(read->provenance.reader, std::string("mlperf_detail"));
    QCOMPARE(meta(*read, "ttft_p99.00_s"), std::string("0.461278089"));
    QCOMPARE(meta(*read, "tpot_p99.00_s"), std::string("0.175354317"));
    QCOMPARE(meta(*read, "tpot_mean_s"), std::string("0.154960329")); // ..._token_mean, ns
    QCOMPARE(meta(*read, "tokens_per_s"), std::string("21605.8"));
    QCOMPARE(meta(*read, "ttft_target_s"), std::string("2"));
    QCOMPARE(meta(*read, "target_latency_s"), std::string("(absent)"));
    QCOMPARE(meta(*read, "early_stopping_ttft"), std::string("Run successful."));
    QCOMPARE(*read->sweep()->points.at(0).sampleCount, std::uint64_t(196608));
    // First-token percentiles must not leak into the request latency percentiles.
    QCOMPARE(meta(*read, "latency_pfirst_token_99.00_s"), std::string("(absent)"));
}

void TestIoMlperfLlm::offlineSummaryAndDetail()
{
    BS_REQUIRE_SHARED_DATA(root);
    auto summary = readShared(root + kV41 +
                              QStringLiteral("Offline/performance/run_1/"
                                             "mlperf_log_summary.txt"));
    auto detail = readShared(root + kV41 +
                             QStringLiteral("Offline/performance/run_1/"
                                            "mlperf_log_detail.txt"));
    BS_VERIFY_READ(summary);
    BS_VERIFY_READ(detail);
    QCOMPARE(meta(*summary, "tokens_per_s"), std::string("24524.9"));
    QCOMPARE(meta(*detail, "tokens_per_s"), std::string("24524.9"));
    // One query of 200640 samples.
    QCOMPARE(*detail->sweep()->points.at(0).sampleCount, std::uint64_t(200640));
}

void TestIoMlperfLlm::v40ServerSummary()
{
    BS_REQUIRE_SHARED_DATA(root);
    auto read = readShared(root + kV40 +
                           QStringLiteral("Server/performance/run_1/"
                                          "mlperf_log_summary.txt"));
    BS_VERIFY_READ(read);
    QCOMPARE(meta(*read, "ttft_p99.00_s"), std::string("0.596238777"));
    QCOMPARE(meta(*read, "tokens_per_s"), std::string("5271.98"));
}

// A key twice in one section is still two summaries pasted together (here the second one's
// results block without its title).
void TestIoMlperfLlm::repeatedKeyInOneSectionIsStillRefused()
{
    auto read = test::readFixture(QStringLiteral("mlperf/llm_repeated_key/mlperf_log_summary.txt"));
    QVERIFY(!read);
    QCOMPARE(test::whereAndWhy(read.error()),
             QStringLiteral("11:1: \"SUT name\" appears again in \"MLPerf Results Summary\" "
                            "(first on line 4); the file holds more than one summary: read them "
                            "one by one"));
}

QTEST_APPLESS_MAIN(TestIoMlperfLlm)
#include "tst_io_mlperf_llm.moc"
