// A linear step model fitted to a measured serving run by replaying its requests
// (README.md: "Step time", fitted).
#include "llmsim/steptimefit.h"

#include "llmsim/llmsimulator.h"
#include "llmsim/steptimemodel.h"
#include "util/neldermead.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <optional>

namespace bs::llmsim {

namespace {

using Point = std::array<double, 3>; ///< ln of base_ms, per_prefill_token_ms, per_decode_seq_ms.

StepSpec stepOf(const Point& p)
{
    StepSpec step;
    step.kind = StepSpec::Kind::Linear;
    step.baseMs = std::exp(p[0]);
    step.perPrefillTokenMs = std::exp(p[1]);
    step.perDecodeSeqMs = std::exp(p[2]);
    return step;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    const auto mid = values.begin() + std::ptrdiff_t(values.size() / 2);
    std::nth_element(values.begin(), mid, values.end());
    return *mid;
}

struct Residuals
{
    double ttftSquares = 0.0;
    double tpotSquares = 0.0;
    std::size_t tpotCount = 0;
};

class Objective
{
public:
    Objective(const EngineConfig& engine, std::vector<RequestSpec> replay,
              std::vector<double> ttftS, std::vector<double> tpotS, CancelToken cancel)
        : m_engine(engine)
        , m_replay(std::move(replay))
        , m_ttftS(std::move(ttftS))
        , m_tpotS(std::move(tpotS))
        , m_cancel(std::move(cancel))
    {}

    /// Sum of squared log ratios; infinity when the engine cannot serve (a cancelled run too).
    Expected<Residuals> residuals(const Point& p) const
    {
        ++m_evaluations;
        const LinearStepTime step(stepOf(p));
        auto run = runEngine(m_engine, step, m_replay, m_cancel);
        if (!run)
            return run.error();
        Residuals r;
        for (std::size_t i = 0; i < m_replay.size(); ++i) {
            const RequestResult& simulated = run->requests[i];
            r.ttftSquares += square(std::log(simulated.ttftS / m_ttftS[i]));
            if (m_tpotS[i] > 0.0 && simulated.tpotS > 0.0) {
                r.tpotSquares += square(std::log(simulated.tpotS / m_tpotS[i]));
                ++r.tpotCount;
            }
        }
        return r;
    }

    Expected<double> operator()(const Point& p) const
    {
        auto r = residuals(p);
        if (!r)
            return r.error();
        return r->ttftSquares + r->tpotSquares;
    }

    int evaluations() const { return m_evaluations; }

    /// The replay at `p` (for the TPOT regression).
    Expected<EngineRun> replay(const Point& p) const
    {
        const LinearStepTime step(stepOf(p));
        return runEngine(m_engine, step, m_replay, m_cancel);
    }

    const std::vector<double>& tpotS() const { return m_tpotS; }

private:
    static double square(double v) { return v * v; }

