// The numerical building blocks of the simulator: exact percentiles (numpy's linear method), the
// log-bucket sketch, the random number generator and its distributions, confidence intervals,
// Jain's index, and the rate-profile time change.
#include "sim/estimate.h"
#include "sim/loghistogram.h"
#include "sim/percentiles.h"
#include "sim/profiletimemap.h"
#include "sim/rng.h"
#include "sim/variability.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <span>

using namespace bs;

namespace {

/// numpy.percentile(values, 100 p) with the default method, by sorting.
double numpyQuantile(std::vector<double> values, double p)
{
    std::sort(values.begin(), values.end());
    const double h = double(values.size() - 1) * p;
    const auto k = std::size_t(std::floor(h));
    const std::size_t k1 = std::min(k + 1, values.size() - 1);
    return sim::numpyLerp(values[k], values[k1], h - double(k));
}

std::vector<double> sample(const char* shape, std::size_t n, std::uint64_t seed)
{
    sim::Rng rng(seed, 0);
    std::vector<double> out(n);
    const std::string kind = shape;
    for (std::size_t i = 0; i < n; ++i) {
        if (kind == "exponential")
            out[i] = rng.exponential() * 0.01;
        else if (kind == "ties")
            out[i] = double(rng.next() % 7) * 0.001;
        else if (kind == "constant")
            out[i] = 0.0042;
        else if (kind == "outlier")
            out[i] = i == n / 2 ? 1e6 : 0.001 + 1e-9 * double(rng.next() % 1000);
        else if (kind == "zeros and tiny")
            out[i] = i % 3 == 0 ? 0.0 : 1e-300 * double(1 + rng.next() % 5);
        else
            out[i] = std::exp(3.0 * rng.normal()) * 1e-3; // "lognormal"
    }
    return out;
}

} // namespace

class TestSimNumerics : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void exactQuantilesMatchNumpy_data();
    void exactQuantilesMatchNumpy();
    void exactQuantilesOverSeveralParts();
    void numpyKnownValues();
    void sketchStaysWithinItsErrorBound();
    void sketchHistogramCountsEverything();
    void sketchCdfClimbsToOneThroughItsQuantiles();
    void rngIsDeterministicPerStream();
    void distributionsHaveTheirMoments_data();
    void distributionsHaveTheirMoments();
    void confidenceIntervalAndJain();
    void profileTimeChangeInvertsLambda_data();
    void profileTimeChangeInvertsLambda();
};

void TestSimNumerics::exactQuantilesMatchNumpy_data()
{
    QTest::addColumn<QString>("shape");
    QTest::addColumn<int>("n");
    for (const char* shape :
         {"exponential", "ties", "constant", "outlier", "zeros and tiny", "lognormal"}) {
        for (int n : {1, 2, 3, 1000, 2049, 300000}) {
            const QByteArray name = QByteArray(shape) + " n=" + QByteArray::number(n);
            QTest::newRow(name.constData()) << QString::fromLatin1(shape) << n;
        }
    }
}

void TestSimNumerics::exactQuantilesMatchNumpy()
{
    QFETCH(QString, shape);
    QFETCH(int, n);
    const auto values = sample(shape.toLatin1().constData(), std::size_t(n), 1234);
    const std::vector<double> probabilities = {0.0, 0.001, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1.0};
    const auto got = sim::exactQuantiles(std::span<const double>(values), probabilities);
    for (std::size_t i = 0; i < probabilities.size(); ++i) {
        const double want = numpyQuantile(values, probabilities[i]);
        QVERIFY2(got[i] == want, qPrintable(QStringLiteral("p %1: got %2, numpy %3")
                                                .arg(probabilities[i])
                                                .arg(got[i], 0, 'g', 17)
                                                .arg(want, 0, 'g', 17)));
    }
}

void TestSimNumerics::exactQuantilesOverSeveralParts()
{
    const auto a = sample("lognormal", 50000, 1);
    const auto b = sample("exponential", 70001, 2);
    const std::vector<double> empty;
    std::vector<double> all = a;
    all.insert(all.end(), b.begin(), b.end());
    const std::span<const double> parts[] = {a, empty, b};
    const auto got = sim::exactQuantiles(std::span<const std::span<const double>>(parts),
                                         sim::kReportedQuantiles);
    for (std::size_t i = 0; i < std::size(sim::kReportedQuantiles); ++i)
        QCOMPARE(got[i], numpyQuantile(all, sim::kReportedQuantiles[i]));
    QVERIFY(std::isnan(sim::exactQuantiles(std::span<const double>(empty), std::vector{0.5})[0]));
}

