// Request-trace analytics on a hand-computed fixture (tests/data/analysis/requests.csv, the
// expected figures are derived in tests/data/analysis/README.md), on synthetic traces with
// known answers, and on the real Azure LLM trace checked against an independent count.

#include "analysis/requestanalysis.h"
#include "io/readdataset.h"
#include "nearcompare.h"
#include "testsupport.h"

#include <QDateTime>
#include <QFile>
#include <QTimeZone>
#include <QtTest>

#include <cmath>

using namespace bs;
using namespace bs::analysis;

namespace {

#define BS_NEAR(a, b) BS_NEAR_WITHIN(a, b, 1e-9)

std::shared_ptr<const data::RequestTrace> fixture()
{
    auto read =
        io::readDataset(test::testDataPath(QStringLiteral("analysis/requests.csv")).toStdString());
    if (!read)
        qFatal("%s", read.error().toString().c_str());
    return read->requestTrace();
}

RequestAnalysis analyse(const data::RequestTrace& trace, RequestAnalysisOptions options = {})
{
    auto r = analyzeRequests(trace, options);
    if (!r)
        qFatal("%s", r.error().toString().c_str());
    return std::move(*r);
}

/// 990 requests served alone (wait 1/64 s, service 1/32 s) and 5 pairs batched together whose
/// first member waits 1/16 s for the second, then both wait 3/16 s for a server; service 1/16 s.
/// Binary fractions, so every difference is exact.
data::RequestTrace tailTrace()
{
    data::RequestTrace t;
    for (int i = 0; i < 990; ++i) {
        const double a = i * 1.0;
        t.arrivalS.push_back(a);
        t.dispatchS.push_back(a + 1.0 / 64);
        t.completionS.push_back(a + 3.0 / 64);
        t.batchId.push_back(i);
    }
    for (int j = 0; j < 5; ++j) {
        const double a = 2000.0 + j * 10.0;
        for (double offset : {0.0, 1.0 / 16}) {
            t.arrivalS.push_back(a + offset);
            t.dispatchS.push_back(a + 0.25);
            t.completionS.push_back(a + 5.0 / 16);
            t.batchId.push_back(10000 + j);
        }
    }
    return t;
}

} // namespace

class TestAnalysisRequests : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void latencyAndQueueWait();
    void timeSeriesByWindow();
    void batchesAndFormation();
    void streamsAndFairness();
    void coordinatedOmissionFromIntendedTimes();
    void coordinatedOmissionFromClaimedRate();
    void tailDecomposition();
    void batchSizesWithoutIds();
    void arrivalsOnlyTrace();
    void badInput_data();
    void badInput();
    void cancellation();
    void azureTraceMatchesIndependentCount();
};

void TestAnalysisRequests::latencyAndQueueWait()
{
    const auto r = analyse(*fixture());
    QCOMPARE(r.requests, std::uint64_t(10));
    QCOMPARE(r.completed, std::uint64_t(10));
    BS_NEAR(r.spanS, 4.5);
    // Latencies sorted: .25 .25 .3 .35 .4 .5 1.0 1.1 1.3 1.5
    BS_NEAR(r.latency.mean, 0.695);
    BS_NEAR(r.latency.at(0.5)->value, 0.45);
    BS_NEAR(r.latency.at(0.5)->ciLow, 0.25);
    BS_NEAR(r.latency.at(0.5)->ciHigh, 1.3);
    BS_NEAR(r.latency.at(0.9)->value, 1.32);
    BS_NEAR(r.latency.at(0.99)->value, 1.482);
    QVERIFY(r.latency.at(0.5)->sufficient);
    QVERIFY(!r.latency.at(0.99)->sufficient);
    // Queue waits sorted: 0 0 .05 .05 .1 .1 .1 .2 .3 .5
    BS_NEAR(r.queueWait.mean, 0.14);
    BS_NEAR(r.queueWait.at(0.5)->value, 0.1);
    BS_NEAR(r.queueWait.max, 0.5);
    // Service = completion - dispatch: six short, four of 1 s.
    BS_NEAR(r.service.mean, (0.2 + 0.2 + 0.3 * 3 + 0.25 + 4.0) / 10.0);
}

