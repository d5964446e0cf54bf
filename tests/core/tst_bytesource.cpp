#include "io/atomicfile.h"
#include "io/bytesource.h"
#include "io/linereader.h"
#include "testsupport.h"

#include <QtTest>

#include <random>

using namespace bs;

namespace {

Expected<std::string> readFully(const QString& relative, io::ByteSourceLimits limits = {})
{
    auto source = io::openByteSource(test::testDataPath(relative).toStdString(), limits);
    if (!source)
        return source.error();
    std::string out;
    char buffer[7]; // deliberately tiny: exercises many partial reads
    for (;;) {
        auto got = (*source)->read(buffer, sizeof buffer);
        if (!got)
            return got.error();
        if (*got == 0)
            return out;
        out.append(buffer, *got);
    }
}

std::vector<std::string> allLines(io::ByteSource& source, std::string* error = nullptr)
{
    io::LineReader reader(source);
    std::vector<std::string> lines;
    std::string_view line;
    for (;;) {
        auto more = reader.next(line);
        if (!more) {
            if (error)
                *error = more.error().toString();
            return lines;
        }
        if (!*more)
            return lines;
        lines.emplace_back(line);
    }
}

} // namespace

class TestByteSource : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void plainAndGzipGiveTheSameBytes();
    void gzipIsDetectedByContentNotName();
    void concatenatedMembersAreOneStream();
    void emptyInputs();
    void truncatedGzipIsAnError();
    void corruptGzipIsAnError();
    void missingFileNamesThePath();
    void progressCountsStoredBytes();
    void bombIsStoppedByTheRatioLimit();
    void sizeLimitStopsDecompression();
    void largeStreamInflatesInChunks();
    void lineReaderHandlesLineEndings();
    void lineReaderRejectsUtf16AndBinary_data();
    void lineReaderRejectsUtf16AndBinary();
    void lineReaderSkipsUtf8Bom();
    void lineReaderLimitsLineLength();
    void lineReaderHonoursCancel();
};

void TestByteSource::plainAndGzipGiveTheSameBytes()
{
    auto plain = readFully(QStringLiteral("gzip/plain.txt"));
    auto gz = readFully(QStringLiteral("gzip/plain.txt.gz"));
    QVERIFY(plain);
    QVERIFY2(gz, gz ? "" : gz.error().toString().c_str());
    QCOMPARE(QByteArray::fromStdString(*gz), QByteArray::fromStdString(*plain));
    QCOMPARE(QByteArray::fromStdString(*plain), QByteArray("alpha,1\nbeta,2\r\ngamma,3"));
}

void TestByteSource::gzipIsDetectedByContentNotName()
{
    const QByteArray compressed =
        test::readFile(test::testDataPath(QStringLiteral("gzip/plain.txt.gz")));
    QTemporaryDir dir;
    const QString disguised = dir.filePath(QStringLiteral("results.csv"));
    QFile out(disguised);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(compressed);
    out.close();
    auto source = io::openByteSource(disguised.toStdString());
    QVERIFY(source);
    QVERIFY((*source)->isCompressed());
    QCOMPARE(allLines(**source).size(), std::size_t(3));

    auto plainNamedGz = io::memoryByteSource("not,compressed\n", "looks.gz");
    QVERIFY(!plainNamedGz->isCompressed());
}

void TestByteSource::concatenatedMembersAreOneStream()
{
    auto text = readFully(QStringLiteral("gzip/multi.gz"));
    QVERIFY2(text, text ? "" : text.error().toString().c_str());
    QCOMPARE(QByteArray::fromStdString(*text), QByteArray("first member\nsecond member\n"));
}

void TestByteSource::emptyInputs()
{
    auto empty = readFully(QStringLiteral("gzip/empty.txt"));
    QVERIFY(empty);
    QVERIFY(empty->empty());
    auto emptyGz = readFully(QStringLiteral("gzip/empty-content.gz"));
    QVERIFY2(emptyGz, emptyGz ? "" : emptyGz.error().toString().c_str());
    QVERIFY(emptyGz->empty());
}

