// The simulator against exact queueing theory. Each row runs independent replications and
// checks the estimate against the exact value within 3 half-widths of the run's own 95%
// confidence interval, and checks that interval is narrow enough for the comparison to mean
// something (a test that cannot fail proves nothing).
#include "simtesthelpers.h"

#include <QtTest>

#include <cmath>
#include <functional>

using namespace bs;

namespace {

/// Solves f(x) = target for increasing f on [lo, hi] by bisection.
double solveIncreasing(const std::function<double(double)>& f, double target, double lo, double hi)
{
    for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        (f(mid) < target ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

// M/M/1: the sojourn time is exponential with rate mu - lambda.
double mm1Mean(double lambda, double mu)
{
    return 1.0 / (mu - lambda);
}
double mm1Quantile(double lambda, double mu, double p)
{
    return -std::log(1.0 - p) / (mu - lambda);
}

/// M/D/1 waiting time, Erlang (1909) / Crommelin (1932):
///   P(W <= x) = (1 - rho) sum_{k=0}^{floor(x/D)} [lambda (kD - x)]^k / k! e^{-lambda (kD - x)}.
/// The alternating sum cancels badly for large x/D; with long double it stays accurate to 1e-9
/// up to x ~ 25 D at rho <= 0.8 (the self-check in md1FormulaIsSound covers that range; the
/// p99 lies near 10 D).
double md1WaitCdf(double lambda, double serviceS, double x)
{
    using Real = long double;
    const Real rho = Real(lambda) * serviceS;
    Real sum = 0.0L;
    const int kMax = int(std::floor(x / serviceS));
    for (int k = 0; k <= kMax; ++k) {
        const Real u = Real(lambda) * (Real(k) * serviceS - x);
        sum += std::pow(u, Real(k)) / std::tgamma(Real(k + 1)) * std::exp(-u);
    }
    return double((1.0L - rho) * sum);
}
/// Pollaczek-Khinchine: E[W] = lambda D^2 / (2 (1 - rho)); the sojourn adds D.
double md1Mean(double lambda, double serviceS)
{
    const double rho = lambda * serviceS;
    return lambda * serviceS * serviceS / (2.0 * (1.0 - rho)) + serviceS;
}
double md1Quantile(double lambda, double serviceS, double p)
{
    auto cdf = [&](double x) { return md1WaitCdf(lambda, serviceS, x); };
    return solveIncreasing(cdf, p, 0.0, 15.0 * serviceS) + serviceS;
}

/// Erlang C: the probability an arrival waits in M/M/c with offered load a = lambda / mu.
double erlangC(int c, double lambda, double mu)
{
    const double a = lambda / mu;
    const double rho = a / c;
    double term = 1.0;
    double sum = 1.0;
    for (int k = 1; k < c; ++k) {
        term *= a / k;
        sum += term;
    }
    const double last = term * a / c / (1.0 - rho);
    return last / (sum + last);
}
double mmcMean(int c, double lambda, double mu)
{
    return erlangC(c, lambda, mu) / (c * mu - lambda) + 1.0 / mu;
}
/// The sojourn is W + S with W = 0 w.p. 1 - C, else Exp(theta = c mu - lambda), and S ~ Exp(mu):
///   P(T > t) = (1 - C) e^{-mu t} + C (theta e^{-mu t} - mu e^{-theta t}) / (theta - mu).
double mmcQuantile(int c, double lambda, double mu, double p)
{
    const double C = erlangC(c, lambda, mu);
    const double theta = c * mu - lambda;
    auto cdf = [&](double t) {
        const double tail =
            (1.0 - C) * std::exp(-mu * t) +
            C * (theta * std::exp(-mu * t) - mu * std::exp(-theta * t)) / (theta - mu);
        return 1.0 - tail;
    };
    return solveIncreasing(cdf, p, 0.0, 100.0 / mu);
}

/// Greedy bulk service (max_queue_delay 0) with a batch cap B far above what ever waits and a
/// deterministic batch service time D whatever the batch size; Poisson arrivals at rate lambda.
///
/// Derivation (independent of the simulator): at a service completion, the queue holds exactly
/// the arrivals during that service, N ~ Poisson(lambda D), all of which (B is never reached:
/// P(N > 64) < 1e-30 at lambda D <= 5) start the next service at once. If N = 0 (probability
/// p0 = e^{-lambda D}) the server idles for an Exp(lambda) time until the next arrival, which
/// starts a batch of 1 immediately. So the server alternates services of length D with idle
/// periods that follow a service with probability p0 and last 1/lambda on average; the long-run
/// busy fraction is pi = D / (D + p0 / lambda) = lambda D / (lambda D + p0). A Poisson arrival
/// sees the server busy with probability pi (PASTA); its position within the current service
/// (all of length D) is then uniform, so it waits a residual U ~ Uniform(0, D) and is served in
/// the next batch: sojourn D + U. Otherwise it starts at once: sojourn D. Hence
///   E[T] = D + pi D / 2,   P(T <= D + x) = 1 - pi + pi x / D for 0 <= x <= D,
/// and the mean batch size is E[N] + P(N = 0) = lambda D + e^{-lambda D}.
double bulkBusy(double lambda, double serviceS)
{
    const double load = lambda * serviceS;
    return load / (load + std::exp(-load));
}
double bulkMean(double lambda, double serviceS)
{
    return serviceS + bulkBusy(lambda, serviceS) * serviceS / 2.0;
}
double bulkQuantile(double lambda, double serviceS, double p)
{
    const double pi = bulkBusy(lambda, serviceS);
    return p <= 1.0 - pi ? serviceS : serviceS + serviceS * (p - (1.0 - pi)) / pi;
}
double bulkMeanBatch(double lambda, double serviceS)
{
    return lambda * serviceS + std::exp(-lambda * serviceS);
}

/// GI/M/1 with Erlang-2 interarrival times (a Poisson stream of rate 2 lambda split round robin
/// over 2 servers, each seeing rate lambda): the FCFS sojourn is Exp(mu (1 - sigma)), where sigma
/// in (0, 1) solves sigma = A*(mu (1 - sigma)) with the interarrival transform
/// A*(s) = (2 lambda / (2 lambda + s))^2 (Kleinrock, Queueing Systems I, section 6.4).
double e2m1Sigma(double lambda, double mu)
{
    auto g = [&](double sigma) {
        const double r = 2.0 * lambda / (2.0 * lambda + mu * (1.0 - sigma));
        return r * r - sigma;
    };
    // g > 0 just above 0 and g < 0 just below 1 (rho < 1): bisection on the root inside.
    double lo = 1e-12;
    double hi = 1.0 - 1e-12;
    for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        (g(mid) > 0.0 ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

std::string scenarioJson(const std::string& arrivalsRate, const std::string& policy, int servers,
                         const std::string& service, int requests, int replications,
                         const char* placement = "shared")
{
    return R"({"seed": 20240611, "requests": )" + std::to_string(requests) +
           R"(, "replications": )" + std::to_string(replications) +
           R"(, "arrivals": {"kind": "poisson", "rate_per_s": )" + arrivalsRate +
           R"(}, "policy": )" + policy + R"(, "servers": {"count": )" + std::to_string(servers) +
           R"(, "placement": ")" + placement + R"("}, "service": )" + service + "}";
}

const std::string kOneAtATime = R"({"kind": "dynamic", "max_batch": 1, "max_queue_delay_ms": 0})";
const std::string kGreedyBulk = R"({"kind": "dynamic", "max_batch": 64, "max_queue_delay_ms": 0})";
const std::string kExponential1ms = R"({"kind": "exponential", "mean_ms": 1})";
const std::string kDeterministic1ms =
    R"({"kind": "linear", "base_ms": 1, "per_item_ms": 0, "distribution": {"kind": "deterministic"}})";

} // namespace

class TestSimTheory : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void md1FormulaIsSound();
    void matchesTheory_data();
    void matchesTheory();
};

void TestSimTheory::md1FormulaIsSound()
{
    // The Erlang/Crommelin CDF integrates to the Pollaczek-Khinchine mean, starts at the atom
    // 1 - rho and is a distribution function on the range used for the p99.
    const double lambda = 800.0;
    const double d = 0.001;
    QCOMPARE(md1WaitCdf(lambda, d, 0.0), 1.0 - lambda * d);
    double mean = 0.0;
    const int steps = 25000;
    const double top = 25.0 * d;
    double previous = md1WaitCdf(lambda, d, 0.0);
    for (int i = 1; i <= steps; ++i) {
        const double x = top * i / steps;
        const double cdf = md1WaitCdf(lambda, d, x);
        QVERIFY2(cdf >= previous - 1e-12, "the CDF decreases: cancellation in the sum");
        mean += 0.5 * ((1.0 - previous) + (1.0 - cdf)) * (top / steps);
        previous = cdf;
    }
    QVERIFY(previous > 0.99998 && previous <= 1.0);
    QVERIFY2(
        std::abs(mean - (md1Mean(lambda, d) - d)) < 2e-3 * md1Mean(lambda, d),
        qPrintable(
            QStringLiteral("integrated mean %1, PK %2").arg(mean).arg(md1Mean(lambda, d) - d)));
}

void TestSimTheory::matchesTheory_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<double>("mean");
    QTest::addColumn<double>("p99");
    QTest::addColumn<double>("meanBatch"); // NaN: not checked
    const double nan = std::nan("");
    const double mu = 1000.0;
    const double d = 0.001;
    auto row = [&](const char* name, double lambda, const std::string& policy, int servers,
                   const std::string& service, int requests, double mean, double p99,
                   double batch) {
        QTest::newRow(name) << QString::fromStdString(scenarioJson(std::to_string(lambda), policy,
                                                                   servers, service, requests, 10))
                            << mean << p99 << batch;
    };
    row("M/M/1 rho 0.5", 500, kOneAtATime, 1, kExponential1ms, 200000, mm1Mean(500, mu),
        mm1Quantile(500, mu, 0.99), nan);
    row("M/M/1 rho 0.8", 800, kOneAtATime, 1, kExponential1ms, 500000, mm1Mean(800, mu),
        mm1Quantile(800, mu, 0.99), nan);
    row("M/M/1 rho 0.9", 900, kOneAtATime, 1, kExponential1ms, 1000000, mm1Mean(900, mu),
        mm1Quantile(900, mu, 0.99), nan);
    row("M/D/1 rho 0.5", 500, kOneAtATime, 1, kDeterministic1ms, 200000, md1Mean(500, d),
        md1Quantile(500, d, 0.99), nan);
    row("M/D/1 rho 0.8", 800, kOneAtATime, 1, kDeterministic1ms, 500000, md1Mean(800, d),
        md1Quantile(800, d, 0.99), nan);
    row("M/M/4 rho 0.8", 3200, kOneAtATime, 4, kExponential1ms, 500000, mmcMean(4, 3200, mu),
        mmcQuantile(4, 3200, mu, 0.99), nan);
    row("M/M/2 rho 0.6", 1200, kOneAtATime, 2, kExponential1ms, 200000, mmcMean(2, 1200, mu),
        mmcQuantile(2, 1200, mu, 0.99), nan);
    // Per-server queues. Random placement splits a Poisson stream into independent Poisson
    // streams: two M/M/1 queues at rate lambda / 2 each. Round robin gives each server every
    // other arrival: Erlang-2 gaps, a GI/M/1 queue.
    QTest::newRow("random placement, 2 x M/M/1 rho 0.7")
        << QString::fromStdString(
               scenarioJson("1400", kOneAtATime, 2, kExponential1ms, 300000, 10, "random"))
        << mm1Mean(700, mu) << mm1Quantile(700, mu, 0.99) << nan;
    const double sigma = e2m1Sigma(800, mu);
    QTest::newRow("round robin, 2 x E2/M/1 rho 0.8")
        << QString::fromStdString(
               scenarioJson("1600", kOneAtATime, 2, kExponential1ms, 300000, 10, "round_robin"))
        << 1.0 / (mu * (1.0 - sigma)) << std::log(100.0) / (mu * (1.0 - sigma)) << nan;
    row("bulk greedy lambda D 0.5", 500, kGreedyBulk, 1, kDeterministic1ms, 200000,
        bulkMean(500, d), bulkQuantile(500, d, 0.99), bulkMeanBatch(500, d));
    row("bulk greedy lambda D 2", 2000, kGreedyBulk, 1, kDeterministic1ms, 200000,
        bulkMean(2000, d), bulkQuantile(2000, d, 0.99), bulkMeanBatch(2000, d));
    row("bulk greedy lambda D 5", 5000, kGreedyBulk, 1, kDeterministic1ms, 200000,
        bulkMean(5000, d), bulkQuantile(5000, d, 0.99), bulkMeanBatch(5000, d));
}

void TestSimTheory::matchesTheory()
{
    QFETCH(QString, json);
    QFETCH(double, mean);
    QFETCH(double, p99);
    QFETCH(double, meanBatch);
    auto result = test::simulateJson(json.toStdString(), 2);
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    QVERIFY(result->stability.stable);
    auto check = [](const char* what, const sim::Estimate& e, double exact, double maxRelHalf) {
        const double half = e.halfWidth();
        const QString detail = QStringLiteral("%1: simulated %2 +- %3, exact %4")
                                   .arg(QLatin1String(what))
                                   .arg(e.value, 0, 'g', 8)
                                   .arg(half, 0, 'g', 3)
                                   .arg(exact, 0, 'g', 8);
        QVERIFY2(std::isfinite(half) && half <= maxRelHalf * exact,
                 qPrintable(detail + QStringLiteral(" (interval too wide to test)")));
        QVERIFY2(std::abs(e.value - exact) <= 3.0 * half, qPrintable(detail));
    };
    check("mean sojourn", result->latency.mean, mean, 0.03);
    if (QTest::currentTestFailed())
        return;
    check("p99 sojourn", result->latency.p99, p99, 0.05);
    if (QTest::currentTestFailed())
        return;
    if (!std::isnan(meanBatch))
        check("mean batch", result->meanBatchSize, meanBatch, 0.01);
}

QTEST_APPLESS_MAIN(TestSimTheory)
#include "tst_simtheory.moc"
