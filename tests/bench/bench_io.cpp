// Importer speed and memory: a generated Kineto-like trace (>= 1 GB of JSON, gzipped) and a
// large request-trace CSV, read end to end through io::readDataset (detection, gzip, parse,
// SHA-256 provenance on a helper thread). Prints MB/s of uncompressed bytes, the ratio to
// `zcat FILE > /dev/null` (decompression is the floor), and peak memory per trace event beyond
// the interned names (VmHWM delta after resetting the high-water mark). Figures are medians of
// several runs, as wall time and as the reading thread's CPU time (on a shared machine the CPU
// time is what one core actually spent). Goals: trace >= 100 MB/s and <= 2x zcat; CSV >= 200
// MB/s; <= 64 bytes per event.
//   bench_io [--trace-mb N] [--csv-mb N] [--runs N]
//   bench_io --big-gb N   only the big-file check: a trace of N GB of JSON (plain, then
//                         gzipped) read whole (peak memory against the file and against what
//                         the dataset keeps), then read again and cancelled after 2 s (how
//                         fast it stops, and that the memory is given back).
#include "benchmemory.h"
#include "benchtiming.h"
#include "io/readdataset.h"

#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <time.h>
#include <unistd.h>
#include <vector>

using namespace bs;
namespace fs = std::filesystem;

namespace {

using ull = unsigned long long; // printf's %llu

using bench::median;
using bench::resetPeakMemory;
using bench::statusBytes;
using bench::threadCpuS;
using bench::Timing;

double now()
{
    return bench::wallNowS();
}

double childrenCpuS()
{
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
}

/// Writes a Kineto-like trace (pretty-printed like PyTorch's exporter: cpu_op -> cudaLaunchKernel
/// -> ac2g flow -> kernel, occasional memcpy) until `targetBytes` of JSON; returns the bytes.
/// `mode` is zlib's: "wb6" gzips, "wbT" writes plain JSON.
std::uint64_t writeTrace(const std::string& path, std::uint64_t targetBytes, std::uint64_t& events,
                         const char* mode = "wb6")
{
    gzFile out = gzopen(path.c_str(), mode);
    gzbuffer(out, 1 << 20);
    std::mt19937_64 rng(42);
    std::vector<std::string> kernels, ops;
    for (int i = 0; i < 2000; ++i) {
        kernels.push_back("void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl<"
                          "at::native::BinaryFunctor<float, float, float, at::native::binary_"
                          "internal::MulFunctor<float> > >(at::TensorIteratorBase&, variant_" +
                          std::to_string(i) + ")::{lambda(int)#1}>(int, T)");
    }
    for (int i = 0; i < 300; ++i)
        ops.push_back("aten::op_" + std::to_string(i));
    std::string text = "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [{\"id\": 0, \"name\": "
                       "\"Bench GPU\"}],\n  \"traceEvents\": [\n";
    std::uint64_t written = 0, ts = 1695835542514261, correlation = 1;
    char buffer[2048];
    auto put = [&](int n) { text.append(buffer, std::size_t(n)); };
    events = 0;
    while (written + text.size() < targetBytes) {
        const unsigned dur = 5 + unsigned(rng() % 400);
        const auto& op = ops[rng() % ops.size()];
        const auto& kernel = kernels[rng() % kernels.size()];
        const std::uint64_t ext = correlation;
        put(std::snprintf(
            buffer, sizeof buffer,
            "  {\n    \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": 4242, "
            "\"tid\": 4242,\n    \"ts\": %llu.%03u, \"dur\": %u.%03u,\n    \"args\": {\n"
            "      \"External id\": %llu, \"Record function id\": 0, \"Sequence number\": %llu, "
            "\"Fwd thread id\": 0, \"Ev Idx\": %llu\n    }\n  },\n",
            op.c_str(), ull(ts), unsigned(rng() % 1000), dur + 20, unsigned(rng() % 1000), ull(ext),
            ull(ext / 2), ull(events)));
        put(std::snprintf(
            buffer, sizeof buffer,
            "  {\n    \"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
            "\"pid\": 4242, \"tid\": 4242,\n    \"ts\": %llu, \"dur\": 7,\n    \"args\": {\n"
            "      \"External id\": %llu, \"cbid\": 211, \"correlation\": %llu\n    }\n  },\n",
            ull(ts + 3), ull(ext), ull(correlation)));
        put(std::snprintf(
            buffer, sizeof buffer,
            "  {\n    \"ph\": \"s\", \"id\": %llu, \"pid\": 4242, \"tid\": 4242, \"ts\": %llu,\n"
            "    \"cat\": \"ac2g\", \"name\": \"ac2g\"\n  },\n",
            ull(correlation), ull(ts + 3)));
        put(std::snprintf(
            buffer, sizeof buffer,
            "  {\n    \"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, \"tid\": "
            "7,\n"
            "    \"ts\": %llu, \"dur\": %u,\n    \"args\": {\n      \"External id\": %llu,\n"
            "      \"queued\": 0, \"device\": 0, \"context\": 1,\n      \"stream\": 7, "
            "\"correlation\": %llu,\n      \"registers per thread\": 32,\n      \"shared "
            "memory\": 0,\n      \"blocks per SM\": %u.5,\n      \"warps per SM\": 4.8,\n"
            "      \"grid\": [%u, 1, 1],\n      \"block\": [128, 1, 1],\n      \"est. "
            "achieved occupancy %%\": %u\n    }\n  },\n",
            kernel.c_str(), ull(ts + 15), dur, ull(ext), ull(correlation), unsigned(rng() % 8),
            unsigned(rng() % 4096), unsigned(rng() % 100)));
        put(std::snprintf(
            buffer, sizeof buffer,
            "  {\n    \"ph\": \"f\", \"id\": %llu, \"pid\": 0, \"tid\": 7, \"ts\": %llu,\n"
            "    \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"\n  },\n",
            ull(correlation), ull(ts + 15)));
        events += 5;
        ++correlation;
        ts += dur + 30 + rng() % 50;
        if (text.size() > (1u << 20)) {
            gzwrite(out, text.data(), unsigned(text.size()));
            written += text.size();
            text.clear();
        }
    }
    text += "  {\"name\": \"process_name\", \"ph\": \"M\", \"ts\": 1695835542514261, \"pid\": 0, "
            "\"tid\": 0, \"args\": {\"name\": \"python\"}}\n  ],\n  \"traceName\": \"bench\"\n}\n";
    gzwrite(out, text.data(), unsigned(text.size()));
    written += text.size();
    gzclose(out);
    return written;
}