void TestByteSource::truncatedGzipIsAnError()
{
    auto text = readFully(QStringLiteral("gzip/truncated.gz"));
    QVERIFY(!text);
    QCOMPARE(text.error().code, ErrorCode::Format);
    const QString message = QString::fromStdString(text.error().toString());
    QVERIFY2(message.contains(QStringLiteral("truncated.gz: truncated gzip data")),
             qPrintable(message));
}

void TestByteSource::corruptGzipIsAnError()
{
    auto text = readFully(QStringLiteral("gzip/corrupt.gz"));
    QVERIFY(!text);
    QCOMPARE(text.error().code, ErrorCode::Format);
    const QString message = QString::fromStdString(text.error().toString());
    QVERIFY2(message.contains(QStringLiteral("corrupt.gz: corrupt gzip data at compressed byte")),
             qPrintable(message));
}

void TestByteSource::missingFileNamesThePath()
{
    auto source = io::openByteSource("/nonexistent/folder/trace.json.gz");
    QVERIFY(!source);
    QCOMPARE(source.error().code, ErrorCode::Io);
    QCOMPARE(QString::fromStdString(source.error().toString()),
             QStringLiteral(
                 "/nonexistent/folder/trace.json.gz: cannot open file: No such file or directory"));
}

void TestByteSource::progressCountsStoredBytes()
{
    std::string text;
    for (int i = 0; i < 200000; ++i)
        text += "row," + std::to_string(i) + "\n";
    const std::string compressed = io::gzipCompress(text);
    auto source = io::memoryByteSource(compressed, "rows.gz");
    std::vector<ProgressUpdate> updates;
    Progress progress([&](const ProgressUpdate& u) { updates.push_back(u); },
                      std::chrono::milliseconds(0));
    progress.setPhase("reading", source->storedSizeBytes());
    io::LineReader reader(*source, progress);
    std::string_view line;
    std::size_t lines = 0;
    while (*reader.next(line))
        ++lines;
    QCOMPARE(lines, std::size_t(200000));
    QVERIFY(updates.size() >= 2);
    QCOMPARE(updates.back().done, std::uint64_t(compressed.size()));
    QCOMPARE(updates.back().total, std::uint64_t(compressed.size()));
    QCOMPARE(source->bytesProduced(), std::uint64_t(text.size()));
}

void TestByteSource::bombIsStoppedByTheRatioLimit()
{
    // 200 MB of zeros compress about 1000:1: a small decompression bomb.
    const std::string zeros(std::size_t(200) << 20, '\0');
    const std::string bomb = io::gzipCompress(zeros, 9);
    QVERIFY(bomb.size() < std::size_t(1) << 20);
    io::ByteSourceLimits limits;
    limits.maxCompressionRatio = 100.0;
    limits.ratioCheckAfterBytes = std::size_t(8) << 20;
    auto source = io::memoryByteSource(bomb, "bomb.gz", limits);
    std::vector<char> buffer(1 << 20);
    std::uint64_t total = 0;
    for (;;) {
        auto got = source->read(buffer.data(), buffer.size());
        if (!got) {
            QCOMPARE(got.error().code, ErrorCode::Limit);
            QVERIFY(QString::fromStdString(got.error().message)
                        .contains(QStringLiteral("decompression bomb")));
            QVERIFY(total < (std::uint64_t(16) << 20));
            return;
        }
        QVERIFY2(*got != 0, "the bomb was decompressed completely");
        total += *got;
    }
}

void TestByteSource::sizeLimitStopsDecompression()
{
    std::mt19937 random(7);
    std::string noise(std::size_t(3) << 20, ' ');
    for (auto& c : noise)
        c = char('a' + random() % 26);
    io::ByteSourceLimits limits;
    limits.maxUncompressedBytes = std::size_t(1) << 20;
    auto source = io::memoryByteSource(io::gzipCompress(noise), "big.gz", limits);
    auto all = io::readAll(*source, std::uint64_t(1) << 30);
    QVERIFY(!all);
    QCOMPARE(all.error().code, ErrorCode::Limit);
    QVERIFY(QString::fromStdString(all.error().message)
                .contains(QStringLiteral("decompressed size exceeds")));
}

