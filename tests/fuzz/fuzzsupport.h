#pragma once
// Shared by the libFuzzer targets (header-only: each target is its own executable). A target
// feeds the fuzz input to one reader through memory and then checks what came back: an Error
// must name the input and say why; a dataset must hold only the numbers the architecture allows
// (finite, non-negative where it says so, columns of equal length) and must survive a project
// save/load round trip. A broken rule aborts, so libFuzzer keeps the input as a crasher.

#include "data/project.h"
#include "io/bytesource.h"
#include "io/jsonfields.h"
#include "io/projectfile.h"
#include "io/readdataset.h"
#include "io/utf8text.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace bs::fuzz {

/// The name the input goes by in errors and provenance.
inline const std::string kInputName = "fuzz-input";

[[noreturn]] inline void fail(const std::string& what)
{
    std::fprintf(stderr, "fuzz check failed: %s\n", what.c_str());
    std::fflush(stderr);
    std::abort();
}

inline void require(bool condition, const char* what, const std::string& detail = {})
{
    if (!condition)
        fail(detail.empty() ? std::string(what) : std::string(what) + ": " + detail);
}

/// An error from a reader: a user-facing reason naming the input, never an internal one.
inline void checkError(const Error& error, const std::string& name = kInputName)
{
    require(error.code != ErrorCode::Internal, "internal error", error.toString());
    require(!error.message.empty(), "error without a message", error.toString());
    require(error.path == name, "error does not name the input", error.toString());
    require(error.line >= 0 && error.column >= 0, "negative line or column", error.toString());
    require(io::isValidUtf8(error.message), "error message is not UTF-8", error.toString());
}

inline void checkValue(double value, bool nonNegative, const char* what)
{
    require(std::isfinite(value), what, "not finite");
    if (nonNegative)
        require(value >= 0.0, what, "negative: " + std::to_string(value));
}

inline void checkValue(const std::optional<double>& value, bool nonNegative, const char* what)
{
    if (value)
        checkValue(*value, nonNegative, what);
}

template <typename Column>
void checkLength(const Column& column, std::size_t rows, const char* what)
{
    require(column.empty() || column.size() == rows, what, "column length differs from the rows");
}

inline void checkSweep(const data::SweepTable& table)
{
    require(!table.points.empty(), "sweep without points");
    for (const auto& p : table.points) {
        require(p.batchSize >= 1, "batch size below 1", std::to_string(p.batchSize));
        checkValue(p.concurrency, true, "concurrency");
        checkValue(p.requestRatePerS, true, "request rate");
        checkValue(p.throughputPerS, true, "throughput");
        for (const auto* latency : {&p.latencyMeanS, &p.latencyP50S, &p.latencyP90S, &p.latencyP95S,
                                    &p.latencyP99S, &p.latencyP999S})
            checkValue(*latency, true, "latency");
        for (const auto* part : {&p.serverQueueS, &p.computeInputS, &p.computeInferS,
                                 &p.computeOutputS, &p.clientOverheadS})
            checkValue(*part, true, "latency breakdown");
        checkValue(p.powerW, true, "power");
        checkValue(p.energyPerInferenceJ, true, "energy per inference");
        checkValue(p.memoryBytes, true, "memory");
        checkValue(p.utilization, true, "utilization");
        if (p.utilization)
            require(*p.utilization <= 1.0, "utilization above 1");
    }
}

inline void checkPower(const data::PowerSeries& series)
{
    const std::size_t rows = series.timeS.size();
    require(rows > 0, "power series without samples");
    require(series.powerW.size() == rows, "power and time columns differ in length");
    for (std::size_t i = 0; i < rows; ++i) {
        checkValue(series.timeS[i], false, "power sample time");
        checkValue(series.powerW[i], true, "power");
    }
    for (const auto* column : {&series.smClockMHz, &series.memClockMHz, &series.utilizationPct}) {
        checkLength(*column, rows, "power series column");
        for (double v : *column)
            checkValue(v, true, "clock or utilization");
    }
    checkLength(series.temperatureC, rows, "temperature");
    for (double v : series.temperatureC)
        checkValue(v, false, "temperature");
    checkLength(series.channel, rows, "channel");
    for (int c : series.channel)
        require(c >= 0 && std::size_t(c) < series.channelNames.size(), "channel out of range");
    checkValue(series.readingWindowS, true, "reading window");
}

inline void checkRequests(const data::RequestTrace& trace)
{
    const std::size_t rows = trace.arrivalS.size();
    require(rows > 0, "request trace without requests");
    checkValue(trace.originEpochS, false, "origin");
    for (double t : trace.arrivalS)
        checkValue(t, false, "arrival");
    checkLength(trace.intendedS, rows, "intended");
    checkLength(trace.dispatchS, rows, "dispatch");
    checkLength(trace.completionS, rows, "completion");
    checkLength(trace.batchId, rows, "batch id");
    checkLength(trace.batchSize, rows, "batch size");
    checkLength(trace.streamIndex, rows, "stream");
    checkLength(trace.inputTokens, rows, "input tokens");
    checkLength(trace.outputTokens, rows, "output tokens");
    for (std::size_t i = 0; i < trace.dispatchS.size(); ++i) {
        checkValue(trace.dispatchS[i], false, "dispatch");
        require(trace.dispatchS[i] >= trace.arrivalS[i], "dispatch before arrival");
    }
    for (std::size_t i = 0; i < trace.completionS.size(); ++i) {
        checkValue(trace.completionS[i], false, "completion");
        require(trace.completionS[i] >= trace.arrivalS[i], "completion before arrival");
    }
    for (double t : trace.intendedS)
        checkValue(t, false, "intended");
    for (auto b : trace.batchSize)
        require(b >= 1, "batch size below 1");
    for (auto id : trace.batchId)
        require(id >= 0, "negative batch id");
    for (auto n : trace.inputTokens)
        require(n >= 0, "negative input tokens");
    for (auto n : trace.outputTokens)
        require(n >= 0, "negative output tokens");
    for (auto s : trace.streamIndex)
        require(s < trace.streamNames.size(), "stream index out of range");
}