void TestAnalysisRequests::timeSeriesByWindow()
{
    RequestAnalysisOptions o;
    o.windowS = 1.0;
    const auto r = analyse(*fixture(), o);
    const auto& ts = r.timeSeries;
    QCOMPARE(ts.startS.size(), std::size_t(5)); // 0 .. 4.5 s
    QCOMPARE(ts.arrivals, (std::vector<std::uint64_t>{2, 3, 1, 4, 0}));
    QCOMPARE(ts.completions, (std::vector<std::uint64_t>{2, 3, 1, 0, 4}));
    QCOMPARE(ts.throughputPerS, (std::vector<double>{2, 3, 1, 0, 4}));
    const auto& p50 = ts.latency[0];
    QCOMPARE(p50.probability, 0.5);
    BS_NEAR(p50.value[0], 0.275); // {0.3, 0.25}
    BS_NEAR(p50.value[1], 0.4);   // {0.5, 0.4, 0.35}
    BS_NEAR(p50.value[2], 0.25);
    BS_NEAR(p50.value[3], 1.2); // {1.5, 1.3, 1.1, 1.0}
    QVERIFY(std::isnan(p50.value[4]));
    QCOMPARE(p50.sufficient, (std::vector<std::uint8_t>{0, 0, 0, 0, 0})); // p50 needs 7
    BS_NEAR(ts.queueWait[0].value[3], 0.2); // waits {0.5, 0.3, 0.1, 0}
    // Automatic window: a round value giving about 100 windows (4.5 s / 100 -> 0.05 s).
    const auto automatic = analyse(*fixture());
    BS_NEAR(automatic.timeSeries.windowS, 0.05);
}

void TestAnalysisRequests::batchesAndFormation()
{
    const auto r = analyse(*fixture());
    const auto& b = r.batches;
    QVERIFY(b.available);
    QCOMPARE(b.source, std::string("batch_id"));
    QCOMPARE(b.batches, std::uint64_t(4));
    QCOMPARE(b.batchesBySize, (std::vector<std::uint64_t>{0, 1, 1, 1, 1}));
    BS_NEAR(b.meanSize, 2.5);
    BS_NEAR(b.meanSizeSeenByRequest, 3.0); // (2^2 + 3^2 + 1 + 4^2) / 10
    // Formation (last - first arrival): 0.05, 0.15, 0, 0.5; oldest wait: 0.1, 0.2, 0, 0.5.
    BS_NEAR(b.formationS.mean, 0.175);
    BS_NEAR(b.formationS.max, 0.5);
    BS_NEAR(b.oldestWaitS.mean, 0.2);
}

void TestAnalysisRequests::streamsAndFairness()
{
    const auto r = analyse(*fixture());
    QCOMPARE(r.streams.size(), std::size_t(2));
    const auto& a = r.streams[0];
    const auto& b = r.streams[1];
    QCOMPARE(a.name, std::string("a"));
    QCOMPARE(a.requests, std::uint64_t(5));
    BS_NEAR(a.p50.value, 0.4);
    BS_NEAR(a.p99.value, 1.076); // .25 .3 .4 .5 1.1: 0.5 + 0.96 * 0.6
    BS_NEAR(b.p99.value, 1.492); // .25 .35 1.0 1.3 1.5: 1.3 + 0.96 * 0.2
    BS_NEAR(a.throughputPerS, 5.0 / 4.5);
    const auto& f = r.fairness;
    QVERIFY(f.available);
    BS_NEAR(f.jainP99, 0.9744290510189607); // (1.076 + 1.492)^2 / (2 (1.076^2 + 1.492^2))
    BS_NEAR(f.jainThroughput, 1.0);
    BS_NEAR(f.worstToBestP99, 1.492 / 1.076);
    BS_NEAR(f.worstToOverallP99, 1.492 / 1.482);
    QCOMPARE(f.worstStream, std::string("b"));
    QVERIFY(!f.allSufficient);
}

void TestAnalysisRequests::coordinatedOmissionFromIntendedTimes()
{
    const auto r = analyse(*fixture());
    const auto& co = r.coordinatedOmission;
    QVERIFY(co.checked);
    QCOMPARE(co.source, std::string("intended_times"));
    // Requests 7 and 8 went 0.5 s and 0.2 s late: from intended, .25 .25 .3 .35 .4
    // .5 1.0 1.1 1.5 2.0
    BS_NEAR(co.fromIntendedS[3], 1.955);
    BS_NEAR(co.measuredS[3], 1.482);
    BS_NEAR(co.differenceS[3], 0.473);
    BS_NEAR(co.meanSendLagS, 0.07);
    BS_NEAR(co.maxSendLagS, 0.5);
    BS_NEAR(co.lateFraction, 0.2);
    BS_NEAR(co.scheduleDriftS, 0.0);
    QVERIFY2(co.verdict.find("31.9% higher at p99") != std::string::npos, co.verdict.c_str());
}

