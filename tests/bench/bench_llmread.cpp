// Reading a big per-request LLM benchmark file: a generated AIPerf `profile_export.jsonl`
// (one record per request with its inter-chunk latencies, as AIPerf writes them) of about
// --mb megabytes (default 1024), read end to end through io::readDataset (detection, parse,
// SHA-256 provenance). Prints MB/s, the ratio to `cat FILE > /dev/null` (reading the bytes is
// the floor), and peak memory per request beyond the resident set before the read (VmHWM
// delta), next to what one request's numbers take (its ITL list as doubles). Checks that every
// generated request was read.
//   bench_llmread [--mb N] [--runs N] [--output-tokens N]
#include "benchmemory.h"
#include "benchtiming.h"
#include "io/readdataset.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <sys/resource.h>
#include <vector>

using namespace bs;
namespace fs = std::filesystem;

namespace {

struct Options
{
    double megabytes = 1024.0;
    int runs = 1;
    int outputTokens = 200; ///< Mean output tokens per request (chunks per record).
};

Options parse(int argc, char** argv)
{
    Options options;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i];
        if (key == "--mb")
            options.megabytes = std::atof(argv[i + 1]);
        else if (key == "--runs")
            options.runs = std::max(1, std::atoi(argv[i + 1]));
        else if (key == "--output-tokens")
            options.outputTokens = std::max(2, std::atoi(argv[i + 1]));
    }
    return options;
}

/// Writes AIPerf records until `targetBytes`; returns the number of requests written.
std::uint64_t writeRecords(const std::string& path, std::uint64_t targetBytes, int meanTokens)
{
    std::FILE* out = std::fopen(path.c_str(), "wb");
    if (!out)
        return 0;
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<int> tokens(meanTokens / 2, meanTokens * 3 / 2);
    std::exponential_distribution<double> gapMs(1.0 / 25.0);
    std::uint64_t written = 0, requests = 0, startNs = 1759813206500000000ull;
    std::string line;
    char buffer[64];
    while (written < targetBytes) {
        const int output = tokens(rng);
        const double ttftMs = 40.0 + gapMs(rng) * 4.0;
        std::string chunks;
        double totalMs = ttftMs;
        for (int i = 1; i < output; ++i) {
            const double gap = 5.0 + gapMs(rng);
            totalMs += gap;
            std::snprintf(buffer, sizeof buffer, i == 1 ? "%.3f" : ",%.3f", gap);
            chunks += buffer;
        }
        const auto endNs = startNs + std::uint64_t(totalMs * 1e6);
        line =
            "{\"metadata\":{\"session_num\":" + std::to_string(requests) +
            ",\"x_request_id\":\"req-" + std::to_string(requests) +
            "\",\"conversation_id\":\"conv-" + std::to_string(requests) +
            "\",\"turn_index\":0,\"request_start_ns\":" + std::to_string(startNs) +
            ",\"request_ack_ns\":null,\"request_end_ns\":" + std::to_string(endNs) +
            ",\"worker_id\":\"worker_1\",\"record_processor_id\":\"record_processor_1\","
            "\"benchmark_phase\":\"profiling\",\"was_cancelled\":false,"
            "\"cancellation_time_ns\":null},\"metrics\":{\"input_sequence_length\":{\"value\":" +
            std::to_string(512 + requests % 1024) +
            ",\"unit\":\"tokens\"},\"time_to_first_token\":{\"value\":" + std::to_string(ttftMs) +
            ",\"unit\":\"ms\"},\"request_latency\":{\"value\":" + std::to_string(totalMs) +
            ",\"unit\":\"ms\"},\"output_token_count\":{\"value\":" + std::to_string(output) +
            ",\"unit\":\"tokens\"},\"inter_chunk_latency\":{\"value\":[" + chunks +
            "],\"unit\":\"ms\"},\"output_sequence_length\":{\"value\":" + std::to_string(output) +
            ",\"unit\":\"tokens\"},\"inter_token_latency\":{\"value\":" +
            std::to_string((totalMs - ttftMs) / (output - 1)) +
            ",\"unit\":\"ms\"}},\"error\":null}\n";
        std::fwrite(line.data(), 1, line.size(), out);
        written += line.size();
        startNs += 2'000'000 + rng() % 3'000'000;
        ++requests;
    }
    std::fclose(out);
    return requests;
}

double childrenCpuS()
{
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
}

} // namespace

int main(int argc, char** argv)
{
    const Options options = parse(argc, argv);
    const fs::path folder = fs::temp_directory_path() / "batchscope-bench-llmread";
    fs::create_directories(folder);
    const std::string path = (folder / "profile_export.jsonl").string();
    const auto targetBytes = std::uint64_t(options.megabytes * 1e6);
    const std::uint64_t requests = writeRecords(path, targetBytes, options.outputTokens);
    const double megabytes = double(fs::file_size(path)) / 1e6;
    std::printf("AIPerf per-request records: %.0f MB, %llu requests, ~%d output tokens each\n",
                megabytes, static_cast<unsigned long long>(requests), options.outputTokens);

    std::vector<bench::Timing> reads, cats;
    double peakPerRequest = 0.0;
    std::uint64_t read = 0;
    for (int run = 0; run < options.runs; ++run) {
        const bool reset = bench::resetPeakMemory();
        const double before = bench::statusBytes("VmRSS:");
        bench::Timing timing;
        {
            std::optional<data::Dataset> dataset;
            timing = bench::timed([&] {
                auto result = io::readDataset(path);
                if (result)
                    dataset = std::move(*result);
                else
                    std::fprintf(stderr, "read failed: %s\n", result.error().toString().c_str());
            });
            if (dataset && dataset->llmRuns() && !dataset->llmRuns()->runs.empty())
                read = dataset->llmRuns()->runs.front().requests.size();
            if (reset)
                peakPerRequest = (bench::statusBytes("VmHWM:") - before) / double(requests);
        }
        reads.push_back(timing);
        const double wall = bench::wallNowS(), cpu = childrenCpuS();
        const std::string command = "cat '" + path + "' > /dev/null";
        if (std::system(command.c_str()) != 0)
            std::fprintf(stderr, "cat failed\n");
        cats.push_back({bench::wallNowS() - wall, childrenCpuS() - cpu});
    }
    const auto r = bench::median(reads), c = bench::median(cats);
    std::printf("read: %.2f s wall, %.2f s CPU of the reading thread -> %.0f MB/s (wall)\n",
                r.wallS, r.cpuS, megabytes / r.wallS);
    std::printf("cat:  %.2f s wall -> %.0f MB/s; read / cat = %.1fx\n", c.wallS,
                megabytes / c.wallS, r.wallS / c.wallS);
    std::printf("peak memory: %.0f bytes per request (its ITL list alone: %d doubles = %d "
                "bytes)\n",
                peakPerRequest, options.outputTokens - 1, 8 * (options.outputTokens - 1));
    std::printf("requests read: %llu of %llu %s\n", static_cast<unsigned long long>(read),
                static_cast<unsigned long long>(requests), read == requests ? "(all)" : "MISSING");
    fs::remove(path);
    return read == requests ? 0 : 1;
}
