#pragma once

#include "figure/figure.h"

#include <nlohmann/json.hpp>

#include <limits>
#include <string>
#include <vector>

namespace bs::playbook {

inline constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

/// Where a playbook step stands. Ordered: a later value is worse.
enum class StepStatus
{
    NotStarted, ///< The step has not run (or had nothing to run on).
    Ok,
    Warning, ///< A result exists but rests on weak or partial evidence.
    Blocker, ///< The step's claim cannot be made until this is resolved.
};

/// "not_started", "ok", "warning", "blocker".
const char* stepStatusName(StepStatus status);
/// "Not started", "OK", "Warning", "Blocker".
const char* stepStatusLabel(StepStatus status);
/// The worse of two statuses (Blocker > Warning > Ok > NotStarted).
StepStatus worseStatus(StepStatus a, StepStatus b);

/// A number a claim rests on, already in the unit shown to a reviewer (ms, inferences/s, W, J,
/// FLOP/byte, %), with its 95% confidence interval when one is known (NaN bounds otherwise).
struct KeyNumber
{
    std::string label;
    double value = kNoValue;
    std::string unit;
    double ciLow = kNoValue;
    double ciHigh = kNoValue;
    std::string source; ///< Which data and method produced it.

    bool hasInterval() const;
};

/// A table of evidence as text cells (already formatted with units), so every renderer shows
/// exactly the same content.
struct EvidenceTable
{
    std::string title;
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
    std::string note; ///< Method or caveat printed under the table.
};

/// What one playbook step found: its status, a summary sentence, the evidence (key numbers,
/// tables, figures) and what evidence is missing to make the claim stronger.
struct StepResult
{
    int number = 0; ///< 1..5.
    std::string title;
    StepStatus status = StepStatus::NotStarted;
    std::string summary;
    std::vector<KeyNumber> numbers;
    std::vector<EvidenceTable> tables;
    std::vector<figure::Figure> figures;
    std::vector<std::string> missingEvidence;
    std::vector<std::string> warnings;
};

/// A number with at most `significant` significant digits (trailing zeros dropped), without
/// exponent for the magnitudes a report shows (1e-4 .. 1e9); "n/a" for NaN.
std::string formatNumber(double value, int significant = 3);
/// "12.3 ms", or "n/a".
std::string formatValue(double value, const std::string& unit, int significant = 3);
/// "12.3 ms (95% CI 11.9 – 12.8)", or without the interval when it is not known.
std::string formatKeyNumber(const KeyNumber& number);
/// A signed change: "+1.20 ms" / "−3.4%".
std::string formatSigned(double value, const std::string& unit, int significant = 3);

nlohmann::json toJson(const KeyNumber& number);
nlohmann::json toJson(const EvidenceTable& table);
nlohmann::json toJson(const StepResult& step);

} // namespace bs::playbook
