#pragma once

#include "sim/variability.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace bs::sim {

/// A multiplier on an arrival process's rate over time, applied as a time change: the process
/// runs in "operational time" tau = Lambda(t) = integral of m(s) ds, so its rate at real time t
/// is m(t) times its own rate (any process, not only Poisson). See core/sim/README.md.
struct RateProfile
{
    enum class Kind
    {
        None,
        Diurnal, ///< m(t) = 1 + amplitude * cos(2 pi (t - peakS) / periodS), amplitude in [0, 1).
        Ramp,    ///< Piecewise linear through (timesS[i], multipliers[i]); flat outside.
    };
    Kind kind = Kind::None;
    double periodS = 86400.0;
    double amplitude = 0.0;
    double peakS = 0.0;
    std::vector<double> timesS;
    std::vector<double> multipliers;

    friend bool operator==(const RateProfile&, const RateProfile&) = default;
};

/// How requests of one stream arrive. Rates are requests per second, times seconds.
struct ArrivalSpec
{
    enum class Kind
    {
        Poisson,       ///< Exponential gaps with rate ratePerS.
        Deterministic, ///< Arrival n at n / ratePerS (n = 1, 2, ...).
        Gamma,         ///< Renewal process, gamma gaps with mean 1/ratePerS and cv (0: regular).
        Mmpp2,         ///< Two-state Markov-modulated Poisson (bursts), state 0 "low", 1 "high".
        Replay,        ///< Timestamps from a trace file or inline, optionally rescaled and looped.
        /// N clients, each sending its next request when the previous response returns (plus a
        /// think time): perf_analyzer's concurrency mode. Arrivals follow completions.
        ClosedLoop,
    };
    Kind kind = Kind::Poisson;
    double ratePerS = 0.0; ///< Replay: target mean rate, 0 = as recorded.
    double cv = 1.0;
    std::array<double, 2> ratesPerS{0.0, 0.0};  ///< MMPP-2 rate in each state (one may be 0).
    std::array<double, 2> meanDwellS{0.0, 0.0}; ///< MMPP-2 mean (exponential) time in each state.
    std::string file;                           ///< Replay: request trace (any importer format).
    std::string column = "arrival";             ///< Replay: "arrival" or "intended" times.
    std::vector<double> timesS;                 ///< Replay: inline timestamps (instead of file).
    bool loop = true;    ///< Replay: repeat the trace when the run needs more requests.
    int concurrency = 0; ///< ClosedLoop: clients, each with one request outstanding.
    double thinkS = 0.0; ///< ClosedLoop: mean exponential pause after a response (0: none).
    /// ClosedLoop: fixed time a request spends outside the server (client send, network,
    /// client receive); part of its latency and of each client's cycle.
    double clientOverheadS = 0.0;
    /// ClosedLoop: the overhead is exponential with that mean instead of fixed. Real networks
    /// and clients jitter; without it, requests answered together return together and a
    /// closed loop with batching can stay in one clump forever.
    bool clientOverheadExponential = false;
    /// ClosedLoop: a fixed time outside the server added to that overhead (exponential or
    /// not): a jitter-free part, such as the server's own scheduling time at no load.
    double clientOverheadFixedS = 0.0;
    RateProfile profile;

    friend bool operator==(const ArrivalSpec&, const ArrivalSpec&) = default;
};

/// A request stream (tenant). A scenario with plain "arrivals" has one stream with an empty name.
struct StreamSpec
{
    std::string name;
    double weight = 1.0; ///< The stream's fair share, used by the weighted fairness index.
    ArrivalSpec arrivals;

    friend bool operator==(const StreamSpec&, const StreamSpec&) = default;
};

/// The batching rule of a queue. See core/sim/README.md for the exact semantics.
struct PolicySpec
{
    enum class Kind
    {
        Dynamic,  ///< Triton's dynamic batcher: max batch, max queue delay, preferred sizes.
        Static,   ///< Wait for a full batch; optional timeout.
        Adaptive, ///< AIMD on the batch cap against a p99 target (Clipper).
    };
    static constexpr double kNoTimeout = std::numeric_limits<double>::infinity();

    Kind kind = Kind::Dynamic;
    int maxBatch = 1;                     ///< Static: the batch size.
    double maxQueueDelayS = 0.0;          ///< Static: the timeout, kNoTimeout when absent.
    std::vector<int> preferredBatchSizes; ///< Dynamic only; increasing, each <= maxBatch.
    // Adaptive (AIMD) parameters.
    double targetP99S = 0.0;
    int minBatch = 1;
    int initialBatch = 1;
    int windowRequests = 1000; ///< Completed requests per p99 estimate.
    int increase = 1;          ///< Added to the cap while p99 <= target.
    double decrease = 0.9;     ///< Cap multiplied by this (rounded down) when p99 > target.

    friend bool operator==(const PolicySpec&, const PolicySpec&) = default;
};

