#pragma once

#include "sim/latencystore.h"
#include "sim/loghistogram.h"
#include "sim/result.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace bs::sim {

struct RecorderConfig
{
    std::uint64_t warmupRequests = 0;
    std::uint64_t requests = 0;
    int servers = 1;
    int streams = 1;
    int maxBatch = 1;
    double windowS = 1.0; ///< Initial time-series window; doubles when windows get too many.
    bool timeSeries = false;
    bool records = false;
    double idleW = kNaN; ///< NaN: no energy accounting.
    double busyW = kNaN; ///< Used when the service model reports no energy.
};

/// Collects the measurements of one replication. The engines call addMeasured() for every
/// measured request (the hot path: one store and one sketch update) and onBatch() for every
/// batch. Memory: 8 bytes per measured request (the exact latency store), a fixed-size wait
/// sketch, per-window counters, and per-request records only when asked for.
///
/// Utilisation, energy and throughput are measured over the window [tA, tB] from the arrival of
/// the first to the arrival of the last measured request. A server's batch is accounted when
/// the server's next batch starts (or at finish()), by which time tA and tB are known if they
/// matter: a batch that ended before an unknown tA or tB is entirely before it.
class Recorder
{
public:
    explicit Recorder(const RecorderConfig& config);

    /// One measured request of `stream`: latency and queue wait in seconds.
    void addMeasured(std::uint32_t stream, double latencyS, double waitS)
    {
        m_stores[stream].push_back(latencyS);
        addWait(waitS);
    }
    /// The fast path for a run of measured requests of stream 0: room for n latencies, to be
    /// written by the caller (with addWait() for each).
    double* appendLatencies(std::size_t n) { return m_stores.front().append(n); }
    void addWait(double waitS)
    {
        m_waits.add(waitS);
        m_waitSumS += waitS;
    }
    void addRecord(const RequestRecord& record) { m_records.push_back(record); }
    bool wantsRecords() const { return m_config.records; }

    struct Batch
    {
        int server = 0;
        double dispatchS = 0.0;
        double completionS = 0.0;
        int size = 0;
        int measured = 0;             ///< How many of its requests are measured.
        std::uint64_t queueDepth = 0; ///< Requests waiting at the decision, this batch included.
        int cap = 0;
        double energyJ = kNaN;      ///< From the service model, NaN when it reports none.
        double temperatureC = kNaN; ///< Device temperature at its end, NaN when not modelled.
    };
    /// Every dispatched batch, in dispatch order. tA/tB: the window ends when known, else NaN.
    void onBatch(const Batch& batch, double tA, double tB);
    /// Accounts the last batch of every server; tA and tB must be known now.
    void finish(double tA, double tB);

    // Results, after finish().
    const std::vector<LatencyStore>& latencyStores() const { return m_stores; }
    const LogHistogram& waits() const { return m_waits; }
    double waitSumS() const { return m_waitSumS; }
    const std::vector<std::uint64_t>& batchSizeCounts() const { return m_batchCounts; }
    const std::vector<double>& busyInWindowS() const { return m_busyS; }
    std::uint64_t completionsInWindow() const { return m_completions; }
    double busyEnergyJ() const { return m_busyEnergyJ; }
    double windowStartS() const { return m_tA; }
    double windowEndS() const { return m_tB; }
    bool hasEnergy() const { return !std::isnan(m_config.idleW); }
    double idleW() const { return m_config.idleW; }
    /// The highest device temperature (°C) at the end of a batch carrying measured requests;
    /// NaN when the service model has no thermal state.
    double peakTemperatureC() const { return m_peakTemperatureC; }
    std::vector<RequestRecord>& records() { return m_records; }

    /// Per-window counters; storeBegin[w * streams + s] = size of store s when window w began.
    struct Window
    {
        std::uint64_t requests = 0;
        std::uint64_t batches = 0;
        std::uint64_t batchItems = 0;
        std::uint64_t queueDepthSum = 0;
        std::uint64_t queueDepthMax = 0;
        std::uint64_t capSum = 0;
    };
    const std::vector<Window>& windows() const { return m_windows; }
    const std::vector<std::uint64_t>& windowStoreBegin() const { return m_windowBegin; }
    double windowS() const { return m_windowS; }
    double seriesStartS() const { return m_seriesStartS; }

private:
    struct Pending
    {
        bool valid = false;
        double dispatchS = 0.0;
        double completionS = 0.0;
        int size = 0;
        double energyJ = kNaN;
    };
    void account(std::size_t server, double tA, double tB);
    void addToSeries(const Batch& batch);
    void halveWindows();

    RecorderConfig m_config;
    std::vector<LatencyStore> m_stores;
    LogHistogram m_waits;
    double m_waitSumS = 0.0;
    std::vector<std::uint64_t> m_batchCounts;
    std::vector<Pending> m_pending;
    std::vector<double> m_busyS;
    double m_busyEnergyJ = 0.0;
    double m_peakTemperatureC = kNaN;
    std::uint64_t m_completions = 0;
    double m_tA = kNaN;
    double m_tB = kNaN;
    std::vector<RequestRecord> m_records;

    std::vector<Window> m_windows;
    std::vector<std::uint64_t> m_windowBegin;
    double m_windowS = 1.0;
    double m_seriesStartS = kNaN;
};

} // namespace bs::sim
