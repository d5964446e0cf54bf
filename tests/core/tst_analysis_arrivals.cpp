// Arrival characterisation: hand-computed statistics on small fixtures, and recovery of the
// generating process from traces produced by the simulator (core/sim) with known arrivals.

#include "analysis/arrivalfit.h"
#include "analysis/requestanalysis.h"
#include "sim/scenariojson.h"
#include "sim/simulator.h"

#include <QtTest>

#include <cmath>

using namespace bs;
using namespace bs::analysis;

namespace {

/// Runs the simulator with per-request records and turns replication 0 into a request trace.
data::RequestTrace simulatedTrace(const nlohmann::json& arrivals, std::uint64_t requests)
{
    const nlohmann::json scenario = {
        {"seed", 11},
        {"requests", requests},
        {"warmup_requests", 1000},
        {"replications", 1},
        {"arrivals", arrivals},
        {"policy", {{"kind", "dynamic"}, {"max_batch", 64}, {"max_queue_delay_ms", 1}}},
        {"service", {{"kind", "linear"}, {"base_ms", 0.05}, {"per_item_ms", 0.01}}},
        {"output", {{"records", true}}}};
    auto parsed = sim::scenarioFromJson(scenario);
    if (!parsed)
        qFatal("%s", parsed.error().toString().c_str());
    auto result = sim::simulate(*parsed);
    if (!result)
        qFatal("%s", result.error().toString().c_str());
    data::RequestTrace t;
    for (const auto& r : result->records) {
        t.arrivalS.push_back(r.arrivalS);
        t.dispatchS.push_back(r.dispatchS);
        t.completionS.push_back(r.completionS);
        t.batchSize.push_back(std::int32_t(r.batchSize));
    }
    return t;
}

ArrivalCharacterisation characterise(const data::RequestTrace& t)
{
    auto r = analyzeRequests(t);
    if (!r)
        qFatal("%s", r.error().toString().c_str());
    return r->arrivals;
}

bool within(double value, double expected, double relative)
{
    return std::fabs(value - expected) <= relative * std::fabs(expected);
}

#define BS_WITHIN(v, e, r)                                                                         \
    QVERIFY2(within((v), (e), (r)),                                                                \
             qPrintable(QStringLiteral("%1 not within %2 of %3").arg(v).arg(r).arg(e)))

} // namespace

class TestAnalysisArrivals : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void handComputedStatistics();
    void dispersionOfRegularArrivals();
    void gammaAndMmppLaws();
    void recoversPoisson();
    void recoversMmpp2();
    void recoversGammaRenewal();
    void fitIsAValidSimulatorArrivalsObject();
    void nonFiniteTimeIsAnError();
};

void TestAnalysisArrivals::handComputedStatistics()
{
    // 21 arrivals with gaps 1, 3, 1, 3, ...: mean gap 2, sample sd sqrt(20/19), rate 20/40.
    std::vector<double> times = {0.0};
    for (int i = 0; i < 20; ++i)
        times.push_back(times.back() + (i % 2 == 0 ? 1.0 : 3.0));
    auto c = characteriseArrivals(times);
    QVERIFY(c);
    QVERIFY(c->available);
    QCOMPARE(c->count, std::uint64_t(21));
    QCOMPARE(c->spanS, 40.0);
    QCOMPARE(c->meanRatePerS, 0.5);
    QCOMPARE(c->gapMeanS, 2.0);
    QVERIFY(std::fabs(c->gapCv - std::sqrt(20.0 / 19.0) / 2.0) < 1e-12);
    QCOMPARE(c->tiedGaps, std::uint64_t(0));
    QCOMPARE(c->gaps.at(0.5)->value, 2.0); // ten 1 s and ten 3 s gaps
    QVERIFY(c->idc.empty());               // 40 s hold only 5 windows of 4 mean gaps (< 16)
    QCOMPARE(c->fits.front().kind, std::string("poisson"));
    // KS of the gaps against Exp(0.5), F(x) = 1 - e^(-x/2): the empirical CDF steps from 0 to
    // 1/2 at 1 s and to 1 at 3 s, so D = max(F(1), 1/2 - F(1), F(3) - 1/2, 1 - F(3)) = F(1).
    const double f1 = 1.0 - std::exp(-0.5), f3 = 1.0 - std::exp(-1.5);
    const double expected = std::max({f1, 0.5 - f1, f3 - 0.5, 1.0 - f3});
    QCOMPARE(expected, f1);
    QVERIFY(std::fabs(c->fits.front().ksDistance - expected) < 1e-12);
}

void TestAnalysisArrivals::dispersionOfRegularArrivals()
{
    // One arrival a second for 400 s: every 4 s window holds exactly 4 -> IDC 0 at all scales.
    std::vector<double> times;
    for (int i = 0; i <= 400; ++i)
        times.push_back(double(i) + 0.5);
    auto c = characteriseArrivals(times, 10.0);
    QVERIFY(c);
    QCOMPARE(c->idcWindowS.front(), 4.0);
    QCOMPARE(c->idcWindows.front(), std::uint64_t(100));
    QCOMPARE(c->idc.front(), 0.0);
    QCOMPARE(c->userWindowIdc, 0.0);
    QCOMPARE(c->tiedGaps, std::uint64_t(0));
    QVERIFY(!c->fits.front().passes); // a clock is not Poisson
}