/// k identical servers (replicas, instances, cores) and how requests reach them.
struct ServerSpec
{
    enum class Placement
    {
        Shared,      ///< One FIFO queue in front of all servers.
        RoundRobin,  ///< One queue per server; request i goes to server i mod k.
        LeastLoaded, ///< One queue per server; fewest queued + in service, lowest index on ties.
        Random,      ///< One queue per server; uniformly random server.
    };
    int count = 1;
    Placement placement = Placement::Shared;
    /// Batches one server (device) runs at once, sharing it equally (processor sharing): CUDA
    /// streams, Triton model instances, an MLPerf harness's inference streams.
    int streams = 1;
    /// Time a batch spends off the device before it computes (host work, launch, input copy),
    /// holding its stream but not the device: base + per item * b.
    double preComputeBaseS = 0.0;
    double preComputePerItemS = 0.0;
    /// Time a batch spends off the device after it computes (output copy, response), holding
    /// its stream but not the device: base + per item * b. With streams > 1 a batch's copies
    /// overlap the other batches' compute (a copy-in / compute / copy-out pipeline).
    double postComputeBaseS = 0.0;
    double postComputePerItemS = 0.0;

    double preComputeS(int batch) const
    {
        return preComputeBaseS + preComputePerItemS * double(batch);
    }
    double postComputeS(int batch) const
    {
        return postComputeBaseS + postComputePerItemS * double(batch);
    }
    bool hasCopyStages() const
    {
        return preComputeBaseS > 0.0 || preComputePerItemS > 0.0 || postComputeBaseS > 0.0 ||
               postComputePerItemS > 0.0;
    }
    /// Whether the sharing engine (core/sim/sharingengine.h) simulates these servers.
    bool sharesDevices() const { return streams > 1 || hasCopyStages(); }

    friend bool operator==(const ServerSpec&, const ServerSpec&) = default;
};

/// A measured percentile column of a `table` service: latencyS[i] is the service time that
/// `percentile` % of batches of size tableBatch[i] stay under.
struct TablePercentile
{
    int percentile = 50; ///< 50, 90, 95 or 99.
    std::vector<double> latencyS;

    friend bool operator==(const TablePercentile&, const TablePercentile&) = default;
};

/// The service time of a batch of b requests. Means are seconds; the distribution varies them.
struct ServiceSpec
{
    enum class Kind
    {
        Linear,      ///< baseS + perItemS * b.
        Table,       ///< Linear interpolation in a measured (batch, latency) sweep.
        Exponential, ///< meanS whatever b (for theory checks); exponential unless told otherwise.
        Accelerator, ///< bs::accel::Model: batch cost with power, thermal and clock state.
    };
    Kind kind = Kind::Linear;
    double baseS = 0.0;
    double perItemS = 0.0;
    std::vector<double> tableBatch;
    std::vector<double> tableLatencyS;
    /// Measured spread per row (core/sim/servicespread.h); instead of `distribution`.
    std::vector<TablePercentile> tablePercentiles;
    double meanS = 0.0;
    nlohmann::json acceleratorModel; ///< The accel model parameters, as given.
    Variability distribution;

    friend bool operator==(const ServiceSpec&, const ServiceSpec&) = default;
};

/// Server power for energy accounting: idleW while a server waits, busyW while it serves.
struct PowerSpec
{
    double idleW = 0.0;
    double busyW = 0.0;

    friend bool operator==(const PowerSpec&, const PowerSpec&) = default;
};

struct OutputSpec
{
    double windowS = 0.0; ///< Time-series window; 0 = automatic (about 100-200 windows).
    bool records = false; ///< Keep per-request records of replication 0.

    friend bool operator==(const OutputSpec&, const OutputSpec&) = default;
};

/// How long each replication runs, counted in the traffic's own slowest time scale (MMPP dwell
/// cycles, diurnal periods, a replayed trace's length; core/sim/runlength.h). The scenario's
/// `requests` is a minimum: the simulator raises it until a replication covers min_cycles of
/// modulated traffic (one pass of a ramp or a trace), within max_requests.
struct RunLengthSpec
{
    double minCycles = 20.0;              ///< 0 = run exactly `requests`.
    std::uint64_t maxRequests = 20000000; ///< Budget per replication (measured requests).

    friend bool operator==(const RunLengthSpec&, const RunLengthSpec&) = default;
};

/// Everything that determines a simulation. Same scenario + same seed = bit-identical Result.
/// JSON form: scenarioFromJson / scenarioToJson (documented in core/sim/README.md).
struct Scenario
{
    std::string name;
    std::uint64_t seed = 1;
    std::uint64_t requests = 100000;      ///< Measured requests per replication.
    std::uint64_t warmupRequests = 10000; ///< Discarded first requests per replication.
    int replications = 5;
    RunLengthSpec runLength;
    std::vector<StreamSpec> streams; ///< At least one.
    bool namedStreams = false;       ///< Written back as "streams" rather than "arrivals".
    PolicySpec policy;
    ServerSpec servers;
    ServiceSpec service;
    std::optional<PowerSpec> power;
    OutputSpec output;
    std::uint64_t maxQueueRequests = 1000000; ///< A queue longer than this is "unstable".

    friend bool operator==(const Scenario&, const Scenario&) = default;
};

} // namespace bs::sim
