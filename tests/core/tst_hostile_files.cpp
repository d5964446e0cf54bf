// Hostile files (issue 22): a FIFO named as an input is refused at once instead of blocking
// the open; saving keeps the permissions of what it replaces (or the umask), saves through
// symlinks and removes the temporary files of a save that was killed.
#include "data/project.h"
#include "io/atomicfile.h"
#include "io/projectfile.h"
#include "io/readdataset.h"
#include "sim/scenariojson.h"
#include "util/sha256.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <sys/stat.h>

using namespace bs;
namespace fs = std::filesystem;

namespace {

unsigned modeOf(const std::string& path)
{
    struct stat info = {};
    ::stat(path.c_str(), &info);
    return info.st_mode & 07777;
}

void writeText(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

std::string readText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Runs `open` on another thread; a FIFO that blocks would leave it hanging, so the test waits
/// a bounded time and fails instead of hanging the suite.
template <typename F>
std::string errorWithin(F open)
{
    auto future = std::async(std::launch::async, open);
    if (future.wait_for(std::chrono::seconds(5)) != std::future_status::ready)
        qFatal("opening a FIFO blocked");
    return future.get();
}

} // namespace

class TestHostileFiles : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fifoInputsAreRefusedWithoutBlocking();
    void replacedFileKeepsItsPermissions();
    void newFileRespectsTheUmask();
    void saveThroughSymlinkWritesTheTarget();
    void staleTemporariesAreRemovedOnTheNextSave();
    void folderInPlaceOfTheFileIsNotReplaced();
};

void TestHostileFiles::fifoInputsAreRefusedWithoutBlocking()
{
    // Regression: fopen on a FIFO waits for a writer forever.
    QTemporaryDir dir;
    const std::string fifo = dir.filePath(QStringLiteral("input.bsproj")).toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string why = "not a regular file (a pipe, socket or device); refusing to read it";
    QCOMPARE(errorWithin([&] { return io::loadProject(fifo).error().message; }), why);
    QCOMPARE(errorWithin([&] { return sim::loadScenario(fifo).error().message; }), why);
    const auto dataset = errorWithin([&] { return io::readDataset(fifo).error().message; });
    QVERIFY2(dataset.find("not a regular file") != std::string::npos, dataset.c_str());
    const auto hashed = errorWithin([&] { return sha256OfFile(fifo).error().message; });
    QVERIFY2(hashed.starts_with("not a regular file"), hashed.c_str());
    // A folder gets its own reason.
    QCOMPARE(io::loadProject(dir.path().toStdString()).error().message,
             std::string("is a folder, not a file"));
}

void TestHostileFiles::replacedFileKeepsItsPermissions()
{
    // Regression: every save did fchmod(0644): a private 0600 project and its .bak became
    // world-readable.
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("private.bsproj")).toStdString();
    writeText(path, "old");
    QCOMPARE(::chmod(path.c_str(), 0600), 0);
    QVERIFY(io::writeFileAtomically(path, "new"));
    QCOMPARE(modeOf(path), 0600u);
    QCOMPARE(modeOf(path + ".bak"), 0600u);
    QCOMPARE(readText(path), std::string("new"));
    QCOMPARE(::chmod(path.c_str(), 0640), 0);
    QVERIFY(io::writeFileAtomically(path, "newer"));
    QCOMPARE(modeOf(path), 0640u);
}

void TestHostileFiles::newFileRespectsTheUmask()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("report.html")).toStdString();
    const mode_t previous = ::umask(077);
    const bool written = bool(io::writeFileAtomically(path, "<html>", {false}));
    ::umask(previous);
    QVERIFY(written);
    QCOMPARE(modeOf(path), 0600u);
    const std::string open = dir.filePath(QStringLiteral("open.html")).toStdString();
    const mode_t before = ::umask(022);
    QVERIFY(io::writeFileAtomically(open, "<html>", {false}));
    ::umask(before);
    QCOMPARE(modeOf(open), 0644u);
}

void TestHostileFiles::saveThroughSymlinkWritesTheTarget()
{
    // Regression: the rename replaced the link with a plain file; the target stayed stale.
    QTemporaryDir dir;
    const fs::path folder = dir.path().toStdString();
    fs::create_directory(folder / "real");
    const fs::path target = folder / "real" / "project.bsproj";
    writeText(target.string(), "old");
    fs::create_symlink("real/project.bsproj", folder / "link.bsproj");
    fs::create_symlink("link.bsproj", folder / "link2.bsproj");
    QVERIFY(io::writeFileAtomically((folder / "link2.bsproj").string(), "new"));
    QVERIFY(fs::is_symlink(folder / "link.bsproj"));
    QVERIFY(fs::is_symlink(folder / "link2.bsproj"));
    QCOMPARE(readText(target.string()), std::string("new"));
    QCOMPARE(readText((target.string() + ".bak")), std::string("old"));
}

void TestHostileFiles::staleTemporariesAreRemovedOnTheNextSave()
{
    // Regression: kill -9 mid-save left ".NAME.saving-*" files that were never cleaned.
    QTemporaryDir dir;
    const fs::path folder = dir.path().toStdString();
    const fs::path stale = folder / ".p.bsproj.saving-abc123";
    const fs::path fresh = folder / ".p.bsproj.saving-def456";
    const fs::path other = folder / ".q.bsproj.saving-abc123";
    for (const auto& p : {stale, fresh, other})
        writeText(p.string(), "partial");
    const auto hourAgo = fs::file_time_type::clock::now() - std::chrono::hours(1);
    fs::last_write_time(stale, hourAgo);
    fs::last_write_time(other, hourAgo);
    QVERIFY(io::writeFileAtomically((folder / "p.bsproj").string(), "saved"));
    QVERIFY(!fs::exists(stale));
    QVERIFY(fs::exists(fresh)); // maybe a save running right now in another window
    QVERIFY(fs::exists(other)); // another file's
    int temporaries = 0;
    for (const auto& entry : fs::directory_iterator(folder))
        temporaries += entry.path().filename().string().starts_with(".p.bsproj.saving-");
    QCOMPARE(temporaries, 1);
}

void TestHostileFiles::folderInPlaceOfTheFileIsNotReplaced()
{
    QTemporaryDir dir;
    const fs::path folder = fs::path(dir.path().toStdString()) / "out.html";
    fs::create_directory(folder);
    auto status = io::writeFileAtomically(folder.string(), "x", {false});
    QVERIFY(!status);
    QVERIFY(fs::is_directory(folder));
}

QTEST_GUILESS_MAIN(TestHostileFiles)
#include "tst_hostile_files.moc"
