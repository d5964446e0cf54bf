#include "testsupport.h"
#include "util/sha256.h"

#include <QCryptographicHash>
#include <QtTest>

using namespace bs;

class TestSha256 : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void knownVectors_data();
    void knownVectors();
    void matchesQtOnAFile();
};

void TestSha256::knownVectors_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QString>("digest");
    QTest::newRow("empty") << QByteArray()
                           << "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    QTest::newRow("abc") << QByteArray("abc")
                         << "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    QTest::newRow("two blocks")
        << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        << "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
    QTest::newRow("million a")
        << QByteArray(1000000, 'a')
        << "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
}

void TestSha256::knownVectors()
{
    QFETCH(QByteArray, input);
    QFETCH(QString, digest);
    Sha256 hash;
    // Feed in odd-sized pieces to cross block boundaries.
    for (qsizetype offset = 0; offset < input.size(); offset += 13)
        hash.update(input.constData() + offset,
                    std::size_t(std::min<qsizetype>(13, input.size() - offset)));
    QCOMPARE(QString::fromStdString(hash.hexDigest()), digest);
}

void TestSha256::matchesQtOnAFile()
{
    const QString path = test::testDataPath(QStringLiteral("gzip/multi.gz"));
    auto ours = sha256OfFile(path.toStdString());
    QVERIFY(ours);
    const QByteArray theirs =
        QCryptographicHash::hash(test::readFile(path), QCryptographicHash::Sha256).toHex();
    QCOMPARE(QByteArray::fromStdString(*ours), theirs);
    QVERIFY(!sha256OfFile("/nonexistent.bin"));
}

QTEST_APPLESS_MAIN(TestSha256)
#include "tst_sha256.moc"