/// A generic request-trace CSV of about `targetBytes`.
std::uint64_t writeCsv(const std::string& path, std::uint64_t targetBytes, std::uint64_t& rows)
{
    std::FILE* out = std::fopen(path.c_str(), "wb");
    std::mt19937_64 rng(7);
    std::string text =
        "arrival_s,completion_s,batch_id,batch_size,tenant,input_tokens,output_tokens\n";
    std::uint64_t written = 0;
    double t = 0.0;
    char buffer[256];
    rows = 0;
    while (written + text.size() < targetBytes) {
        t += double(rng() % 1000) * 1e-6;
        const double latency = 0.005 + double(rng() % 100000) * 1e-7;
        const int n = std::snprintf(buffer, sizeof buffer, "%.6f,%.6f,%llu,%u,tenant%u,%u,%u\n", t,
                                    t + latency, ull(rows / 8), 8u, unsigned(rng() % 16),
                                    unsigned(rng() % 8000), unsigned(rng() % 500));
        text.append(buffer, std::size_t(n));
        ++rows;
        if (text.size() > (1u << 20)) {
            std::fwrite(text.data(), 1, text.size(), out);
            written += text.size();
            text.clear();
        }
    }
    std::fwrite(text.data(), 1, text.size(), out);
    written += text.size();
    std::fclose(out);
    return written;
}

Timing zcatTime(const std::string& path)
{
    const std::string command = "zcat '" + path + "' > /dev/null";
    const double cpu0 = childrenCpuS();
    const double t0 = now();
    if (std::system(command.c_str()) != 0)
        std::fprintf(stderr, "zcat failed\n");
    return {now() - t0, childrenCpuS() - cpu0};
}

