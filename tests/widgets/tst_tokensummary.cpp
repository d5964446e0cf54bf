#include "analysis/requestanalysis.h"
#include "io/readdataset.h"
#include "testsupport.h"
#include "views/tokensummary.h"

#include <QtTest>

#include <numeric>

using namespace bs;
using namespace bs::widgets;

/// Token counts of a request trace in the Traces view's summary (issue 21: they were read and
/// never shown).
class TestTokenSummary : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void showsTokensPerRequestTotalsAndRates();
    void aTraceWithoutTokensAddsNoRows();
};

namespace {

data::Dataset readFixture(const char* relative)
{
    auto dataset = io::readDataset(test::testDataPath(QString::fromLatin1(relative)).toStdString());
    if (!dataset)
        qFatal("%s", dataset.error().toString().c_str());
    return *dataset;
}

qulonglong sum(const std::vector<std::int32_t>& tokens)
{
    return std::accumulate(tokens.begin(), tokens.end(), qulonglong(0));
}

} // namespace

void TestTokenSummary::showsTokensPerRequestTotalsAndRates()
{
    const data::Dataset dataset = readFixture("request_trace/azure_replay_400.csv");
    const auto& trace = *dataset.requestTrace();
    const auto analysis = analysis::analyzeRequests(trace);
    QVERIFY(analysis);
    const QList<QStringList> rows = tokenSummaryRows(*analysis);
    QCOMPARE(rows.size(), 3);
    QCOMPARE(rows[0][0], QStringLiteral("Input tokens per request"));
    QCOMPARE(rows[1][0], QStringLiteral("Output tokens per request"));
    const QLocale locale;
    const QString inTotal = locale.toString(sum(trace.inputTokens));
    const QString outTotal = locale.toString(sum(trace.outputTokens));
    QCOMPARE(rows[0][2], QStringLiteral("total %1 over 400 requests").arg(inTotal));
    QCOMPARE(rows[1][2], QStringLiteral("total %1 over 400 requests").arg(outTotal));
    const auto [low, high] =
        std::minmax_element(trace.inputTokens.begin(), trace.inputTokens.end());
    QVERIFY(*low >= 100 && *high <= 4100);
    QVERIFY2(rows[0][1].endsWith(QStringLiteral("max ") + locale.toString(*high)),
             qPrintable(rows[0][1]));
    const double inRate = double(sum(trace.inputTokens)) / analysis->spanS;
    const double outRate = double(sum(trace.outputTokens)) / analysis->spanS;
    QCOMPARE(rows[2][1],
             QStringLiteral("%1 / %2 tokens/s")
                 .arg(locale.toString(inRate, 'f', 0), locale.toString(outRate, 'f', 0)));
}

void TestTokenSummary::aTraceWithoutTokensAddsNoRows()
{
    data::RequestTrace trace;
    trace.arrivalS = {0.0, 0.5, 1.0};
    trace.completionS = {0.1, 0.6, 1.2};
    const auto analysis = analysis::analyzeRequests(trace);
    QVERIFY(analysis);
    QVERIFY(tokenSummaryRows(*analysis).isEmpty());
}

QTEST_GUILESS_MAIN(TestTokenSummary)
#include "tst_tokensummary.moc"
