#include "sim/recorder.h"

#include <algorithm>
#include <limits>

namespace bs::sim {

namespace {
/// More windows than this and neighbours are merged (the window doubles), so the series stays
/// between kMaxWindows / 2 and kMaxWindows points whatever the run length.
constexpr std::size_t kMaxWindows = 400;
constexpr double kInf = std::numeric_limits<double>::infinity();
} // namespace

Recorder::Recorder(const RecorderConfig& config)
    : m_config(config)
    , m_stores(std::size_t(config.streams))
    , m_batchCounts(std::size_t(config.maxBatch) + 1, 0)
    , m_pending(std::size_t(config.servers))
    , m_busyS(std::size_t(config.servers), 0.0)
    , m_windowS(config.windowS)
{
    if (config.streams == 1)
        m_stores.front().reserve(config.requests);
    if (config.records)
        m_records.reserve(config.requests);
}

void Recorder::onBatch(const Batch& batch, double tA, double tB)
{
    auto& pending = m_pending[std::size_t(batch.server)];
    if (pending.valid)
        account(std::size_t(batch.server), std::isnan(tA) ? kInf : tA, std::isnan(tB) ? kInf : tB);
    pending = {true, batch.dispatchS, batch.completionS, batch.size, batch.energyJ};
    if (batch.measured > 0) {
        ++m_batchCounts[std::size_t(batch.size)];
        // NaN compares false, so the first temperature replaces the NaN start.
        if (!(batch.temperatureC <= m_peakTemperatureC))
            m_peakTemperatureC = batch.temperatureC;
        if (m_config.timeSeries)
            addToSeries(batch);
    }
}

void Recorder::account(std::size_t server, double tA, double tB)
{
    const Pending& batch = m_pending[server];
    const double start = std::max(batch.dispatchS, tA);
    const double end = std::min(batch.completionS, tB);
    const double busy = std::max(0.0, end - start);
    m_busyS[server] += busy;
    if (hasEnergy() && busy > 0.0) {
        const double duration = batch.completionS - batch.dispatchS;
        m_busyEnergyJ +=
            std::isnan(batch.energyJ) ? m_config.busyW * busy : batch.energyJ * (busy / duration);
    }
    if (batch.completionS >= tA && batch.completionS <= tB)
        m_completions += std::uint64_t(batch.size);
}

void Recorder::finish(double tA, double tB)
{
    m_tA = tA;
    m_tB = tB;
    for (std::size_t server = 0; server < m_pending.size(); ++server) {
        if (m_pending[server].valid)
            account(server, tA, tB);
        m_pending[server].valid = false;
    }
}

void Recorder::addToSeries(const Batch& batch)
{
    if (std::isnan(m_seriesStartS))
        m_seriesStartS = batch.dispatchS;
    auto index = std::size_t((batch.dispatchS - m_seriesStartS) / m_windowS);
    while (index >= kMaxWindows) {
        halveWindows();
        index = std::size_t((batch.dispatchS - m_seriesStartS) / m_windowS);
    }
    while (m_windows.size() <= index) {
        m_windows.emplace_back();
        for (const auto& store : m_stores)
            m_windowBegin.push_back(store.size());
    }
    // The batch's measured requests are stored after this call, so the store sizes recorded
    // when the window opened mark where it begins.
    auto& w = m_windows[index];
    w.requests += std::uint64_t(batch.measured);
    ++w.batches;
    w.batchItems += std::uint64_t(batch.size);
    w.queueDepthSum += batch.queueDepth;
    w.queueDepthMax = std::max(w.queueDepthMax, batch.queueDepth);
    w.capSum += std::uint64_t(batch.cap);
}

void Recorder::halveWindows()
{
    const std::size_t streams = m_stores.size();
    std::vector<Window> merged;
    std::vector<std::uint64_t> begin;
    for (std::size_t i = 0; i < m_windows.size(); i += 2) {
        Window w = m_windows[i];
        if (i + 1 < m_windows.size()) {
            const auto& b = m_windows[i + 1];
            w.requests += b.requests;
            w.batches += b.batches;
            w.batchItems += b.batchItems;
            w.queueDepthSum += b.queueDepthSum;
            w.queueDepthMax = std::max(w.queueDepthMax, b.queueDepthMax);
            w.capSum += b.capSum;
        }
        merged.push_back(w);
        begin.insert(begin.end(), m_windowBegin.begin() + std::ptrdiff_t(i * streams),
                     m_windowBegin.begin() + std::ptrdiff_t((i + 1) * streams));
    }
    m_windows = std::move(merged);
    m_windowBegin = std::move(begin);
    m_windowS *= 2.0;
}

} // namespace bs::sim