    EngineConfig m_engine;
    std::vector<RequestSpec> m_replay;
    std::vector<double> m_ttftS;
    std::vector<double> m_tpotS; ///< 0 where a request has a single output token.
    CancelToken m_cancel;
    mutable int m_evaluations = 0;
};

/// What the steps between request i's first and last token computed: their count and their
/// prefill tokens and decoding sequences summed. Its TPOT is linear in the coefficients given
/// these: TPOT_i (n_i - 1) = count_i base + prefill_i per_prefill + decode_i per_decode.
struct DecodeSpan
{
    double steps = 0.0, prefillTokens = 0.0, decodeSeqs = 0.0, tokens = 0.0;
};

std::vector<DecodeSpan> decodeSpans(const EngineRun& run)
{
    std::vector<double> endS(run.steps.size());
    std::vector<DecodeSpan> prefix(run.steps.size() + 1);
    for (std::size_t s = 0; s < run.steps.size(); ++s) {
        const StepRecord& step = run.steps[s];
        endS[s] = step.startS + step.durationS;
        prefix[s + 1] = {prefix[s].steps + 1.0, prefix[s].prefillTokens + step.prefillTokens,
                         prefix[s].decodeSeqs + step.decodeSeqs, 0.0};
    }
    std::vector<DecodeSpan> out;
    for (const RequestResult& r : run.requests) {
        // Steps ending after the first token, up to and including the one that ended the last.
        const auto from =
            std::size_t(std::upper_bound(endS.begin(), endS.end(), r.firstTokenS) - endS.begin());
        const auto to = std::size_t(std::upper_bound(endS.begin(), endS.end(), r.finishS + 1e-12) -
                                    endS.begin());
        out.push_back({prefix[to].steps - prefix[from].steps,
                       prefix[to].prefillTokens - prefix[from].prefillTokens,
                       prefix[to].decodeSeqs - prefix[from].decodeSeqs,
                       double(r.outputTokens - 1)});
    }
    return out;
}

/// Weighted least squares of the measured TPOTs on the spans (relative errors), by the 3x3
/// normal equations; nullopt when they are singular or give a coefficient <= 0.
std::optional<Point> regressTpot(const std::vector<DecodeSpan>& spans,
                                 const std::vector<double>& tpotS)
{
    std::array<std::array<double, 3>, 3> a{};
    std::array<double, 3> b{};
    for (std::size_t i = 0; i < spans.size(); ++i) {
        if (tpotS[i] <= 0.0 || spans[i].tokens < 1.0 || spans[i].steps < 1.0)
            continue;
        const double w = 1.0 / (tpotS[i] * tpotS[i]);
        const std::array<double, 3> x{spans[i].steps / spans[i].tokens,
                                      spans[i].prefillTokens / spans[i].tokens,
                                      spans[i].decodeSeqs / spans[i].tokens};
        for (std::size_t r = 0; r < 3; ++r) {
            b[r] += w * x[r] * 1e3 * tpotS[i];
            for (std::size_t c = 0; c < 3; ++c)
                a[r][c] += w * x[r] * x[c];
        }
    }
    // Gaussian elimination with partial pivoting.
    for (std::size_t k = 0; k < 3; ++k) {
        std::size_t pivot = k;
        for (std::size_t r = k + 1; r < 3; ++r)
            if (std::abs(a[r][k]) > std::abs(a[pivot][k]))
                pivot = r;
        if (std::abs(a[pivot][k]) < 1e-300)
            return std::nullopt;
        std::swap(a[k], a[pivot]);
        std::swap(b[k], b[pivot]);
        for (std::size_t r = k + 1; r < 3; ++r) {
            const double f = a[r][k] / a[k][k];
            for (std::size_t c = k; c < 3; ++c)
                a[r][c] -= f * a[k][c];
            b[r] -= f * b[k];
        }
    }
    std::array<double, 3> coefficientMs{};
    for (std::size_t k = 3; k-- > 0;) {
        double v = b[k];
        for (std::size_t c = k + 1; c < 3; ++c)
            v -= a[k][c] * coefficientMs[c];
        coefficientMs[k] = v / a[k][k];
        if (!(coefficientMs[k] > 0.0))
            return std::nullopt;
    }
    return Point{std::log(coefficientMs[0]), std::log(coefficientMs[1]),
                 std::log(coefficientMs[2])};
}

/// The objective is piecewise smooth (a coefficient that tips a scheduling decision moves many
/// requests at once), so one Nelder-Mead run can stall on a kink: restart it around its best
/// point with a shrinking simplex (factors e^1, e^0.5, ... e^0.06).
Expected<Point> searchSimplex(const Objective& f, const Point& start)
{
    Point best = start;
    for (double stepLog : {1.0, 0.5, 0.25, 0.12, 0.06}) {
        auto next = nelderMead(f, best, stepLog, 400);
        if (!next)
            return next.error();
        best = *next;
    }
    return best;
}

/// Alternates replaying at the coefficients with regressing the TPOTs on what the replay
/// scheduled. The schedule moves with the coefficients, so the plain iteration can overshoot
/// and oscillate: each step goes half way, and the best point by the objective is kept.
Expected<Point> iterateRegression(const Objective& f, Point point)
{
    auto startValue = f(point);
    if (!startValue)
        return startValue.error();
    Point best = point;
    double bestValue = *startValue;
    for (int i = 0; i < 30; ++i) {
        auto run = f.replay(point);
        if (!run)
            return run.error();
        const auto next = regressTpot(decodeSpans(*run), f.tpotS());
        if (!next)
            break;
        double change = 0.0;
        for (std::size_t k = 0; k < 3; ++k) {
            change = std::max(change, std::abs((*next)[k] - point[k]));
            point[k] += 0.5 * ((*next)[k] - point[k]);
        }
        auto value = f(point);
        if (!value)
            return value.error();
        if (*value < bestValue) {
            bestValue = *value;
            best = point;
        }
        if (change < 1e-9)
            break;
    }
    return best;
}

/// A restarted simplex search, then the TPOT regression from its answer (kept only where it
/// lowers the TTFT and TPOT objective).
Expected<Point> minimise(const Objective& f, const Point& start)
{
    auto searched = searchSimplex(f, start);
    if (!searched)
        return searched.error();
    return iterateRegression(f, *searched);
}

} // namespace

namespace {

/// The completed requests in arrival order (ties keep the log's order), as the engine serves
/// them; a completed request without arrival, token counts or TTFT is an error naming it.
Expected<std::vector<const data::LlmRequest*>>
completedInArrivalOrder(const std::vector<data::LlmRequest>& measured)
{
    std::vector<const data::LlmRequest*> out;
    for (std::size_t i = 0; i < measured.size(); ++i) {
        const data::LlmRequest& r = measured[i];
        if (!r.ok)
            continue;
        if (!r.arrivalS || !r.promptTokens || !r.outputTokens || !r.ttftS)
            return makeError(ErrorCode::Value,
                             "request " + std::to_string(i) +
                                 ": a fit needs its arrival, prompt and output tokens and TTFT");
        out.push_back(&r);
    }
    if (out.size() < 3)
        return makeError(ErrorCode::Value, "a step fit needs at least 3 completed requests (got " +
                                               std::to_string(out.size()) + ")");
    std::stable_sort(out.begin(), out.end(),
                     [](const data::LlmRequest* a, const data::LlmRequest* b) {
                         return *a->arrivalS < *b->arrivalS;
                     });
    return out;
}

std::vector<RequestSpec> replayOf(const std::vector<const data::LlmRequest*>& completed)
{
    std::vector<RequestSpec> out;
    const double first = *completed.front()->arrivalS;
    for (const data::LlmRequest* r : completed)
        out.push_back({*r->arrivalS - first, *r->promptTokens, *r->outputTokens});
    return out;
}

} // namespace

Expected<std::vector<RequestSpec>> replayOfMeasured(const std::vector<data::LlmRequest>& measured)
{
    auto completed = completedInArrivalOrder(measured);
    if (!completed)
        return completed.error();
    return replayOf(*completed);
}

Expected<StepFit> fitLinearStep(const EngineConfig& engine,
                                const std::vector<data::LlmRequest>& measured, CancelToken cancel)
{
    auto completed = completedInArrivalOrder(measured);
    if (!completed)
        return completed.error();
    const std::vector<RequestSpec> replay = replayOf(*completed);
    std::vector<double> ttftS, tpotS, prompts;
    for (const data::LlmRequest* r : *completed) {
        ttftS.push_back(std::max(*r->ttftS, 1e-9));
        tpotS.push_back(r->tpotS && *r->outputTokens > 1 ? std::max(*r->tpotS, 1e-9) : 0.0);
        prompts.push_back(double(*r->promptTokens));
    }
    // Start: half the median TPOT as the step's fixed part, the other half shared by the
    // sequences a step typically decodes, the median TTFT beyond one step spread over the
    // median prompt.
    std::vector<double> positiveTpot;
    std::copy_if(tpotS.begin(), tpotS.end(), std::back_inserter(positiveTpot),
                 [](double v) { return v > 0.0; });
    const double tpotMs = 1e3 * (positiveTpot.empty() ? median(ttftS) : median(positiveTpot));
    const double ttftMs = 1e3 * median(ttftS);
    const Point start{
        std::log(0.5 * tpotMs),
        std::log(std::max(ttftMs - tpotMs, 0.1 * tpotMs) / std::max(median(prompts), 1.0)),
        std::log(0.05 * tpotMs)};
    const Objective objective(engine, replay, ttftS, tpotS, cancel);
    auto best = minimise(objective, start);
    if (!best)
        return best.error();
    auto residuals = objective.residuals(*best);
    if (!residuals)
        return residuals.error();
    StepFit fit;
    fit.step = stepOf(*best);
    fit.requests = replay.size();
    fit.tpotRequests = residuals->tpotCount;
    fit.ttftLogRms = std::sqrt(residuals->ttftSquares / double(fit.requests));
    fit.tpotLogRms =
        fit.tpotRequests > 0 ? std::sqrt(residuals->tpotSquares / double(fit.tpotRequests)) : 0.0;
    fit.evaluations = objective.evaluations();
    return fit;
}

} // namespace bs::llmsim