void TestAnalysisRequests::coordinatedOmissionFromClaimedRate()
{
    data::RequestTrace t;
    t.arrivalS = {2.0, 0.0, 1.0, 3.5}; // out of order on purpose
    t.completionS = {2.1, 0.1, 1.1, 3.6};
    RequestAnalysisOptions o;
    o.claimedRatePerS = 1.0; // meant at 0, 1, 2, 3
    auto r = analyse(t, o);
    const auto& co = r.coordinatedOmission;
    QVERIFY(co.checked);
    QCOMPARE(co.source, std::string("claimed_rate"));
    BS_NEAR(co.scheduleDriftS, 0.5);
    BS_NEAR(co.maxSendLagS, 0.5);
    BS_NEAR(co.fromIntendedS.back(), 0.1 + 0.997 * 0.5); // p99.9 of .1 .1 .1 .6: h = 2.997
    t.completionS.clear();
    r = analyse(t, o);
    QVERIFY(!r.coordinatedOmission.checked);
    QCOMPARE(r.coordinatedOmission.reason, std::string("the trace has no completion times"));
}

void TestAnalysisRequests::tailDecomposition()
{
    const auto r = analyse(tailTrace());
    const auto& tail = r.tail;
    QVERIFY2(tail.available, tail.reason.c_str());
    QCOMPARE(tail.tailCount, std::uint64_t(10));
    QCOMPARE(tail.medianCount, std::uint64_t(990));
    // Excess: server wait 3/16 - 1/64 = 11/64, formation 1/32 - 0, service 1/16 - 1/32.
    BS_NEAR(tail.excessS, 15.0 / 64);
    QCOMPARE(tail.components.size(), std::size_t(3));
    QCOMPARE(tail.components[0].name, std::string("server_wait"));
    BS_NEAR(tail.components[0].excessS, 11.0 / 64);
    QCOMPARE(tail.components[1].name, std::string("batch_formation"));
    BS_NEAR(tail.components[1].excessS, 1.0 / 32);
    QCOMPARE(tail.components[2].name, std::string("service"));
    BS_NEAR(tail.components[2].excessS, 1.0 / 32);
    BS_NEAR(tail.components[0].share, 11.0 / 15);
    // Constant parts: the bootstrap interval collapses onto the value.
    BS_NEAR(tail.components[0].ciLowS, 11.0 / 64);
    BS_NEAR(tail.components[0].ciHighS, 11.0 / 64);
    // Formation varies (1/16 or 0 within the tail): a real interval around 1/32.
    QVERIFY(tail.components[1].ciLowS < 1.0 / 32 && tail.components[1].ciHighS > 1.0 / 32);
    QVERIFY(tail.method.find("seed 1") != std::string::npos);
    // Same seed, same intervals.
    QCOMPARE(analyse(tailTrace()).tail.components[1].ciLowS, tail.components[1].ciLowS);
}

void TestAnalysisRequests::batchSizesWithoutIds()
{
    data::RequestTrace t;
    t.arrivalS = {0, 1, 2, 3, 4, 5, 6};
    t.batchSize = {1, 2, 2, 4, 4, 4, 4};
    const auto r = analyse(t);
    QCOMPARE(r.batches.source, std::string("batch_size"));
    QCOMPARE(r.batches.batchesBySize, (std::vector<std::uint64_t>{0, 1, 1, 0, 1}));
    QCOMPARE(r.batches.batches, std::uint64_t(3));
    BS_NEAR(r.batches.meanSizeSeenByRequest, 21.0 / 7.0);
}

void TestAnalysisRequests::arrivalsOnlyTrace()
{
    data::RequestTrace t;
    t.arrivalS = {0, 1, 2, 3};
    const auto r = analyse(t);
    QCOMPARE(r.latency.count, std::uint64_t(0));
    QVERIFY(!r.tail.available);
    QVERIFY(!r.fairness.available);
    QVERIFY(!r.arrivals.available);
    QCOMPARE(r.arrivals.reason,
             std::string("arrival characterisation needs at least 20 arrivals; the trace has 4"));
    QCOMPARE(r.notes.size(), std::size_t(1));
}

void TestAnalysisRequests::badInput_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("short column") << 0
                                  << QStringLiteral(
                                         "column completion has 1 values for 2 requests");
    QTest::newRow("completion before arrival")
        << 1 << QStringLiteral("request 2: completion (0.5 s) is before arrival (1 s)");
    QTest::newRow("dispatch after completion")
        << 2 << QStringLiteral("request 1: dispatch (3 s) is outside arrival .. completion");
    QTest::newRow("nan arrival") << 3
                                 << QStringLiteral(
                                        "request 2: arrival time is not a finite number");
    QTest::newRow("no requests") << 4 << QStringLiteral("the request trace has no requests");
    QTest::newRow("too many windows")
        << 5
        << QStringLiteral(
               "a window of 1e-06 s gives 1000001 windows over the 1 s trace; the limit is 100000");
    QTest::newRow("bad batch size")
        << 6 << QStringLiteral("request 1: batch size 0 is not a whole number from 1 to 16777216");
    QTest::newRow("negative claimed rate")
        << 7 << QStringLiteral("the claimed rate must be a positive number of requests per second");
}

