#include "util/error.h"
#include "util/expected.h"

#include <QtTest>

#include <memory>

using namespace bs;

class TestError : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void toStringLeavesOutUnknownParts_data();
    void toStringLeavesOutUnknownParts();
    void expectedHoldsValueOrError();
    void expectedMovesOnlyValues();
    void statusDefaultsToSuccess();
    void codeNamesAreStable();
};

void TestError::toStringLeavesOutUnknownParts_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<qint64>("line");
    QTest::addColumn<qint64>("column");
    QTest::addColumn<QString>("expected");
    QTest::newRow("everything") << "a.csv" << qint64(3) << qint64(7) << "a.csv:3:7: bad";
    QTest::newRow("no column") << "a.csv" << qint64(3) << qint64(0) << "a.csv:3: bad";
    QTest::newRow("no line") << "a.csv" << qint64(0) << qint64(9) << "a.csv: bad";
    QTest::newRow("no path") << "" << qint64(3) << qint64(7) << "bad";
}

void TestError::toStringLeavesOutUnknownParts()
{
    QFETCH(QString, path);
    QFETCH(qint64, line);
    QFETCH(qint64, column);
    QFETCH(QString, expected);
    const Error error = makeError(ErrorCode::Format, path.toStdString(), line, column, "bad");
    QCOMPARE(QString::fromStdString(error.toString()), expected);
}

void TestError::expectedHoldsValueOrError()
{
    Expected<int> ok = 42;
    QVERIFY(ok.hasValue());
    QVERIFY(bool(ok));
    QCOMPARE(*ok, 42);

    Expected<int> failed = makeError(ErrorCode::Value, "x.csv", 2, 1, "negative latency");
    QVERIFY(!failed);
    QCOMPARE(failed.error().code, ErrorCode::Value);
    QCOMPARE(failed.error().line, 2);
    QCOMPARE(QString::fromStdString(failed.error().message), QStringLiteral("negative latency"));
}

void TestError::expectedMovesOnlyValues()
{
    Expected<std::unique_ptr<int>> owned = std::make_unique<int>(5);
    QVERIFY(owned.hasValue());
    std::unique_ptr<int> taken = std::move(owned).value();
    QCOMPARE(*taken, 5);
}

void TestError::statusDefaultsToSuccess()
{
    Status ok;
    QVERIFY(ok.hasValue());
    Status failed = makeError(ErrorCode::Io, "cannot open");
    QVERIFY(!failed);
    QCOMPARE(QString::fromStdString(failed.error().toString()), QStringLiteral("cannot open"));
}

void TestError::codeNamesAreStable()
{
    QCOMPARE(QString::fromLatin1(errorCodeName(ErrorCode::Format)), QStringLiteral("format"));
    QCOMPARE(QString::fromLatin1(errorCodeName(ErrorCode::Limit)), QStringLiteral("limit"));
    QCOMPARE(QString::fromLatin1(errorCodeName(ErrorCode::Usage)), QStringLiteral("usage"));
}

QTEST_APPLESS_MAIN(TestError)
#include "tst_error.moc"
