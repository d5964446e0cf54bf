#pragma once

#include "analysis/arrivalmodels.h"
#include "analysis/distribution.h"
#include "util/canceltoken.h"
#include "util/expected.h"
#include "util/progress.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace bs::analysis {

/// One fitted arrival model with its goodness of fit.
struct ArrivalModelFit
{
    std::string kind;       ///< "poisson", "gamma" or "mmpp2" (simulator arrival kinds).
    double ratePerS = kNaN; ///< Mean rate (all kinds).
    double cv = kNaN;  ///< Gap coefficient of variation (gamma's parameter; model's for others).
    Mmpp2Params mmpp2; ///< mmpp2 only.
    double ksDistance = kNaN; ///< Kolmogorov-Smirnov distance on the inter-arrival times.
    double ksCritical =
        kNaN; ///< 1.628 / sqrt(gaps): the 1% level (conservative: fitted parameters).
    double dispersionZ =
        kNaN;            ///< RMS of z = log(IDC_model / IDC_data) / sd over the compared scales.
    bool passes = false; ///< ksDistance <= ksCritical and dispersionZ <= 3.
    std::vector<double> idc;    ///< The model's IDC at ArrivalCharacterisation::idcWindowS.
    std::vector<double> gapCdf; ///< The model's gap CDF at ArrivalCharacterisation::gaps.cdfValue.
};

/// What the arrivals of a trace look like, and which simulator arrival process reproduces them.
struct ArrivalCharacterisation
{
    bool available = false;
    std::string reason; ///< Why not available (too few arrivals, no time span).
    std::uint64_t count = 0;
    double spanS = kNaN;        ///< Last minus first arrival.
    double meanRatePerS = kNaN; ///< (count - 1) / span.
    double gapMeanS = kNaN;
    /// The gap CV shown everywhere (Traces view, `analyze`, reports): the sample standard
    /// deviation (n - 1) of the gaps between consecutive sorted arrivals divided by their mean;
    /// 1 for Poisson arrivals. A fitted model's own cv (ArrivalModelFit::cv) is the model's.
    double gapCv = kNaN;
    std::uint64_t tiedGaps = 0; ///< Gaps of exactly 0 (timestamps at the clock's resolution).
    /// Index of dispersion of counts Var N / E N over windows of idcWindowS[k] seconds (doubling
    /// from about 4 mean gaps while at least 16 windows fit); 1 for Poisson at every scale.
    std::vector<double> idcWindowS;
    std::vector<double> idc;
    std::vector<std::uint64_t> idcWindows; ///< Windows behind each value.
    double userWindowS = kNaN;             ///< The --window-s window, and the IDC over it.
    double userWindowIdc = kNaN;
    /// The inter-arrival times (seconds): percentiles and the empirical CDF for the fit overlay.
    Distribution gaps;
    std::vector<ArrivalModelFit> fits; ///< poisson, gamma, mmpp2 (when over-dispersed).
    int chosen = -1;                   ///< Index into fits.
    std::string choiceReason;
    std::string method; ///< How the fits and the choice were made, in words.
};

/// Characterises arrival times (seconds, any order; they are sorted internally) and fits
/// Poisson, gamma-renewal and MMPP-2 (by moment matching: mean rate, the IDC curve's asymptote
/// and time constant, then the MMPP state split that minimises the KS distance on the gaps).
/// The chosen model is the simplest that passes both the KS test at 1% and the dispersion
/// check (z <= 3); when none passes, the one with the smallest max(D / Dcrit, z / 3).
/// `userWindowS` (> 0) adds the IDC at that window. Errors: non-finite times.
Expected<ArrivalCharacterisation> characteriseArrivals(std::span<const double> arrivalS,
                                                       double userWindowS = 0.0,
                                                       Progress& progress = Progress::null(),
                                                       const CancelToken& cancel = CancelToken());

/// The fit as a simulator `arrivals` object (core/sim/README.md): {"kind": "poisson",
/// "rate_per_s"}, {"kind": "gamma", "rate_per_s", "cv"} or {"kind": "mmpp2", "rates_per_s"
/// [low, high], "mean_dwell_s" [low, high]}.
nlohmann::json simulatorArrivals(const ArrivalModelFit& fit);

} // namespace bs::analysis