Timing readTime(const std::string& path, std::size_t& events)
{
    const double cpu0 = threadCpuS();
    const double t0 = now();
    auto dataset = io::readDataset(path);
    const Timing timing{now() - t0, threadCpuS() - cpu0};
    if (!dataset) {
        std::fprintf(stderr, "read failed: %s\n", dataset.error().toString().c_str());
        std::exit(1);
    }
    if (const auto trace = dataset->kernelTrace())
        events = trace->events.size();
    else if (const auto requests = dataset->requestTrace())
        events = requests->size();
    return timing;
}

/// Peak memory of one read beyond what was resident before it, per event, less the names.
void memoryRun(const std::string& path)
{
    const bool reset = resetPeakMemory();
    const double before = statusBytes("VmRSS:");
    auto dataset = io::readDataset(path);
    const double peak = statusBytes("VmHWM:");
    if (!dataset)
        return;
    const auto trace = dataset->kernelTrace();
    double namesBytes = 0.0;
    for (const auto& name : trace->names)
        namesBytes += double(sizeof(std::string) + name.capacity() + 1) + 64.0; // + map node
    const double perEvent = (peak - before - namesBytes) / double(trace->events.size());
    std::printf("trace memory: peak %.1f MB above the %.1f MB resident before, %.2f MB of "
                "interned names (%zu), %zu events -> %.1f bytes per event beyond names "
                "(goal <= 64; sizeof(KernelEvent) = %zu)%s\n",
                (peak - before) / 1e6, before / 1e6, namesBytes / 1e6, trace->names.size(),
                trace->events.size(), perEvent, sizeof(data::KernelEvent),
                reset ? "" : " [could not reset VmHWM: figure includes earlier peaks]");
}

/// A several-GB file: memory stays bounded by what the dataset keeps (the file is streamed, never
/// held), and Cancel stops the read promptly and frees what it had built.
int bigFileCheck(std::uint64_t gigabytes, const fs::path& dir, bool gzipped)
{
    const std::string path = (dir / (gzipped ? "big-trace.json.gz" : "big-trace.json")).string();
    std::uint64_t generated = 0;
    const double g0 = now();
    const std::uint64_t jsonBytes =
        writeTrace(path, gigabytes * 1000000000ull, generated, gzipped ? "wb6" : "wbT");
    std::printf("%s: %.2f GB of JSON, %.2f GB on disk, %llu events, written in %.0f s\n",
                fs::path(path).filename().c_str(), double(jsonBytes) / 1e9,
                double(fs::file_size(path)) / 1e9, ull(generated), now() - g0);

    resetPeakMemory();
    const double before = statusBytes("VmRSS:");
    double t0 = now();
    auto whole = io::readDataset(path);
    const double readS = now() - t0;
    const double peak = statusBytes("VmHWM:"), held = statusBytes("VmRSS:");
    if (!whole) {
        std::fprintf(stderr, "read failed: %s\n", whole.error().toString().c_str());
        return 1;
    }
    const std::size_t events = whole->kernelTrace()->events.size();
    std::printf(
        "whole read: %.1f s (%.0f MB/s of JSON), %zu events; peak %.0f MB above the %.0f MB "
        "resident before = %.3f of the JSON; the dataset keeps %.0f MB; the read's own "
        "overhead above that %.0f MB\n",
        readS, double(jsonBytes) / 1e6 / readS, events, (peak - before) / 1e6, before / 1e6,
        (peak - before) / double(jsonBytes), (held - before) / 1e6, (peak - held) / 1e6);
    whole = makeError(ErrorCode::Cancelled, "released");
    const double afterRelease = statusBytes("VmRSS:");

    CancelToken cancel;
    Expected<data::Dataset> cancelled = makeError(ErrorCode::Internal, "not run");
    double returnedAt = 0.0;
    std::thread reader([&] {
        cancelled = io::readDataset(path, {}, Progress::null(), cancel);
        returnedAt = now();
    });
    std::this_thread::sleep_for(std::chrono::seconds(2));
    const double rssAtCancel = statusBytes("VmRSS:");
    const double cancelAt = now();
    cancel.cancel();
    reader.join();
    const bool stopped = !cancelled && cancelled.error().code == ErrorCode::Cancelled;
    std::printf("cancel after 2 s: %s, returned %.0f ms after Cancel; resident %.0f MB at Cancel, "
                "%.0f MB after it returned (%.0f MB before the read)\n",
                stopped ? "stopped with \"cancelled\"" : "DID NOT STOP AS CANCELLED",
                (returnedAt - cancelAt) * 1e3, rssAtCancel / 1e6, statusBytes("VmRSS:") / 1e6,
                afterRelease / 1e6);
    if (!stopped && !cancelled)
        std::printf("  error: %s\n", cancelled.error().toString().c_str());
    fs::remove(path);
    return stopped ? 0 : 1;
}