void TestAnalysisRequests::badInput()
{
    QFETCH(int, kind);
    QFETCH(QString, message);
    data::RequestTrace t;
    t.arrivalS = {0.0, 1.0};
    RequestAnalysisOptions o;
    switch (kind) {
    case 0:
        t.completionS = {1.0};
        break;
    case 1:
        t.completionS = {1.0, 0.5};
        break;
    case 2:
        t.completionS = {2.0, 2.0}, t.dispatchS = {3.0, 1.5};
        break;
    case 3:
        t.arrivalS[1] = NAN;
        break;
    case 4:
        t.arrivalS.clear();
        break;
    case 5:
        o.windowS = 1e-6;
        break;
    case 6:
        t.batchSize = {0, 1};
        break;
    case 7:
        o.claimedRatePerS = -1.0;
        break;
    }
    const auto r = analyzeRequests(t, o);
    QVERIFY(!r);
    QCOMPARE(QString::fromStdString(r.error().message), message);
}

void TestAnalysisRequests::cancellation()
{
    CancelToken cancel;
    cancel.cancel();
    const auto r = analyzeRequests(*fixture(), {}, Progress::null(), cancel);
    QVERIFY(!r);
    QCOMPARE(r.error().code, ErrorCode::Cancelled);
}

void TestAnalysisRequests::azureTraceMatchesIndependentCount()
{
    BS_REQUIRE_SHARED_DATA(shared);
    const QString path =
        shared + QStringLiteral("/arrival_traces/azure_llm_2023/AzureLLMInferenceTrace_code.csv");
    // Independent count: the CSV's data lines, their first/last timestamps and token sums.
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    const qsizetype rows = lines.size() - 1;
    double contextSum = 0.0;
    for (qsizetype i = 1; i < lines.size(); ++i)
        contextSum += lines[i].split(',')[1].toDouble();
    auto timeOf = [&](qsizetype i) {
        const QByteArray stamp = lines[i].split(',')[0];
        auto t = QDateTime::fromString(QString::fromLatin1(stamp.left(23)),
                                       QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
        t.setTimeZone(QTimeZone::utc());
        return double(t.toMSecsSinceEpoch()) / 1e3 + stamp.mid(23).toDouble() * 1e-7;
    };
    const double spanS = timeOf(rows) - timeOf(1); // the file is in time order
    // The gap CV as documented (README, ArrivalCharacterisation::gapCv): sample standard
    // deviation of the consecutive gaps over their mean.
    std::vector<double> gaps;
    for (qsizetype i = 2; i <= rows; ++i)
        gaps.push_back(timeOf(i) - timeOf(i - 1));
    double gapMean = 0.0, gapSquares = 0.0;
    for (double g : gaps)
        gapMean += g / double(gaps.size());
    for (double g : gaps)
        gapSquares += (g - gapMean) * (g - gapMean);
    const double gapCv = std::sqrt(gapSquares / double(gaps.size() - 1)) / gapMean;

    auto read = io::readDataset(path.toStdString());
    QVERIFY(read);
    RequestAnalysisOptions o;
    o.windowS = 60.0;
    const auto r = analyse(*read->requestTrace(), o);
    QCOMPARE(qsizetype(r.requests), rows);
    QCOMPARE(rows, qsizetype(8819));
    BS_NEAR_WITHIN(r.arrivals.spanS, spanS, 1e-6); // epoch seconds carry ~2e-7 s rounding
    BS_NEAR_WITHIN(r.arrivals.meanRatePerS, double(rows - 1) / spanS, 1e-9);
    BS_NEAR(r.inputTokens.mean, contextSum / double(rows));
    std::uint64_t perWindow = 0;
    for (auto a : r.timeSeries.arrivals)
        perWindow += a;
    QCOMPARE(qsizetype(perWindow), rows);
    QCOMPARE(r.timeSeries.startS.size(), std::size_t(std::floor(spanS / 60.0)) + 1);
    // Arrival fit: bursty (gap cv far above 1, growing dispersion), so not Poisson; the fitted
    // model is a valid simulator arrivals object (checked in tst_analysis_arrivals).
    QVERIFY(r.arrivals.available);
    QVERIFY(r.arrivals.gapCv > 5.0);
    BS_NEAR_WITHIN(r.arrivals.gapCv, gapCv, 1e-6);
    QVERIFY(r.arrivals.idc.back() > 10.0);
    QVERIFY(r.arrivals.chosen >= 0);
    QVERIFY(r.arrivals.fits[std::size_t(r.arrivals.chosen)].kind != "poisson");
    QVERIFY(std::isfinite(r.arrivals.userWindowIdc));
}

QTEST_APPLESS_MAIN(TestAnalysisRequests)
#include "tst_analysis_requests.moc"
