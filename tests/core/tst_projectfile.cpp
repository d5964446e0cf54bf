#include "io/atomicfile.h"
#include "io/bytesource.h"
#include "io/projectfile.h"
#include "testsupport.h"

#include <QtTest>

#include <csignal>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace bs;

namespace {

data::Project sampleProject(int points = 4)
{
    data::Project project;
    project.title = "ResNet-50 batch policy review";
    auto table = std::make_shared<data::SweepTable>();
    table->name = "A100 sweep";
    table->loadAxis = data::LoadAxis::Concurrency;
    table->tags.workloadSeed = "42";
    table->tags.hardware = "A100-SXM4-80GB";
    table->tags.extra["driver"] = "535.104";
    for (int i = 0; i < points; ++i) {
        data::SweepPoint p;
        p.batchSize = 1 << (i % 11);
        p.concurrency = 8.0;
        p.throughputPerS = 1000.0 + i;
        p.latencyP99S = 0.0125 + i * 1e-6;
        if (i % 2 == 0)
            p.powerW = 250.5;
        p.sampleCount = 5000;
        table->points.push_back(p);
    }
    data::Dataset dataset;
    dataset.id = "ds1";
    dataset.name = "baseline sweep";
    dataset.role = data::DatasetRole::Baseline;
    dataset.provenance.path = "/data/sweep.csv";
    dataset.provenance.sizeBytes = 1234;
    dataset.provenance.sha256 = std::string(64, 'a');
    dataset.provenance.reader = "perf_analyzer";
    dataset.provenance.warnings.push_back({7, "row repeated; kept the first"});
    dataset.setContent(std::shared_ptr<const data::SweepTable>(table));
    project.datasets.push_back(dataset);

    data::Dataset trace;
    trace.id = "ds2";
    trace.name = "kineto trace";
    trace.kind = data::DatasetKind::KernelTrace;
    trace.provenance.path = "/data/trace.json.gz";
    trace.provenance.reader = "kineto";
    project.datasets.push_back(trace);

    project.scenarios = nlohmann::json::array({{{"name", "peak hour"}, {"seed", 7}}});
    project.memo = {{"symptom", {{"failing_metric", "p99 latency <script>"}}}};
    return project;
}

QString writeTemp(QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(bytes);
    return path;
}

} // namespace

class TestProjectFile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTripKeepsEverything();
    void gzipProjectsOpenTransparently();
    void newerSchemaIsRejected();
    void badFilesGiveClearErrors_data();
    void badFilesGiveClearErrors();
    void saveKeepsABackupOfThePreviousVersion();
    void failedSaveLeavesTheOldFileIntact();
    void killedSaveLeavesAWholeFile();
    void referencedFilesAreFoundNextToAMovedProject();
};

void TestProjectFile::roundTripKeepsEverything()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("p.bsproj")).toStdString();
    const data::Project original = sampleProject();
    QVERIFY(io::saveProject(original, path));
    auto loaded = io::loadProject(path);
    QVERIFY2(loaded, loaded ? "" : loaded.error().toString().c_str());
    QCOMPARE(loaded->title, original.title);
    QCOMPARE(loaded->datasets.size(), std::size_t(2));
    QVERIFY(*loaded->datasets[0].sweep() == *original.datasets[0].sweep());
    QVERIFY(loaded->datasets[0].provenance == original.datasets[0].provenance);
    QCOMPARE(loaded->datasets[0].role, data::DatasetRole::Baseline);
    QVERIFY(!loaded->datasets[1].isLoaded());
    QCOMPARE(loaded->datasets[1].kind, data::DatasetKind::KernelTrace);
    QVERIFY(loaded->scenarios == original.scenarios);
    QVERIFY(loaded->memo == original.memo);
    // Saving what was loaded gives the same document.
    QVERIFY(io::projectToJson(*loaded, path) == io::projectToJson(original, path));
}