std::uint64_t option(int argc, char** argv, const char* name, std::uint64_t fallback)
{
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], name) == 0)
            return std::strtoull(argv[i + 1], nullptr, 10);
    }
    return fallback;
}

} // namespace

int main(int argc, char** argv)
{
    const std::uint64_t traceMb = option(argc, argv, "--trace-mb", 1050);
    const std::uint64_t csvMb = option(argc, argv, "--csv-mb", 400);
    const int runs = int(option(argc, argv, "--runs", 3));
    const fs::path dir = fs::temp_directory_path() / ("bench_io_" + std::to_string(getpid()));
    fs::create_directories(dir);
    if (const std::uint64_t bigGb = option(argc, argv, "--big-gb", 0); bigGb > 0) {
        const int status = bigFileCheck(bigGb, dir, false) | bigFileCheck(bigGb, dir, true);
        fs::remove_all(dir);
        return status;
    }
    const std::string tracePath = (dir / "trace.json.gz").string();
    const std::string csvPath = (dir / "requests.csv").string();

    std::uint64_t generatedEvents = 0;
    const double g0 = now();
    const std::uint64_t jsonBytes = writeTrace(tracePath, traceMb * 1000000, generatedEvents);
    const double gz = double(fs::file_size(tracePath));
    std::printf("generated %s: %.1f MB of JSON, %.1f MB gzipped (%.1f:1), %llu events, in %.1f s\n",
                tracePath.c_str(), double(jsonBytes) / 1e6, gz / 1e6, double(jsonBytes) / gz,
                ull(generatedEvents), now() - g0);

    memoryRun(tracePath);
    std::vector<Timing> zcat, read;
    std::size_t events = 0;
    for (int i = 0; i < runs; ++i) {
        zcat.push_back(zcatTime(tracePath));
        read.push_back(readTime(tracePath, events));
    }
    const Timing z = median(zcat), r = median(read);
    const double mb = double(jsonBytes) / 1e6;
    std::printf("zcat: %.2f s wall, %.2f s CPU (%.0f MB/s of JSON)\n", z.wallS, z.cpuS,
                mb / z.cpuS);
    std::printf("trace read (%zu events): %.2f s wall = %.0f MB/s of uncompressed JSON (goal >= "
                "100); reading thread CPU %.2f s = %.0f MB/s\n",
                events, r.wallS, mb / r.wallS, r.cpuS, mb / r.cpuS);
    std::printf("trace read / zcat: %.2fx wall, %.2fx CPU (goal <= 2x)\n", r.wallS / z.wallS,
                r.cpuS / z.cpuS);

    std::uint64_t rows = 0;
    const std::uint64_t csvBytes = writeCsv(csvPath, csvMb * 1000000, rows);
    std::vector<Timing> csv;
    for (int i = 0; i < runs; ++i)
        csv.push_back(readTime(csvPath, events));
    const Timing c = median(csv);
    const double csvMbRead = double(csvBytes) / 1e6;
    std::printf("CSV read (%llu requests, %.1f MB): %.2f s wall = %.0f MB/s (goal >= 200); reading "
                "thread CPU %.2f s = %.0f MB/s\n",
                ull(rows), csvMbRead, c.wallS, csvMbRead / c.wallS, c.cpuS, csvMbRead / c.cpuS);
    std::printf("(medians of %d runs; %ld cores online; the SHA-256 of the stored bytes runs on a "
                "helper thread)\n",
                runs, sysconf(_SC_NPROCESSORS_ONLN));
    fs::remove_all(dir);
    return 0;
}