void TestAnalysisArrivals::gammaAndMmppLaws()
{
    // P(1, x) = 1 - e^-x; P(2, x) = 1 - e^-x (1 + x); P(0.5, x) = erf(sqrt x).
    QVERIFY(std::fabs(regularizedGammaP(1.0, 0.7) - (1.0 - std::exp(-0.7))) < 1e-14);
    QVERIFY(std::fabs(regularizedGammaP(2.0, 3.0) - (1.0 - std::exp(-3.0) * 4.0)) < 1e-14);
    QVERIFY(std::fabs(regularizedGammaP(0.5, 2.0) - std::erf(std::sqrt(2.0))) < 1e-13);
    // An MMPP-2 with equal rates is Poisson: exponential gaps and IDC 1.
    Mmpp2Params flat{{50.0, 50.0}, {0.2, 0.3}};
    const auto law = mmpp2GapLaw(flat);
    QVERIFY(std::fabs(law.cdf(0.01) - (1.0 - std::exp(-0.5))) < 1e-12);
    QVERIFY(std::fabs(law.mean() - 0.02) < 1e-12);
    QVERIFY(std::fabs(mmpp2Idc(flat, 5.0) - 1.0) < 1e-12);
    // Mean rate (r0 d0 + r1 d1) / (d0 + d1); long-window IDC 1 + 2 (l1 - l0)^2 p0 p1 / (g mean).
    Mmpp2Params bursty{{100.0, 1000.0}, {1.0, 1.0}};
    QCOMPARE(bursty.meanRatePerS(), 550.0);
    const double asymptote = 1.0 + 2.0 * 900.0 * 900.0 * 0.25 / (2.0 * 550.0);
    QVERIFY(std::fabs(mmpp2Idc(bursty, 1e6) - asymptote) / asymptote < 1e-5);
    QVERIFY(std::fabs(mmpp2GapLaw(bursty).mean() - 1.0 / 550.0) < 1e-12);
}

void TestAnalysisArrivals::recoversPoisson()
{
    const auto c =
        characterise(simulatedTrace({{"kind", "poisson"}, {"rate_per_s", 1000}}, 200000));
    QVERIFY(c.available);
    QCOMPARE(c.fits[std::size_t(c.chosen)].kind, std::string("poisson"));
    BS_WITHIN(c.fits[std::size_t(c.chosen)].ratePerS, 1000.0, 0.02);
    BS_WITHIN(c.gapCv, 1.0, 0.02);
    for (double idc : c.idc)
        QVERIFY2(idc > 0.6 && idc < 1.6, qPrintable(QString::number(idc)));
}

void TestAnalysisArrivals::recoversMmpp2()
{
    // Stated tolerance: mean rate 5%, state rates 15%, mean dwell times 25% (200,000 arrivals,
    // about 1,500 low/high cycles).
    const nlohmann::json truth = {
        {"kind", "mmpp2"}, {"rates_per_s", {200, 2000}}, {"mean_dwell_s", {0.5, 0.1}}};
    const auto c = characterise(simulatedTrace(truth, 200000));
    QVERIFY(c.available);
    const auto& fit = c.fits[std::size_t(c.chosen)];
    QCOMPARE(fit.kind, std::string("mmpp2"));
    QVERIFY2(fit.passes, c.choiceReason.c_str());
    BS_WITHIN(fit.ratePerS, 500.0, 0.05);
    BS_WITHIN(fit.mmpp2.ratesPerS[0], 200.0, 0.15);
    BS_WITHIN(fit.mmpp2.ratesPerS[1], 2000.0, 0.15);
    BS_WITHIN(fit.mmpp2.meanDwellS[0], 0.5, 0.25);
    BS_WITHIN(fit.mmpp2.meanDwellS[1], 0.1, 0.25);
    // Poisson and gamma renewal are rejected: the dispersion grows with the window.
    QVERIFY(!c.fits[0].passes);
    QVERIFY(c.fits[0].dispersionZ > 10.0);
}

void TestAnalysisArrivals::recoversGammaRenewal()
{
    const auto c =
        characterise(simulatedTrace({{"kind", "gamma"}, {"rate_per_s", 500}, {"cv", 2.0}}, 200000));
    const auto& fit = c.fits[std::size_t(c.chosen)];
    QCOMPARE(fit.kind, std::string("gamma"));
    BS_WITHIN(fit.cv, 2.0, 0.05);
    BS_WITHIN(fit.ratePerS, 500.0, 0.03);
}

void TestAnalysisArrivals::fitIsAValidSimulatorArrivalsObject()
{
    const nlohmann::json truth = {
        {"kind", "mmpp2"}, {"rates_per_s", {100, 1000}}, {"mean_dwell_s", {1, 1}}};
    const auto c = characterise(simulatedTrace(truth, 100000));
    for (const auto& fit : c.fits) {
        const nlohmann::json scenario = {
            {"arrivals", simulatorArrivals(fit)},
            {"policy", {{"kind", "dynamic"}, {"max_batch", 8}}},
            {"service", {{"kind", "linear"}, {"base_ms", 0.1}, {"per_item_ms", 0.01}}}};
        const auto parsed = sim::scenarioFromJson(scenario);
        QVERIFY2(parsed, parsed ? "" : parsed.error().toString().c_str());
        QCOMPARE(parsed->streams.front().arrivals.kind == sim::ArrivalSpec::Kind::Mmpp2,
                 fit.kind == "mmpp2");
    }
}

void TestAnalysisArrivals::nonFiniteTimeIsAnError()
{
    const std::vector<double> times = {0.0, 1.0, INFINITY};
    const auto c = characteriseArrivals(times);
    QVERIFY(!c);
    QCOMPARE(c.error().message, std::string("arrival time of request 3 is not a finite number"));
}

QTEST_APPLESS_MAIN(TestAnalysisArrivals)
#include "tst_analysis_arrivals.moc"
