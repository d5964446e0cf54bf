// One test per crash or broken rule the fuzzers (tests/fuzz, scripts/fuzz) found, named after it;
// the inputs are in tests/data/fuzz-regressions/<fuzz target>/ (see the README there), and
// scripts/fuzz also uses them as seeds. Also checks that the seed fixtures written for the
// fuzzers (tests/data/project, tests/data/scenario) stay valid as the formats evolve.
#include "io/projectfile.h"
#include "io/utf8text.h"
#include "iotesthelpers.h"
#include "sim/scenariojson.h"

#include <QDir>

using namespace bs;

namespace {

std::string regressionFile(const char* relative)
{
    return test::testDataPath(QStringLiteral("fuzz-regressions/") + QLatin1String(relative))
        .toStdString();
}

const std::string kReplacementCharacter = "\xEF\xBF\xBD"; // U+FFFD in UTF-8

/// The message can go into `--json` output: nlohmann throws on text that is not UTF-8.
bool dumpsAsJson(const std::string& message)
{
    return nlohmann::json(message)
               .dump(-1, ' ', false, nlohmann::json::error_handler_t::strict)
               .size() > 2;
}

} // namespace

class TestIoFuzzRegressions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void llmRunsDatasetSurvivesAProjectRoundTrip();
    void llmBenchmarkNullBackendIsAbsentNotACrash();
    void scenarioJsonSyntaxErrorQuotingInvalidUtf8IsValidUtf8();
    void projectJsonSyntaxErrorQuotingInvalidUtf8IsValidUtf8();
    void nvidiaSmiUtilizationAbove100PercentIsAnError();
    void splClockSteppingBackGivesNoNegativeReadingWindow();
    void requestTraceBefore1970IsAnError();
    void projectNumberOverflowIsAnErrorNotACrash();
    void scenarioNumberOverflowIsAnErrorNotACrash();
    void mlperfDetailNumberOverflowIsAnErrorNotACrash();
    void mlperfDetailDeeplyNestedRecordIsRefused();
    void projectSeedsOpen_data();
    void projectSeedsOpen();
    void scenarioSeedsRead_data();
    void scenarioSeedsRead();
};

// fuzz_scenario_json: parseJson quoted the bytes nlohmann had read ("last read: '"polic\xff'")
// into the message unchanged, so `--json` output of the error threw and the checker aborted.
void TestIoFuzzRegressions::scenarioJsonSyntaxErrorQuotingInvalidUtf8IsValidUtf8()
{
    const auto path =
        regressionFile("fuzz_scenario_json/json-syntax-error-quotes-invalid-utf8.json");
    auto scenario = sim::loadScenario(path);
    QVERIFY(!scenario);
    const Error& error = scenario.error();
    QCOMPARE(error.code, ErrorCode::Format);
    QCOMPARE(error.path, path);
    QCOMPARE(error.line, std::int64_t(1));
    QVERIFY2(error.message.rfind("JSON syntax error: ", 0) == 0, error.message.c_str());
    QVERIFY2(io::isValidUtf8(error.message), error.message.c_str());
    QVERIFY2(error.message.find("\"polic" + kReplacementCharacter) != std::string::npos,
             error.message.c_str());
    QVERIFY(dumpsAsJson(error.message));
}

// fuzz_project_file: the same through loadProject (a project's JSON is parsed by parseJson).
void TestIoFuzzRegressions::projectJsonSyntaxErrorQuotingInvalidUtf8IsValidUtf8()
{
    const auto path =
        regressionFile("fuzz_project_file/json-syntax-error-quotes-invalid-utf8.bsproj");
    auto project = io::loadProject(path);
    QVERIFY(!project);
    const Error& error = project.error();
    QCOMPARE(error.code, ErrorCode::Format);
    QCOMPARE(error.line, std::int64_t(1));
    QCOMPARE(error.column, std::int64_t(14));
    QVERIFY2(error.message.rfind("JSON syntax error: ", 0) == 0, error.message.c_str());
    QVERIFY2(io::isValidUtf8(error.message), error.message.c_str());
    QVERIFY2(error.message.find(kReplacementCharacter) != std::string::npos, error.message.c_str());
    QVERIFY(dumpsAsJson(error.message));
}