void TestSimNumerics::numpyKnownValues()
{
    // numpy.percentile([1, 2, 3, 4], [50, 90, 99]) == [2.5, 3.7, 3.97]
    const std::vector<double> v = {4, 1, 3, 2};
    const auto q = sim::exactQuantiles(std::span<const double>(v), std::vector{0.5, 0.9, 0.99});
    QCOMPARE(q[0], 2.5);
    QCOMPARE(q[1], 3.7);
    QCOMPARE(q[2], 3.9699999999999998);
}

void TestSimNumerics::sketchStaysWithinItsErrorBound()
{
    const auto values = sample("lognormal", 200000, 9);
    sim::LogHistogram sketch;
    for (double v : values)
        sketch.add(v);
    QCOMPARE(sketch.count(), std::uint64_t(values.size()));
    for (double p : {0.01, 0.5, 0.9, 0.99, 0.999}) {
        const double exact = numpyQuantile(values, p);
        const double approx = sketch.quantile(p);
        QVERIFY2(
            std::abs(approx - exact) <= sim::LogHistogram::kRelativeError * exact * 1.0001,
            qPrintable(QStringLiteral("p %1: sketch %2, exact %3").arg(p).arg(approx).arg(exact)));
    }
    sim::LogHistogram zeros;
    zeros.add(0.0);
    zeros.add(0.0);
    zeros.add(1e-12); // below 2^-30 s: counted as zero
    QCOMPARE(zeros.quantile(0.99), 0.0);
    QVERIFY(std::isnan(sim::LogHistogram().quantile(0.5)));
}

void TestSimNumerics::sketchHistogramCountsEverything()
{
    sim::LogHistogram h;
    h.add(0.0);
    h.add(0.001);
    h.add(0.0015);
    h.add(0.004);
    sim::LogHistogram other;
    other.add(0.004);
    h.merge(other);
    std::vector<double> edges;
    std::vector<std::uint64_t> counts;
    h.coarsen(8, edges, counts);
    QCOMPARE(edges.size(), counts.size() + 1);
    std::uint64_t total = 0;
    for (auto c : counts)
        total += c;
    QCOMPARE(total, std::uint64_t(5));
    QCOMPARE(edges.front(), 0.0); // the zero bucket comes first
    QCOMPARE(counts.front(), std::uint64_t(1));
    for (std::size_t i = 2; i < edges.size(); ++i) // 8 per octave: ratio 2^(1/8) or less
        QVERIFY(edges[i] / edges[i - 1] <= 1.125 + 1e-12 && edges[i] > edges[i - 1]);
    QVERIFY(edges.back() > 0.004);
}

void TestSimNumerics::sketchCdfClimbsToOneThroughItsQuantiles()
{
    std::vector<double> values, probability;
    sim::LogHistogram().cdf(values, probability);
    QVERIFY(values.empty() && probability.empty());
    sim::LogHistogram sketch;
    for (double v : sample("lognormal", 50000, 3))
        sketch.add(v);
    sketch.cdf(values, probability);
    QCOMPARE(values.size(), probability.size());
    QCOMPARE(probability.back(), 1.0);
    for (std::size_t i = 1; i < values.size(); ++i)
        QVERIFY(values[i] > values[i - 1] && probability[i] > probability[i - 1]);
    // The CDF read at the median and the 99th percentile gives back what quantile() says: the
    // first bucket whose share reaches p holds the sketch's quantile.
    for (double p : {0.5, 0.99}) {
        const auto at = std::lower_bound(probability.begin(), probability.end(), p);
        const double fromCdf = values[std::size_t(at - probability.begin())];
        QVERIFY2(std::abs(fromCdf - sketch.quantile(p)) <=
                     2.0 * sim::LogHistogram::kRelativeError * fromCdf,
                 qPrintable(QStringLiteral("p %1: CDF %2, quantile %3")
                                .arg(p)
                                .arg(fromCdf)
                                .arg(sketch.quantile(p))));
    }
}

void TestSimNumerics::rngIsDeterministicPerStream()
{
    sim::Rng a(42, 3);
    sim::Rng b(42, 3);
    sim::Rng c(42, 4);
    sim::Rng d(sim::replicationSeed(42, 1), 3);
    bool differs = false;
    for (int i = 0; i < 1000; ++i) {
        const auto x = a.next();
        QCOMPARE(x, b.next());
        differs = differs || x != c.next() || x != d.next();
    }
    QVERIFY(differs);
    QVERIFY(sim::replicationSeed(42, 0) != sim::replicationSeed(42, 1));
    QVERIFY(sim::replicationSeed(42, 0) != sim::replicationSeed(43, 0));
    // The documented seeding: splitmix64 of seed 0 gives the reference value of its authors.
    std::uint64_t state = 0;
    QCOMPARE(sim::splitMix64(state), 0xe220a8397b1dcdafULL);
}

