#include "panels/llmcalibrationtext.h"

#include "accel/presetlibrary.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <array>
#include <cmath>

namespace bs::widgets {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("LlmCalibration", text);
}

/// The figure furthest from its measurement, as "ITL p50 at 16 req/s (random) +12%".
QString worstFigure(const llmsim::RooflineRateFit& fit)
{
    double worst = 0.0;
    QString text;
    for (const auto& c : fit.comparisons) {
        const auto& m = c.point.measured;
        const auto& s = c.simulated;
        const std::array<std::tuple<const char*, double, double>, 4> figures{
            {{"TTFT p50", s.ttftP50Ms, m.ttftP50Ms},
             {"ITL p50", s.itlP50Ms, m.itlP50Ms},
             {"mean E2E", s.e2eMeanMs, m.e2eMeanMs},
             {"output tokens/s", s.outputTokensPerS, m.outputTokensPerS}}};
        for (const auto& [name, simulated, measured] : figures) {
            if (!(measured > 0.0) || !(simulated > 0.0))
                continue;
            const double miss = std::abs(std::log(simulated / measured));
            if (miss <= worst)
                continue;
            worst = miss;
            text = tr("%1 at %2 %3%4%")
                       .arg(QString::fromLatin1(name), QString::fromStdString(c.point.label),
                            simulated > measured ? QStringLiteral("+") : QString())
                       .arg(100.0 * (simulated / measured - 1.0), 0, 'f', 0);
        }
    }
    return text;
}

} // namespace

QString llmStepNote(const llmsim::StepSpec& step)
{
    using Kind = llmsim::StepSpec::Kind;
    if (step.kind != Kind::Roofline)
        return tr("This scenario's step is %1: model, accelerator, tensor parallelism and power "
                  "cap need the roofline step.")
            .arg(step.kind == Kind::Linear ? tr("a linear fit") : tr("an operator profile"));
    if (step.calibratedOn.empty())
        return tr("Step times from the model's roofline on the accelerator (no measurement "
                  "tuned in): power and temperature modelled.");
    return tr("Step times from the model's roofline calibrated on %1: η compute %2, η memory "
              "%3, %4 ms host time per sequence, %5 ms per request outside the server; power "
              "and temperature modelled.")
        .arg(QString::fromStdString(step.calibratedOn))
        .arg(step.accelerator.etaCompute, 0, 'g', 3)
        .arg(step.accelerator.etaMemory, 0, 'g', 3)
        .arg(step.overheadPerSeqMs, 0, 'g', 3)
        .arg(step.clientOverheadMs, 0, 'g', 3);
}

QString llmCalibrationSummary(const llmsim::SweepCalibration& calibration)
{
    const auto& fit = calibration.fit;
    QString text =
        tr("Calibrated on %1 (%2 runs, %3 sweeps simulated): η compute %4 → %5, η memory %6 → "
           "%7, host time %8 → %9 ms per sequence, time outside the server %10 → %11 ms per "
           "request. Log-RMS of the figures %12 → %13; furthest: %14.")
            .arg(QFileInfo(QString::fromStdString(calibration.sweepPath)).fileName())
            .arg(fit.comparisons.size())
            .arg(fit.evaluations)
            .arg(fit.statedEtaCompute, 0, 'g', 3)
            .arg(fit.step.accelerator.etaCompute, 0, 'g', 3)
            .arg(fit.statedEtaMemory, 0, 'g', 3)
            .arg(fit.step.accelerator.etaMemory, 0, 'g', 3)
            .arg(fit.statedPerSeqMs, 0, 'g', 3)
            .arg(fit.step.overheadPerSeqMs, 0, 'g', 3)
            .arg(fit.statedClientMs, 0, 'g', 3)
            .arg(fit.step.clientOverheadMs, 0, 'g', 3)
            .arg(fit.statedLogRms, 0, 'f', 3)
            .arg(fit.logRms, 0, 'f', 3)
            .arg(worstFigure(fit));
    for (const auto& o : calibration.omitted)
        text += QLatin1Char('\n') +
                tr("Left out %1: %2.")
                    .arg(QString::fromStdString(o.label), QString::fromStdString(o.reason));
    for (const auto& w : fit.warnings)
        text += QLatin1Char('\n') + tr("Note: %1.").arg(QString::fromStdString(w));
    return text;
}

void forgetLlmCalibration(llmsim::StepSpec& step)
{
    if (step.calibratedOn.empty())
        return;
    step.calibratedOn.clear();
    step.overheadPerSeqMs = 0.0;
    step.clientOverheadMs = 0.0;
    // The preset's efficiencies; an inline accelerator's are the defaults it was read with.
    const auto preset = accel::PresetLibrary::builtIn().accelerator(step.accelerator.name);
    const accel::AcceleratorSpec stated = preset ? *preset : accel::AcceleratorSpec{};
    step.accelerator.etaCompute = stated.etaCompute;
    step.accelerator.etaMemory = stated.etaMemory;
}

} // namespace bs::widgets