// fuzz_llm_benchmark: "backend": null made nlohmann's value() throw type_error, which nobody
// caught: importing the file ended the program. Null now means absent (as for the numbers);
// any other non-text is an error naming the key.
void TestIoFuzzRegressions::llmBenchmarkNullBackendIsAbsentNotACrash()
{
    const QString relative =
        QStringLiteral("fuzz-regressions/fuzz_llm_benchmark/backend-null-uncaught-exception.jsonl");
    auto read = test::readFixtureAs(relative, "llm_benchmark");
    QVERIFY2(read, qPrintable(test::describe(read)));
    const auto runs = read->llmRuns();
    QVERIFY(runs);
    QCOMPARE(runs->runs.size(), std::size_t(1));
    QVERIFY(runs->runs.front().backend.empty());

    QTemporaryDir dir;
    const QString numberBackend = dir.filePath(QStringLiteral("backend-number.jsonl"));
    QFile file(numberBackend);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        test::readFile(test::testDataPath(relative)).replace("\"backend\":null", "\"backend\":5"));
    file.close();
    io::ReadOptions options;
    options.format = "llm_benchmark";
    auto refused = io::readDataset(numberBackend.toStdString(), options);
    QVERIFY(!refused);
    QCOMPARE(refused.error().code, ErrorCode::Value);
    QVERIFY2(refused.error().message.find("\"backend\" holds 5") != std::string::npos,
             refused.error().message.c_str());
}

// fuzz_nvidia_smi: "utilization.gpu" of 135 % was read, and the project saved with it could not
// be opened again (project files allow 0..100 %): a file that reads must also round-trip.
void TestIoFuzzRegressions::nvidiaSmiUtilizationAbove100PercentIsAnError()
{
    auto read = test::readFixtureAs(
        QStringLiteral("fuzz-regressions/fuzz_nvidia_smi/utilization-above-100-percent.csv"),
        "nvidia_smi");
    QVERIFY(!read);
    QCOMPARE(read.error().code, ErrorCode::Value);
    QCOMPARE(test::whereAndWhy(read.error()),
             QStringLiteral("3:38: column \"utilization.gpu [%]\" holds 135; a utilisation "
                            "above 100% is not valid"));
}

// fuzz_spl: a reading earlier than the line above (a clock stepped back, or two logs pasted
// together) made the median reading interval negative. Now it is the median of the sorted
// times, and the step back is a warning naming the line.
void TestIoFuzzRegressions::splClockSteppingBackGivesNoNegativeReadingWindow()
{
    auto read = test::readFixtureAs(
        QStringLiteral("fuzz-regressions/fuzz_spl/clock-steps-back-negative-reading-window.txt"),
        "mlperf_spl");
    BS_VERIFY_READ(read);
    const auto series = read->powerSeries();
    QVERIFY(series);
    QCOMPARE(series->size(), std::size_t(4));
    // Sorted times 1, 10, 11, 12 s: gaps 9, 1, 1; the median is 1 s.
    QCOMPARE(series->readingWindowS, 1.0);
    QCOMPARE(test::warningLines(*read),
             QStringList{QStringLiteral("3: this reading's time is before the one on the line "
                                        "above (did the clock step back?); kept in file order")});
}

// Found while fuzzing the JSON paths: nlohmann reports a number no double holds (1e999) with an
// out_of_range exception, not a parse_error, and nobody caught it: opening such a project,
// scenario or LoadGen log ended the program.
// fuzz_request_trace (round-trip check, on a probe of the calendar-time path): a trace whose
// first arrival is before 1970 read with a negative origin, and the project saved with it could
// not be opened again (projects keep origin_epoch_s >= 0).
void TestIoFuzzRegressions::requestTraceBefore1970IsAnError()
{
    auto read = test::readFixtureAs(
        QStringLiteral("fuzz-regressions/fuzz_request_trace/date-before-1970-project-cannot-"
                       "reopen.csv"),
        "azure_llm_trace");
    QVERIFY(!read);
    QCOMPARE(read.error().code, ErrorCode::Value);
    QCOMPARE(test::whereAndWhy(read.error()),
             QStringLiteral("2:1: column \"TIMESTAMP\" holds \"1950-11-16 18:17:03.9799600\", "
                            "before 1970-01-01: not a plausible request time"));
}

// fuzz_llm_benchmark (round-trip check, first run on the seeds): a project holding an
// llm_runs dataset was saved but refused on opening ("unknown value 'llm_runs'" for its kind).
void TestIoFuzzRegressions::llmRunsDatasetSurvivesAProjectRoundTrip()
{
    auto read = test::readFixture(QStringLiteral("llm/vllm_append.jsonl"));
    BS_VERIFY_READ(read);
    data::Project project;
    data::Dataset dataset = *read;
    dataset.id = "ds1";
    project.datasets.push_back(dataset);
    auto back = io::loadProjectFromBytes(io::projectToJson(project).dump(1), "round-trip.bsproj");
    QVERIFY2(back, back ? "" : back.error().toString().c_str());
    QCOMPARE(back->datasets.at(0).kind, data::DatasetKind::LlmRuns);
}