inline void checkKernels(const data::KernelTrace& trace)
{
    checkValue(trace.originUs, false, "trace origin");
    for (const auto& e : trace.events) {
        checkValue(e.startS, false, "event start");
        checkValue(e.durationS, true, "event duration");
        require(e.nameId < trace.names.size(), "event name id out of range");
    }
}

/// LLM runs: every time, rate, count and power finite and non-negative, as the readers promise.
inline void checkLlmRuns(const data::LlmRunSet& set)
{
    for (const auto& run : set.runs) {
        for (const auto* v :
             {&run.requestRatePerS, &run.maxConcurrency, &run.durationS, &run.requestsPerS,
              &run.outputTokensPerS, &run.totalTokensPerS, &run.goodputPerS, &run.promptTokensPerS})
            checkValue(*v, true, "LLM run figure");
        for (const auto& r : run.requests) {
            for (const auto* v : {&r.arrivalS, &r.ttftS, &r.tpotS, &r.e2eS, &r.queueS})
                checkValue(*v, true, "LLM request time");
            for (double gap : r.itlS)
                checkValue(gap, true, "LLM inter-token gap");
            require(io::isValidUtf8(r.error), "LLM request error is not UTF-8", r.error);
        }
        for (const auto& s : run.engineSeries) {
            for (double v : {s.timeS, s.promptTokensPerS, s.outputTokensPerS, s.kvCacheUsePct})
                checkValue(v, true, "engine sample");
            require(s.running >= 0 && s.waiting >= 0, "negative engine request count");
        }
        for (const auto& g : run.gpus) {
            for (const auto* v : {&g.meanPowerW, &g.maxPowerW, &g.energyCounterRiseJ,
                                  &g.meanUtilizationPct, &g.meanSmClockMhz})
                checkValue(*v, true, "GPU telemetry figure");
        }
    }
}

/// A dataset survives saving into a project and reading it back, with its numbers intact.
inline void checkProjectRoundTrip(const data::Dataset& dataset)
{
    data::Project project;
    data::Dataset copy = dataset;
    copy.id = "ds1";
    project.datasets.push_back(copy);
    // dump() throws on text that is not UTF-8: readers must have cleaned every string.
    const std::string text = io::projectToJson(project).dump(1);
    auto back = io::loadProjectFromBytes(text, "round-trip.bsproj");
    require(back.hasValue(), "project round trip failed",
            back ? std::string() : back.error().toString());
    require(back->datasets.size() == 1, "project round trip lost the dataset");
    const auto& again = back->datasets.front();
    if (const auto sweep = dataset.sweep(); sweep && again.sweep())
        require(*again.sweep() == *sweep, "sweep changed in a project round trip");
}

/// What a reader gave back: an Error is checked for a reason naming the input; a dataset for
/// the value rules and the round trip.
inline void checkRead(const Expected<data::Dataset>& result, const std::string& name = kInputName)
{
    if (!result) {
        checkError(result.error(), name);
        return;
    }
    const data::Dataset& dataset = *result;
    require(dataset.isLoaded(), "a read dataset without content");
    require(io::isValidUtf8(dataset.name), "dataset name is not UTF-8");
    for (const auto& warning : dataset.provenance.warnings)
        require(io::isValidUtf8(warning.message), "warning is not UTF-8", warning.message);
    if (const auto sweep = dataset.sweep())
        checkSweep(*sweep);
    else if (const auto series = dataset.powerSeries())
        checkPower(*series);
    else if (const auto trace = dataset.requestTrace())
        checkRequests(*trace);
    else if (const auto kernels = dataset.kernelTrace())
        checkKernels(*kernels);
    else if (const auto runs = dataset.llmRuns())
        checkLlmRuns(*runs);
    checkProjectRoundTrip(dataset);
}

/// Reads the input with the reader called `format` ("" detects it) and checks the result.
inline void readAndCheck(const std::uint8_t* data, std::size_t size, const std::string& format,
                         nlohmann::json readerOptions = nlohmann::json::object())
{
    io::ReadOptions options;
    options.format = format;
    options.readerOptions = std::move(readerOptions);
    // Small limits keep each run fast and exercise the limit paths; a reader must still stop
    // with an Error, never run past them.
    options.limits.maxUncompressedBytes = std::uint64_t(8) << 20;
    options.limits.ratioCheckAfterBytes = std::uint64_t(1) << 20;
    std::string bytes(reinterpret_cast<const char*>(data), size);
    checkRead(io::readDatasetFromBytes(std::move(bytes), kInputName, options));
}

/// The input as JSON, read the way a scenario file is (plain or gzip, then parseJson with its
/// depth and token limits); a read or syntax error is checked and gives nothing.
inline std::optional<nlohmann::json> jsonInput(const std::uint8_t* data, std::size_t size)
{
    auto source =
        io::memoryByteSource(std::string(reinterpret_cast<const char*>(data), size), kInputName);
    auto text = io::readAll(*source, std::uint64_t(16) << 20);
    if (!text) {
        checkError(text.error());
        return std::nullopt;
    }
    auto json = io::parseJson(*text, kInputName);
    if (!json) {
        checkError(json.error());
        return std::nullopt;
    }
    return std::move(*json);
}

} // namespace bs::fuzz