void TestProjectFile::gzipProjectsOpenTransparently()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("p.bsproj")).toStdString();
    io::ProjectSaveOptions options;
    options.compression = io::ProjectSaveOptions::Compression::Always;
    QVERIFY(io::saveProject(sampleProject(), path, options));
    auto source = io::openByteSource(path);
    QVERIFY(source && (*source)->isCompressed());
    auto loaded = io::loadProject(path);
    QVERIFY(loaded);
    QCOMPARE(loaded->datasets[0].sweep()->points.size(), std::size_t(4));
}

void TestProjectFile::newerSchemaIsRejected()
{
    QTemporaryDir dir;
    const QString path = writeTemp(dir, QStringLiteral("future.bsproj"),
                                   R"({"schema": 2, "title": "from the future"})");
    auto loaded = io::loadProject(path.toStdString());
    QVERIFY(!loaded);
    QCOMPARE(loaded.error().code, ErrorCode::Unsupported);
    const QString message = QString::fromStdString(loaded.error().toString());
    QVERIFY2(message.startsWith(
                 path + QStringLiteral(": written by a newer BatchScope (project schema 2;")),
             qPrintable(message));
}

void TestProjectFile::badFilesGiveClearErrors_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected");
    QTest::newRow("empty") << QByteArray() << "bad.bsproj: the project file is empty";
    QTest::newRow("syntax") << QByteArray("{\n  \"schema\": 1,\n  \"title\": oops\n}")
                            << "bad.bsproj:3:12: JSON syntax error:";
    QTest::newRow("not an object")
        << QByteArray("[1, 2]")
        << "bad.bsproj: not a BatchScope project: the top level is not a JSON object";
    QTest::newRow("no schema") << QByteArray("{\"title\": \"x\"}")
                               << "bad.bsproj: not a BatchScope project: no integer \"schema\" key";
    QTest::newRow("unknown key") << QByteArray("{\"schema\": 1, \"titel\": \"x\"}")
                                 << "bad.bsproj: project.titel: unknown key";
    QTest::newRow("negative latency")
        << QByteArray(R"({"schema":1,"datasets":[{"id":"a","kind":"sweep","storage":"embedded",
             "source":{},"data":{"points":[{"batch_size":4,"latency_p99_s":-1}]}}]})")
        << "bad.bsproj: project.datasets[0].data.points[0].latency_p99_s: must be at least 0 (got "
           "-1)";
    QTest::newRow("duplicate id") << QByteArray(R"({"schema":1,"datasets":[
             {"id":"a","kind":"sweep","storage":"embedded","source":{},"data":{"points":[]}},
             {"id":"a","kind":"sweep","storage":"embedded","source":{},"data":{"points":[]}}]})")
                                  << "bad.bsproj: project.datasets[1].id: 'a' is used twice";
    QTest::newRow("deep nesting") << QByteArray(200, '[')
                                  << "bad.bsproj: JSON nested deeper than 64 levels";
    QTest::newRow("binary") << QByteArray("\x1f\x8b\x08\x00garbage", 11)
                            << "bad.bsproj: truncated gzip data";
}

void TestProjectFile::badFilesGiveClearErrors()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    auto loaded = io::loadProjectFromBytes(content.toStdString(), "bad.bsproj");
    QVERIFY(!loaded);
    const QString message = QString::fromStdString(loaded.error().toString());
    QVERIFY2(message.startsWith(expected), qPrintable(message));
}

void TestProjectFile::saveKeepsABackupOfThePreviousVersion()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("p.bsproj")).toStdString();
    data::Project first = sampleProject();
    first.title = "first";
    QVERIFY(io::saveProject(first, path));
    data::Project second = sampleProject();
    second.title = "second";
    QVERIFY(io::saveProject(second, path));
    QCOMPARE(io::loadProject(path)->title, std::string("second"));
    QCOMPARE(io::loadProject(path + ".bak")->title, std::string("first"));
    // No temporary files are left behind.
    const QStringList leftovers = QDir(dir.path()).entryList(QDir::Files | QDir::Hidden);
    QCOMPARE(leftovers, QStringList({QStringLiteral("p.bsproj"), QStringLiteral("p.bsproj.bak")}));
}