void TestIoFuzzRegressions::projectNumberOverflowIsAnErrorNotACrash()
{
    const auto path = regressionFile("fuzz_project_file/number-overflow-uncaught-exception.bsproj");
    auto project = io::loadProject(path);
    QVERIFY(!project);
    QCOMPARE(project.error().code, ErrorCode::Value);
    QCOMPARE(test::whereAndWhy(project.error()),
             QStringLiteral("1:61: the number 1e999 is too large to hold (beyond about 1.8e308)"));
}

void TestIoFuzzRegressions::scenarioNumberOverflowIsAnErrorNotACrash()
{
    const auto path = regressionFile("fuzz_scenario_json/number-overflow-uncaught-exception.json");
    auto scenario = sim::loadScenario(path);
    QVERIFY(!scenario);
    QCOMPARE(scenario.error().code, ErrorCode::Value);
    QCOMPARE(test::whereAndWhy(scenario.error()),
             QStringLiteral("3:49: the number 1e999 is too large to hold (beyond about 1.8e308)"));
}

void TestIoFuzzRegressions::mlperfDetailNumberOverflowIsAnErrorNotACrash()
{
    auto read = test::readFixtureAs(
        QStringLiteral(
            "fuzz-regressions/fuzz_mlperf_detail/number-overflow-uncaught-exception.txt"),
        "mlperf_detail");
    QVERIFY(!read);
    QCOMPARE(read.error().code, ErrorCode::Value);
    QCOMPARE(test::whereAndWhy(read.error()),
             QStringLiteral("2:0: a :::MLLOG record holds a number too large to read (number "
                            "overflow parsing '1e999')"));
}

// Found in review of fuzz_mlperf_detail: a :::MLLOG record was parsed without a depth limit,
// and a bad value is quoted in the message with dump(), which recurses once per level: a
// 2 MB line of '[' would exhaust the stack. Records are now refused past 16 levels. Generated
// here rather than stored (the reproducer is megabytes of brackets).
void TestIoFuzzRegressions::mlperfDetailDeeplyNestedRecordIsRefused()
{
    const std::size_t depth = std::size_t(1) << 20;
    std::string bytes = ":::MLLOG {\"key\": \"effective_target_qps\", \"value\": ";
    bytes += std::string(depth, '[') + std::string(depth, ']') + "}\n";
    io::ReadOptions options;
    options.format = "mlperf_detail";
    auto read = io::readDatasetFromBytes(std::move(bytes), "nested.txt", options);
    QVERIFY(!read);
    QCOMPARE(read.error().code, ErrorCode::Limit);
    QCOMPARE(test::whereAndWhy(read.error()),
             QStringLiteral("1:10: a :::MLLOG record nested deeper than 16 levels; refusing to "
                            "read it"));
}

void TestIoFuzzRegressions::projectSeedsOpen_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("plain") << QStringLiteral("project/small.bsproj");
    QTest::newRow("gzip") << QStringLiteral("project/small.bsproj.gz");
}

// The fuzz seed project must keep opening, or fuzz_project_file starts from an error path only.
void TestIoFuzzRegressions::projectSeedsOpen()
{
    QFETCH(QString, file);
    auto project = io::loadProject(test::testDataPath(file).toStdString());
    QVERIFY2(project, project ? "" : project.error().toString().c_str());
    QCOMPARE(project->datasets.size(), std::size_t(5));
    QVERIFY(project->datasets[0].sweep());
    QCOMPARE(project->datasets[0].sweep()->points.size(), std::size_t(4));
    QVERIFY(project->datasets[2].requestTrace());
    QCOMPARE(project->datasets[2].requestTrace()->streamNames.size(), std::size_t(2));
    QVERIFY(project->datasets[3].powerSeries());
    QCOMPARE(project->datasets[4].kind, data::DatasetKind::KernelTrace);
    QVERIFY(!project->datasets[4].isLoaded());
    QCOMPARE(project->scenarios.size(), std::size_t(1));
}

void TestIoFuzzRegressions::scenarioSeedsRead_data()
{
    QTest::addColumn<QString>("file");
    const QDir dir(test::testDataPath(QStringLiteral("scenario")));
    const auto files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 4);
    for (const auto& name : files)
        QTest::newRow(qPrintable(name)) << dir.filePath(name);
}

// Every seed scenario reads, and writes back to the same scenario.
void TestIoFuzzRegressions::scenarioSeedsRead()
{
    QFETCH(QString, file);
    auto scenario = sim::loadScenario(file.toStdString());
    QVERIFY2(scenario, scenario ? "" : scenario.error().toString().c_str());
    auto again = sim::scenarioFromJson(sim::scenarioToJson(*scenario));
    QVERIFY(again);
    QVERIFY(*again == *scenario);
}

QTEST_APPLESS_MAIN(TestIoFuzzRegressions)
#include "tst_io_fuzzregressions.moc"