void TestSimNumerics::distributionsHaveTheirMoments_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<double>("cv");
    QTest::newRow("deterministic") << int(sim::VariabilityKind::Deterministic) << 0.0;
    QTest::newRow("exponential") << int(sim::VariabilityKind::Exponential) << 1.0;
    QTest::newRow("gamma 0.3") << int(sim::VariabilityKind::Gamma) << 0.3;
    QTest::newRow("gamma 2 (shape < 1)") << int(sim::VariabilityKind::Gamma) << 2.0;
    QTest::newRow("lognormal 0.5") << int(sim::VariabilityKind::Lognormal) << 0.5;
}

void TestSimNumerics::distributionsHaveTheirMoments()
{
    QFETCH(int, kind);
    QFETCH(double, cv);
    const sim::VariabilitySampler sampler({sim::VariabilityKind(kind), cv});
    sim::Rng rng(7, 0);
    const int n = 400000;
    double sum = 0.0;
    double squares = 0.0;
    for (int i = 0; i < n; ++i) {
        const double x = sampler.draw(rng);
        QVERIFY(x >= 0.0);
        sum += x;
        squares += x * x;
    }
    const double mean = sum / n;
    const double sd = std::sqrt(squares / n - mean * mean);
    // Standard error of the mean is cv / sqrt(n) < 0.0032; of the sd (for these shapes) a few
    // times that.
    QVERIFY2(std::abs(mean - 1.0) < 0.01, qPrintable(QStringLiteral("mean %1").arg(mean)));
    QVERIFY2(std::abs(sd - cv) < 0.03 * std::max(cv, 0.1) + 1e-12,
             qPrintable(QStringLiteral("sd %1, cv %2").arg(sd).arg(cv)));
}

void TestSimNumerics::confidenceIntervalAndJain()
{
    const std::vector<double> values = {1.0, 2.0, 3.0, 4.0};
    const auto e = sim::estimateOf(values);
    QCOMPARE(e.value, 2.5);
    // s = sqrt(5/3), t(0.975, 3) = 3.1824: half-width 3.1824 * sqrt(5/3) / 2.
    QVERIFY(std::abs(e.halfWidth() - 3.1824 * std::sqrt(5.0 / 3.0) / 2.0) < 1e-12);
    const auto single = sim::estimateOf(std::vector{7.0});
    QCOMPARE(single.value, 7.0);
    QVERIFY(std::isnan(single.ciLow));
    QVERIFY(std::abs(sim::studentT975(40) - 2.0211) < 2e-4);
    QVERIFY(std::abs(sim::studentT975(120) - 1.9799) < 2e-4);
    QCOMPARE(sim::jainIndex(std::vector{3.0, 3.0, 3.0}), 1.0);
    QCOMPARE(sim::jainIndex(std::vector{1.0, 0.0, 0.0, 0.0}), 0.25);
    QVERIFY(std::isnan(sim::jainIndex(std::vector{1.0})));
}

void TestSimNumerics::profileTimeChangeInvertsLambda_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QList<double>>("times");
    QTest::addColumn<QList<double>>("multipliers");
    QTest::newRow("diurnal") << int(sim::RateProfile::Kind::Diurnal) << QList<double>{}
                             << QList<double>{};
    QTest::newRow("ramp up and down")
        << int(sim::RateProfile::Kind::Ramp) << QList<double>{-5, 10, 20, 30}
        << QList<double>{0.5, 0.5, 3.0, 0.2};
    QTest::newRow("single point") << int(sim::RateProfile::Kind::Ramp) << QList<double>{4}
                                  << QList<double>{2.5};
}

void TestSimNumerics::profileTimeChangeInvertsLambda()
{
    QFETCH(int, kind);
    QFETCH(QList<double>, times);
    QFETCH(QList<double>, multipliers);
    sim::RateProfile profile;
    profile.kind = sim::RateProfile::Kind(kind);
    profile.periodS = 17.0;
    profile.amplitude = 0.8;
    profile.peakS = 3.0;
    profile.timesS.assign(times.begin(), times.end());
    profile.multipliers.assign(multipliers.begin(), multipliers.end());
    sim::ProfileTimeMap map(profile);
    // Lambda(t) by fine numerical integration, then realTime(Lambda(t)) must give t back.
    double lambda = 0.0;
    double t = 0.0;
    const double step = 1e-3;
    for (int i = 1; i <= 50000; ++i) {
        lambda += step * sim::ProfileTimeMap::multiplierAt(profile, t + 0.5 * step);
        t += step;
        if (i % 997 == 0) {
            const double back = map.realTime(lambda);
            QVERIFY2(std::abs(back - t) < 1e-6,
                     qPrintable(QStringLiteral("t %1 -> %2").arg(t).arg(back)));
        }
    }
}

QTEST_APPLESS_MAIN(TestSimNumerics)
#include "tst_simnumerics.moc"