void TestProjectFile::failedSaveLeavesTheOldFileIntact()
{
    // A full disk, staged with a file-size limit (works as root too): write() fails with EFBIG.
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("p.bsproj")).toStdString();
    QVERIFY(io::saveProject(sampleProject(), path));
    data::Project changed = sampleProject(20000);
    changed.title = "never written";

    struct rlimit previous
    {};
    ::getrlimit(RLIMIT_FSIZE, &previous);
    const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = previous;
    small.rlim_cur = 64 * 1024;
    QCOMPARE(::setrlimit(RLIMIT_FSIZE, &small), 0);
    io::ProjectSaveOptions plain;
    plain.compression = io::ProjectSaveOptions::Compression::Never;
    auto saved = io::saveProject(changed, path, plain);
    ::setrlimit(RLIMIT_FSIZE, &previous);
    std::signal(SIGXFSZ, previousHandler);

    QVERIFY(!saved);
    QCOMPARE(saved.error().code, ErrorCode::Io);
    QVERIFY2(QString::fromStdString(saved.error().toString())
                 .contains(QStringLiteral("cannot write: File too large")),
             saved.error().toString().c_str());
    QCOMPARE(io::loadProject(path)->title, sampleProject().title);
    const QStringList leftovers = QDir(dir.path()).entryList(QDir::Files | QDir::Hidden);
    QCOMPARE(leftovers, QStringList({QStringLiteral("p.bsproj")}));
}

void TestProjectFile::killedSaveLeavesAWholeFile()
{
    // A child process saves a large project over and over; we kill it at varying moments and
    // check that the file on disk is always one complete version, never a torn mix.
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("big.bsproj")).toStdString();
    data::Project original = sampleProject(20000);
    original.title = "original";
    io::ProjectSaveOptions plain;
    plain.compression = io::ProjectSaveOptions::Compression::Never;
    QVERIFY(io::saveProject(original, path, plain));

    for (int attempt = 0; attempt < 12; ++attempt) {
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            data::Project project = sampleProject(20000);
            for (int n = 0;; ++n) {
                project.title = "version " + std::to_string(n);
                (void)io::saveProject(project, path, plain);
            }
        }
        ::usleep(useconds_t(3000 + attempt * 7919 % 40000));
        ::kill(child, SIGKILL);
        int status = 0;
        ::waitpid(child, &status, 0);
        QVERIFY(WIFSIGNALED(status));
        auto loaded = io::loadProject(path);
        QVERIFY2(loaded, loaded ? "" : loaded.error().toString().c_str());
        QCOMPARE(loaded->datasets[0].sweep()->points.size(), std::size_t(20000));
        const QString title = QString::fromStdString(loaded->title);
        QVERIFY(title == QStringLiteral("original") ||
                title.startsWith(QStringLiteral("version ")));
    }
}

void TestProjectFile::referencedFilesAreFoundNextToAMovedProject()
{
    QTemporaryDir oldHome;
    QTemporaryDir newHome;
    const QString tracePath = writeTemp(oldHome, QStringLiteral("trace.json"), "{}");
    data::Project project = sampleProject();
    project.datasets[1].provenance.path = tracePath.toStdString();
    const std::string projectPath = oldHome.filePath(QStringLiteral("p.bsproj")).toStdString();
    QVERIFY(io::saveProject(project, projectPath));

    // Move project and trace together to a new folder; the old absolute path no longer exists.
    QFile::copy(QString::fromStdString(projectPath), newHome.filePath(QStringLiteral("p.bsproj")));
    QFile::copy(tracePath, newHome.filePath(QStringLiteral("trace.json")));
    QFile::remove(tracePath);
    auto loaded = io::loadProject(newHome.filePath(QStringLiteral("p.bsproj")).toStdString());
    QVERIFY(loaded);
    QCOMPARE(QString::fromStdString(loaded->datasets[1].provenance.path),
             QDir(newHome.path()).canonicalPath() + QStringLiteral("/trace.json"));
}

QTEST_APPLESS_MAIN(TestProjectFile)
#include "tst_projectfile.moc"
