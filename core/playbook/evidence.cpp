#include "playbook/evidence.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace bs::playbook {

const char* stepStatusName(StepStatus status)
{
    switch (status) {
    case StepStatus::NotStarted:
        return "not_started";
    case StepStatus::Ok:
        return "ok";
    case StepStatus::Warning:
        return "warning";
    case StepStatus::Blocker:
        return "blocker";
    }
    return "not_started";
}

const char* stepStatusLabel(StepStatus status)
{
    switch (status) {
    case StepStatus::NotStarted:
        return "Not started";
    case StepStatus::Ok:
        return "OK";
    case StepStatus::Warning:
        return "Warning";
    case StepStatus::Blocker:
        return "Blocker";
    }
    return "Not started";
}

StepStatus worseStatus(StepStatus a, StepStatus b)
{
    return static_cast<int>(a) >= static_cast<int>(b) ? a : b;
}

bool KeyNumber::hasInterval() const
{
    return std::isfinite(ciLow) && std::isfinite(ciHigh);
}

std::string formatNumber(double value, int significant)
{
    if (!std::isfinite(value))
        return std::isnan(value) ? "n/a" : (value > 0 ? "inf" : "-inf");
    if (value == 0.0)
        return "0";
    const double magnitude = std::fabs(value);
    char buffer[64];
    if (magnitude >= 1e9 || magnitude < 1e-4) {
        std::snprintf(buffer, sizeof buffer, "%.*g", significant, value);
        return buffer;
    }
    // Digits after the point so that `significant` digits show, never fewer than 0.
    const int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
    const int decimals = std::max(0, significant - 1 - exponent);
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    // "8.000" reads as a measurement precision the number does not have: drop trailing zeros.
    std::string text = buffer;
    if (text.find('.') != std::string::npos) {
        text.erase(text.find_last_not_of('0') + 1);
        if (text.back() == '.')
            text.pop_back();
    }
    return text;
}

std::string formatValue(double value, const std::string& unit, int significant)
{
    std::string text = formatNumber(value, significant);
    if (std::isfinite(value) && !unit.empty())
        text += unit == "%" ? unit : " " + unit;
    return text;
}

std::string formatSigned(double value, const std::string& unit, int significant)
{
    if (!std::isfinite(value))
        return formatValue(value, unit, significant);
    return (value > 0 ? "+" : "") + formatValue(value, unit, significant);
}

std::string formatKeyNumber(const KeyNumber& number)
{
    std::string text = formatValue(number.value, number.unit);
    if (number.hasInterval())
        text +=
            " (95% CI " + formatNumber(number.ciLow) + " to " + formatNumber(number.ciHigh) + ")";
    return text;
}

namespace {

/// NaN becomes null: JSON has no NaN.
nlohmann::json numberOrNull(double value)
{
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

} // namespace

nlohmann::json toJson(const KeyNumber& number)
{
    return {{"label", number.label},
            {"value", numberOrNull(number.value)},
            {"unit", number.unit},
            {"ci_low", numberOrNull(number.ciLow)},
            {"ci_high", numberOrNull(number.ciHigh)},
            {"source", number.source}};
}

nlohmann::json toJson(const EvidenceTable& table)
{
    return {{"title", table.title},
            {"columns", table.columns},
            {"rows", table.rows},
            {"note", table.note}};
}

nlohmann::json toJson(const StepResult& step)
{
    nlohmann::json numbers = nlohmann::json::array();
    for (const auto& number : step.numbers)
        numbers.push_back(toJson(number));
    nlohmann::json tables = nlohmann::json::array();
    for (const auto& table : step.tables)
        tables.push_back(toJson(table));
    nlohmann::json figures = nlohmann::json::array();
    for (const auto& figure : step.figures)
        figures.push_back(toJson(figure));
    return {{"number", step.number},
            {"title", step.title},
            {"status", stepStatusName(step.status)},
            {"summary", step.summary},
            {"key_numbers", std::move(numbers)},
            {"tables", std::move(tables)},
            {"figures", std::move(figures)},
            {"missing_evidence", step.missingEvidence},
            {"warnings", step.warnings}};
}

} // namespace bs::playbook