void TestByteSource::largeStreamInflatesInChunks()
{
    std::string text;
    for (int i = 0; i < 400000; ++i)
        text += "{\"name\":\"kernel_" + std::to_string(i % 97) + "\",\"ts\":" + std::to_string(i) +
                "}\n";
    auto source = io::memoryByteSource(io::gzipCompress(text), "events.gz");
    std::vector<char> buffer(1 << 16);
    std::string out;
    std::size_t maxChunk = 0;
    for (;;) {
        auto got = source->read(buffer.data(), buffer.size());
        QVERIFY(got);
        if (*got == 0)
            break;
        maxChunk = std::max(maxChunk, *got);
        out.append(buffer.data(), *got);
    }
    QCOMPARE(out.size(), text.size());
    QVERIFY(out == text);
    QVERIFY(maxChunk <= buffer.size());
}

void TestByteSource::lineReaderHandlesLineEndings()
{
    auto source =
        io::openByteSource(test::testDataPath(QStringLiteral("gzip/plain.txt.gz")).toStdString());
    QVERIFY(source);
    const auto lines = allLines(**source);
    QCOMPARE(lines.size(), std::size_t(3));
    QCOMPARE(QString::fromStdString(lines[0]), QStringLiteral("alpha,1"));
    QCOMPARE(QString::fromStdString(lines[1]), QStringLiteral("beta,2"));
    QCOMPARE(QString::fromStdString(lines[2]), QStringLiteral("gamma,3"));
}

void TestByteSource::lineReaderRejectsUtf16AndBinary_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    QTest::newRow("utf-16 le") << QByteArray("\xff\xfe"
                                             "a\0b\0",
                                             6)
                               << "in.csv:1:1: the file is UTF-16 encoded; BatchScope reads UTF-8 "
                                  "text (save it as UTF-8 and try again)";
    QTest::newRow("utf-16 be") << QByteArray("\xfe\xff\0a\0b", 6)
                               << "in.csv:1:1: the file is UTF-16 encoded; BatchScope reads UTF-8 "
                                  "text (save it as UTF-8 and try again)";
    QTest::newRow("nul on line 3")
        << QByteArray("a,b\nc,d\ne\0f\n", 12)
        << "in.csv:3: binary data (a NUL byte) in what should be a text file";
}

void TestByteSource::lineReaderRejectsUtf16AndBinary()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    auto source = io::memoryByteSource(bytes.toStdString(), "in.csv");
    std::string error;
    allLines(*source, &error);
    QCOMPARE(QString::fromStdString(error), expected);
}

void TestByteSource::lineReaderSkipsUtf8Bom()
{
    auto source = io::memoryByteSource("\xef\xbb\xbf"
                                       "Batch,Concurrency\n1,2\n",
                                       "bom.csv");
    const auto lines = allLines(*source);
    QCOMPARE(lines.size(), std::size_t(2));
    QCOMPARE(QString::fromStdString(lines[0]), QStringLiteral("Batch,Concurrency"));
}

void TestByteSource::lineReaderLimitsLineLength()
{
    std::string huge(std::size_t(5) << 20, 'x');
    auto source = io::memoryByteSource("ok\n" + huge + "\n", "huge.csv");
    io::LineReader reader(*source, Progress::null(), CancelToken(), io::LineReaderOptions{1 << 20});
    std::string_view line;
    QVERIFY(*reader.next(line));
    auto second = reader.next(line);
    QVERIFY(!second);
    QCOMPARE(second.error().code, ErrorCode::Limit);
    QCOMPARE(second.error().line, 2);
}

void TestByteSource::lineReaderHonoursCancel()
{
    std::string text;
    for (int i = 0; i < 500000; ++i)
        text += "line " + std::to_string(i) + "\n";
    auto source = io::memoryByteSource(text, "long.txt");
    CancelToken cancel;
    io::LineReader reader(*source, Progress::null(), cancel);
    std::string_view line;
    QVERIFY(*reader.next(line));
    cancel.cancel();
    for (;;) {
        auto more = reader.next(line);
        if (!more) {
            QCOMPARE(more.error().code, ErrorCode::Cancelled);
            return;
        }
        QVERIFY2(*more, "reached the end although cancelled");
    }
}

QTEST_APPLESS_MAIN(TestByteSource)
#include "tst_bytesource.moc"
