#include "panels/llmmodelpanel.h"

#include "accel/presetlibrary.h"
#include "analysis/llmregionpack.h"
#include "analysis/projectregion.h"
#include "document/projectdocument.h"
#include "jobs/joboutcome.h"
#include "jobs/jobrunner.h"
#include "llmsim/modelshape.h"
#include "llmsim/runreplay.h"
#include "panels/llmcalibrationtext.h"
#include "panels/viewscrollarea.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace bs::widgets {

namespace {

using llmsim::StepSpec;

/// The background lane of "Calibrate…" (on a rate sweep) (the newest calibration wins).
const QString kCalibrationLane = QStringLiteral("llm-calibration");

/// What a calibration answers for: the scenario without the load the fit sets itself (each
/// run's rate and count). A fit is applied only while this stays as it started.
llmsim::LlmScenario asCalibrated(llmsim::LlmScenario scenario)
{
    scenario.arrivals.ratePerS = 0.0;
    scenario.arrivals.rateMultiplier = 1.0;
    scenario.arrivals.count = 0;
    return scenario;
}

/// The dock's scroll area asks for the knobs' width plus a vertical scroll bar's: where the
/// knobs are taller than the dock (projector fonts) the bar takes its width from the knobs,
/// which would otherwise cut the combo boxes' texts.
class KnobScrollArea : public ViewScrollArea
{
public:
    using ViewScrollArea::ViewScrollArea;
    QSize sizeHint() const override
    {
        QSize hint = ViewScrollArea::sizeHint();
        hint.rwidth() += verticalScrollBar()->sizeHint().width();
        return hint;
    }
};

/// Merge ids: one undo step per drag or typing run in one control.
enum MergeId
{
    kSeatsMerge = 7101,
    kBudgetMerge,
    kRateMerge,
    kTtftMerge,
    kTpotMerge,
    kItlMerge,
    kE2eMerge,
    kPrefixCacheMerge,
    kKvMerge,
    kPowerMerge,
    kTensorParallelMerge,
    kMemoryMerge,
    kInterconnectMerge,
};

std::vector<int> powersOfTwo(int from, int to)
{
    std::vector<int> steps;
    for (int v = from; v <= to; v *= 2)
        steps.push_back(v);
    return steps;
}

/// The slider position of `value`: its step, or the nearest step below (a value typed into the
/// project file between steps still shows where it lies).
int positionOf(const std::vector<int>& steps, int value)
{
    const auto it = std::upper_bound(steps.begin(), steps.end(), value);
    return std::max(0, int(it - steps.begin()) - 1);
}

QDoubleSpinBox* decimalField(double minimum, double maximum, double step, int decimals,
                             const QString& suffix, QWidget* parent)
{
    auto* field = new QDoubleSpinBox(parent);
    field->setRange(minimum, maximum);
    field->setSingleStep(step);
    field->setDecimals(decimals);
    field->setSuffix(suffix);
    field->setKeyboardTracking(false);
    return field;
}

/// A limit that may be absent: 0 shows "none" and means no such limit.
QDoubleSpinBox* optionalLimitField(double maximum, double step, int decimals,
                                   const QString& toolTip, QWidget* parent)
{
    auto* field = decimalField(0.0, maximum, step, decimals, QObject::tr(" ms"), parent);
    field->setSpecialValueText(QObject::tr("none"));
    field->setToolTip(toolTip);
    return field;
}

std::optional<double> limitOrNone(double ms)
{
    return ms > 0.0 ? std::optional<double>(ms) : std::nullopt;
}

QSpinBox* wholeField(int minimum, int maximum, const QString& suffix, QWidget* parent)
{
    auto* field = new QSpinBox(parent);
    field->setRange(minimum, maximum);
    field->setSuffix(suffix);
    field->setGroupSeparatorShown(true);
    field->setKeyboardTracking(false);
    return field;
}

/// A slider with its value printed beside it.
QWidget* sliderRow(QSlider* slider, QLabel* value, QWidget* parent)
{
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(slider, 1);
    value->setMinimumWidth(value->fontMetrics().horizontalAdvance(QStringLiteral("32,768")));
    value->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    layout->addWidget(value);
    return row;
}

} // namespace

const std::vector<int>& LlmModelPanel::seatSteps()
{
    static const std::vector<int> steps = powersOfTwo(1, 1024);
    return steps;
}

const std::vector<int>& LlmModelPanel::budgetSteps()
{
    static const std::vector<int> steps = powersOfTwo(64, 32768);
    return steps;
}

LlmModelPanel::LlmModelPanel(ProjectDocument* document, JobRunner* jobs, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_jobs(jobs)
    , m_status(new QLabel(this))
    , m_policy(new QComboBox(this))
    , m_modelShape(new QComboBox(this))
    , m_accelerator(new QComboBox(this))
    , m_tensorParallel(wholeField(1, 64, {}, this))
    , m_interconnectGbPerS(wholeField(0, 10000, tr(" GB/s"), this))
    , m_powerCapW(wholeField(0, 2000, tr(" W"), this))
    , m_maxNumSeqs(stepSlider(seatSteps()))
    , m_maxNumSeqsValue(new QLabel(this))
    , m_maxNumBatchedTokens(stepSlider(budgetSteps()))
    , m_maxNumBatchedTokensValue(new QLabel(this))
    , m_chunkedPrefill(new QCheckBox(tr("Chunked prefill"), this))
    , m_prefixCacheHits(decimalField(0.0, 100.0, 5.0, 1, tr(" %"), this))
    , m_kvBlocks(wholeField(1, 1 << 30, tr(" blocks"), this))
    , m_gpuMemoryUtilization(decimalField(0.05, 0.99, 0.01, 2, {}, this))
    , m_rateMultiplier(decimalField(0.01, 100.0, 0.05, 2, tr(" ×"), this))
    , m_ttftLimitMs(decimalField(1.0, 1e7, 100.0, 0, tr(" ms"), this))
    , m_tpotLimitMs(decimalField(0.1, 1e5, 1.0, 1, tr(" ms"), this))
    , m_itlLimitMs(optionalLimitField(
          1e5, 5.0, 1,
          tr("inter-token latency p99 limit, over every gap between tokens: the stall a user "
             "sees mid-answer, which a request's mean TPOT hides (none: no limit)"),
          this))
    , m_e2eLimitMs(optionalLimitField(
          1e8, 1000.0, 0,
          tr("end-to-end latency p99 limit, arrival to last token (none: no limit)"), this))
    , m_stepNote(new QLabel(this))
    , m_calibrate(new QPushButton(tr("Calibrate…"), this))
    , m_calibration(new QLabel(this))
{
    setObjectName(QStringLiteral("llmModelPanel"));
    for (const auto& policy : llmsim::llmPolicies())
        m_policy->addItem(QString::fromStdString(policy));
    for (const auto& name : llmsim::builtinModelNames())
        m_modelShape->addItem(QString::fromStdString(name),
                              QString::fromStdString(llmsim::builtinModelConfig(name)));
    for (const auto& name : accel::PresetLibrary::builtIn().acceleratorNames())
        m_accelerator->addItem(QString::fromStdString(name));
    m_powerCapW->setSpecialValueText(tr("board limit"));
    m_interconnectGbPerS->setSpecialValueText(tr("none"));
    m_interconnectGbPerS->setToolTip(tr("GPU-to-GPU bandwidth per direction for tensor "
                                        "parallelism's all-reduces (needed when TP > 1)"));
    m_calibration->hide();
    for (QLabel* label : {m_status, m_stepNote, m_calibration}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_maxNumSeqs->setToolTip(tr("max_num_seqs: requests the engine runs at once (seats)"));
    m_prefixCacheHits->setSpecialValueText(tr("none"));
    m_rateMultiplier->setToolTip(
        tr("The offered load as a multiple of the scenario's rate (a replay is compressed or "
           "stretched in time, keeping its bursts)"));

    auto* engine = new QFormLayout;
    engine->addRow(tr("Policy"), m_policy);
    engine->addRow(tr("max_num_seqs"), sliderRow(m_maxNumSeqs, m_maxNumSeqsValue, this));
    // Named after the knob the policy has (sglang: chunked_prefill_size), in showSpec.
    auto* budgetLabel = new QLabel(tr("max_num_batched_tokens"), this);
    budgetLabel->setObjectName(QStringLiteral("tokenBudgetLabel"));
    engine->addRow(budgetLabel, sliderRow(m_maxNumBatchedTokens, m_maxNumBatchedTokensValue, this));
    engine->addRow(QString(), m_chunkedPrefill);
    engine->addRow(tr("Prefix cache hits"), m_prefixCacheHits);
    engine->addRow(tr("KV cache"), m_kvBlocks);
    engine->addRow(tr("GPU memory utilization"), m_gpuMemoryUtilization);
    auto* hardware = new QFormLayout;
    hardware->addRow(tr("Model"), m_modelShape);
    hardware->addRow(tr("Accelerator"), m_accelerator);
    hardware->addRow(tr("Tensor parallel"), m_tensorParallel);
    hardware->addRow(tr("Interconnect"), m_interconnectGbPerS);
    hardware->addRow(tr("Power cap per GPU"), m_powerCapW);
    auto* load = new QFormLayout;
    load->addRow(tr("Load"), m_rateMultiplier);
    load->addRow(tr("TTFT p99 limit"), m_ttftLimitMs);
    load->addRow(tr("TPOT p99 limit"), m_tpotLimitMs);
    load->addRow(tr("ITL p99 limit"), m_itlLimitMs);
    load->addRow(tr("E2E p99 limit"), m_e2eLimitMs);
    // The engine's knobs have long names (max_num_batched_tokens): each goes above its slider,
    // so the slider keeps the dock's width.
    engine->setRowWrapPolicy(QFormLayout::WrapAllRows);
    for (QFormLayout* form : {hardware, load})
        form->setRowWrapPolicy(QFormLayout::WrapLongRows);

    const auto heading = [this](const QString& text) {
        auto* label = new QLabel(text, this);
        QFont bold = label->font();
        bold.setBold(true);
        label->setFont(bold);
        return label;
    };
    // The knobs scroll where the dock is shorter than they are (a laptop, large fonts) instead of
    // making the window taller than the screen.
    auto* content = new QWidget(this);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(new KnobScrollArea(content, this));
    auto* layout = new QVBoxLayout(content);
    layout->addWidget(m_status);
    layout->addWidget(heading(tr("Engine")));
    layout->addLayout(engine);
    // The calibration's button sits on the heading's line: the dock must fit a 1366x768 screen.
    auto* hardwareHeading = new QHBoxLayout;
    hardwareHeading->addWidget(heading(tr("Model and accelerator")));
    hardwareHeading->addStretch(1);
    hardwareHeading->addWidget(m_calibrate);
    layout->addLayout(hardwareHeading);
    layout->addLayout(hardware);
    layout->addWidget(m_stepNote);
    layout->addWidget(m_calibration);
    layout->addWidget(heading(tr("Load and SLA")));
    layout->addLayout(load);
    layout->addStretch(1);

    connect(m_policy, &QComboBox::currentTextChanged, this, [this](const QString& policy) {
        edit(tr("Set the policy to %1").arg(policy), -1,
             [&](analysis::LlmRegionSpec& s) { s.scenario.engine.policy = policy.toStdString(); });
    });
    connect(m_maxNumSeqs, &QSlider::valueChanged, this, [this](int position) {
        const int seats = seatSteps()[std::size_t(position)];
        m_maxNumSeqsValue->setText(QLocale().toString(seats));
        edit(tr("Set max_num_seqs"), kSeatsMerge,
             [&](analysis::LlmRegionSpec& s) { s.scenario.engine.maxNumSeqs = seats; });
    });
    connect(m_maxNumBatchedTokens, &QSlider::valueChanged, this, [this](int position) {
        const int budget = budgetSteps()[std::size_t(position)];
        m_maxNumBatchedTokensValue->setText(QLocale().toString(budget));
        const QString knob =
            m_spec ? QString::fromLatin1(analysis::llmTokenBudgetKnob(m_spec->scenario.engine))
                   : tr("max_num_batched_tokens");
        edit(tr("Set %1").arg(knob), kBudgetMerge, [&](analysis::LlmRegionSpec& s) {
            analysis::setLlmTokenBudget(s.scenario.engine, budget);
        });
    });
    connect(m_chunkedPrefill, &QCheckBox::toggled, this, [this](bool on) {
        edit(on ? tr("Turn chunked prefill on") : tr("Turn chunked prefill off"), -1,
             [&](analysis::LlmRegionSpec& s) { s.scenario.engine.enableChunkedPrefill = on; });
    });
    connect(m_prefixCacheHits, &QDoubleSpinBox::valueChanged, this, [this](double percent) {
        edit(tr("Set the prefix cache hits"), kPrefixCacheMerge, [&](analysis::LlmRegionSpec& s) {
            auto& e = s.scenario.engine;
            e.prefixCacheHitRate = percent / 100.0;
            // Hits need the cache: a rate above none turns it on (none leaves it as it was).
            e.enablePrefixCaching = e.enablePrefixCaching || percent > 0.0;
        });
    });
    connect(m_kvBlocks, &QSpinBox::valueChanged, this, [this](int blocks) {
        edit(tr("Set the KV cache size"), kKvMerge,
             [&](analysis::LlmRegionSpec& s) { s.scenario.engine.numGpuBlocks = blocks; });
    });
    connect(m_gpuMemoryUtilization, &QDoubleSpinBox::valueChanged, this, [this](double share) {
        edit(tr("Set the GPU memory utilization"), kMemoryMerge, [&](analysis::LlmRegionSpec& s) {
            if (s.scenario.engine.kvMemory)
                s.scenario.engine.kvMemory->gpuMemoryUtilization = share;
        });
    });
    connect(m_modelShape, &QComboBox::currentIndexChanged, this, [this](int index) {
        const std::string config = m_modelShape->itemData(index).toString().toStdString();
        edit(tr("Set the model to %1").arg(m_modelShape->itemText(index)), -1,
             [&](analysis::LlmRegionSpec& s) {
                 forgetLlmCalibration(s.scenario.step);
                 s.scenario.step.modelConfig = config;
                 // The KV cache is the same model's: its weights and layers size it.
                 if (s.scenario.engine.kvMemory)
                     s.scenario.engine.kvMemory->modelConfig = config;
             });
    });
    connect(m_accelerator, &QComboBox::currentTextChanged, this, [this](const QString& name) {
        auto preset = accel::PresetLibrary::builtIn().accelerator(name.toStdString());
        if (!preset)
            return;
        edit(tr("Set the accelerator to %1").arg(name), -1, [&](analysis::LlmRegionSpec& s) {
            forgetLlmCalibration(s.scenario.step);
            s.scenario.step.accelerator = *preset;
            // A KV cache sized from memory gets the new GPU's memory: the datasheet's GB, which
            // for these parts is binary (an H100's 80 GB; its driver reports 79.1 GiB).
            if (s.scenario.engine.kvMemory && preset->memoryBytes > 0.0)
                s.scenario.engine.kvMemory->deviceMemoryGib = preset->memoryBytes / 1e9;
        });
    });
    connect(m_tensorParallel, &QSpinBox::valueChanged, this, [this](int tp) {
        edit(tr("Set tensor parallelism"), kTensorParallelMerge, [&](analysis::LlmRegionSpec& s) {
            // As the region's tensor_parallel axis: a KV cache sized from memory follows it.
            forgetLlmCalibration(s.scenario.step);
            s.scenario.step.tensorParallel = tp;
            if (s.scenario.engine.kvMemory)
                s.scenario.engine.kvMemory->tensorParallel = tp;
        });
    });
    connect(m_interconnectGbPerS, &QSpinBox::valueChanged, this, [this](int gbPerS) {
        edit(tr("Set the interconnect bandwidth"), kInterconnectMerge,
             [&](analysis::LlmRegionSpec& s) { s.scenario.step.interconnectGbPerS = gbPerS; });
    });
    connect(m_powerCapW, &QSpinBox::valueChanged, this, [this](int watts) {
        edit(tr("Set the power cap"), kPowerMerge, [&](analysis::LlmRegionSpec& s) {
            s.scenario.step.powerCapW = watts > 0 ? std::optional<double>(watts) : std::nullopt;
        });
    });
    connect(m_rateMultiplier, &QDoubleSpinBox::valueChanged, this, [this](double multiplier) {
        edit(tr("Set the load"), kRateMerge,
             [&](analysis::LlmRegionSpec& s) { s.scenario.arrivals.rateMultiplier = multiplier; });
    });
    connect(m_ttftLimitMs, &QDoubleSpinBox::valueChanged, this, [this](double ms) {
        edit(tr("Set the TTFT limit"), kTtftMerge, [&](analysis::LlmRegionSpec& s) {
            s.limits.ttftP99Ms = ms;
            s.scenario.sla.ttftMs = ms;
        });
    });
    connect(m_tpotLimitMs, &QDoubleSpinBox::valueChanged, this, [this](double ms) {
        edit(tr("Set the TPOT limit"), kTpotMerge, [&](analysis::LlmRegionSpec& s) {
            s.limits.tpotP99Ms = ms;
            s.scenario.sla.tpotMs = ms;
        });
    });
    connect(m_itlLimitMs, &QDoubleSpinBox::valueChanged, this, [this](double ms) {
        edit(tr("Set the ITL limit"), kItlMerge,
             [&](analysis::LlmRegionSpec& s) { s.limits.maxItlP99Ms = limitOrNone(ms); });
    });
    connect(m_e2eLimitMs, &QDoubleSpinBox::valueChanged, this, [this](double ms) {
        edit(tr("Set the E2E limit"), kE2eMerge,
             [&](analysis::LlmRegionSpec& s) { s.limits.maxE2eP99Ms = limitOrNone(ms); });
    });

    connect(m_calibrate, &QPushButton::clicked, this, &LlmModelPanel::chooseSweep);

    connect(m_document, &ProjectDocument::projectReset, this, [this] {
        // A calibration of the previous project's server is not this one's.
        if (m_jobs)
            m_jobs->cancel(kCalibrationLane);
        m_calibration->hide();
        loadFromDocument();
    });
    connect(m_document, &ProjectDocument::sectionChanged, this, [this](ProjectSection section) {
        if (section == ProjectSection::Llm)
            loadFromDocument();
    });
    loadFromDocument();
}

QSlider* LlmModelPanel::stepSlider(const std::vector<int>& steps)
{
    auto* slider = new QSlider(Qt::Horizontal, this);
    slider->setRange(0, int(steps.size()) - 1);
    slider->setPageStep(1);
    slider->setTickPosition(QSlider::TicksBelow);
    return slider;
}

template <typename Change>
void LlmModelPanel::edit(const QString& what, int mergeId, Change change)
{
    if (m_loading || !m_spec)
        return;
    analysis::LlmRegionSpec spec = *m_spec;
    change(spec);
    nlohmann::json json = analysis::llmRegionSpecToJson(spec);
    // The project keeps only a spec its readers accept: a refused edit is said and undone.
    if (auto valid = analysis::llmRegionSpecFromJson(json, "Model dock", "llm"); !valid) {
        const analysis::LlmRegionSpec shown = *m_spec;
        m_status->setText(tr("Not applied: %1").arg(QString::fromStdString(valid.error().message)));
        m_status->show();
        showSpec(shown);
        return;
    }
    m_document->setSection(ProjectSection::Llm, std::move(json), what, mergeId);
}

void LlmModelPanel::loadFromDocument()
{
    auto spec = analysis::llmRegionSpecOfProject(m_document->project(),
                                                 m_document->filePath().toStdString());
    if (!spec || !spec->has_value())
        m_calibrate->setEnabled(false); // nothing to calibrate
    if (!spec) {
        m_spec.reset();
        m_status->setText(tr("The project's LLM server cannot be read: %1")
                              .arg(QString::fromStdString(spec.error().toString())));
        m_status->show();
        return;
    }
    if (!spec->has_value()) {
        m_spec.reset();
        m_status->setText(tr("This project studies no LLM server."));
        m_status->show();
        return;
    }
    m_spec = **spec;
    // A summary of a calibration the project no longer carries (undone, forgotten) goes.
    const bool calibrating = m_jobs && m_jobs->isRunning(kCalibrationLane);
    if (!calibrating && !m_shownCalibration.empty() &&
        m_spec->scenario.step.calibratedOn != m_shownCalibration) {
        m_calibration->hide();
        m_shownCalibration.clear();
    }
    m_status->setText(QString::fromStdString(m_spec->scenario.name));
    m_status->setVisible(!m_spec->scenario.name.empty());
    showSpec(*m_spec);
}

void LlmModelPanel::showSpec(const analysis::LlmRegionSpec& spec)
{
    m_loading = true;
    const auto& s = spec.scenario;
    m_policy->setCurrentText(QString::fromStdString(s.engine.policy));
    m_maxNumSeqs->setValue(positionOf(seatSteps(), s.engine.maxNumSeqs));
    m_maxNumSeqsValue->setText(QLocale().toString(s.engine.maxNumSeqs));
    const std::int32_t budget = analysis::llmTokenBudget(s.engine);
    const QString budgetKnob = QString::fromLatin1(analysis::llmTokenBudgetKnob(s.engine));
    m_maxNumBatchedTokens->setValue(positionOf(budgetSteps(), budget));
    m_maxNumBatchedTokensValue->setText(QLocale().toString(budget));
    findChild<QLabel*>(QStringLiteral("tokenBudgetLabel"))->setText(budgetKnob);
    m_maxNumBatchedTokens->setToolTip(
        s.engine.policy == "sglang"
            ? tr("%1: sglang's bound on the prompt tokens of one prefill step (it has no "
                 "max_num_batched_tokens; decodes run in steps of their own)")
                  .arg(budgetKnob)
            : tr("max_num_batched_tokens: the token budget of one engine step (prefill chunks "
                 "and decodes together)"));
    m_chunkedPrefill->setChecked(s.engine.enableChunkedPrefill);
    const bool vllmV1 = s.engine.policy == "vllm_v1";
    m_prefixCacheHits->setEnabled(vllmV1);
    m_prefixCacheHits->setValue(vllmV1 ? 100.0 * s.engine.prefixCacheHitRate : 0.0);
    m_prefixCacheHits->setToolTip(
        vllmV1 ? tr("prefix_cache_hit_rate: the share of each new prompt already in the prefix "
                    "cache (a shared system prompt, earlier turns, prompts sent again); those "
                    "whole blocks are not prefilled. Above none it turns prefix caching on; "
                    "none leaves the cache as it is")
               : tr("Prefix caching is modelled for the vllm_v1 policy only"));
    // Sized from memory, the block count is the simulator's to work out: the field says so
    // instead of showing its minimum.
    m_kvBlocks->setMinimum(s.engine.kvMemory ? 0 : 1);
    m_kvBlocks->setSpecialValueText(s.engine.kvMemory ? tr("sized from memory") : QString());
    m_kvBlocks->setValue(
        s.engine.kvMemory ? 0 : int(std::min<std::int64_t>(s.engine.numGpuBlocks, 1 << 30)));
    m_kvBlocks->setEnabled(!s.engine.kvMemory);
    m_kvBlocks->setToolTip(
        s.engine.kvMemory ? tr("Sized from memory by the scenario (kv_memory)")
                          : tr("KV-cache capacity in blocks of %1 tokens").arg(s.engine.blockSize));
    m_gpuMemoryUtilization->setEnabled(s.engine.kvMemory.has_value());
    m_gpuMemoryUtilization->setValue(s.engine.kvMemory ? s.engine.kvMemory->gpuMemoryUtilization
                                                       : 0.9);
    m_gpuMemoryUtilization->setToolTip(
        s.engine.kvMemory
            ? tr("gpu_memory_utilization: the share of each GPU's memory (%1 GiB) the "
                 "engine may use; the KV cache gets what weights and the runtime leave")
                  .arg(s.engine.kvMemory->deviceMemoryGib)
            : tr("This scenario gives the KV cache as a block count (num_gpu_blocks), "
                 "not sized from memory"));
    const bool roofline = s.step.kind == StepSpec::Kind::Roofline;
    int shape = m_modelShape->findData(QString::fromStdString(s.step.modelConfig));
    if (shape < 0 && !s.step.modelConfig.empty()) {
        m_modelShape->addItem(QString::fromStdString(s.step.modelConfig),
                              QString::fromStdString(s.step.modelConfig));
        shape = m_modelShape->count() - 1;
    }
    m_modelShape->setCurrentIndex(shape);
    m_accelerator->setCurrentText(QString::fromStdString(s.step.accelerator.name));
    m_tensorParallel->setValue(s.step.tensorParallel);
    m_interconnectGbPerS->setValue(int(s.step.interconnectGbPerS));
    m_powerCapW->setValue(s.step.powerCapW ? int(*s.step.powerCapW) : 0);
    for (QWidget* knob : std::initializer_list<QWidget*>{
             m_modelShape, m_accelerator, m_tensorParallel, m_interconnectGbPerS, m_powerCapW})
        knob->setEnabled(roofline);
    m_stepNote->setText(llmStepNote(s.step));
    updateCalibrateButton(s);
    m_rateMultiplier->setValue(s.arrivals.rateMultiplier);
    m_ttftLimitMs->setValue(spec.limits.ttftP99Ms);
    m_tpotLimitMs->setValue(spec.limits.tpotP99Ms);
    m_itlLimitMs->setValue(spec.limits.maxItlP99Ms.value_or(0.0));
    m_e2eLimitMs->setValue(spec.limits.maxE2eP99Ms.value_or(0.0));
    m_loading = false;
}

void LlmModelPanel::updateCalibrateButton(const llmsim::LlmScenario& scenario)
{
    const bool roofline = scenario.step.kind == StepSpec::Kind::Roofline;
    const bool poisson = scenario.arrivals.kind == llmsim::LlmArrivalSpec::Kind::Poisson;
    const bool running = m_jobs && m_jobs->isRunning(kCalibrationLane);
    m_calibrate->setEnabled(roofline && poisson && scenario.arrivals.replicas == 1 && m_jobs &&
                            !running);
    using Kind = llmsim::LlmArrivalSpec::Kind;
    QString why;
    if (!roofline)
        why = tr("Calibrating on a rate sweep needs a roofline step; this scenario's step is "
                 "not one");
    else if (!poisson)
        why = tr("Calibrating on a rate sweep replays each run as Poisson arrivals with the "
                 "scenario's lengths; this scenario's arrivals are %1")
                  .arg(scenario.arrivals.kind == Kind::Replay
                           ? tr("recorded requests, replayed")
                           : tr("fitted to a trace when the run starts"));
    else if (scenario.arrivals.replicas != 1)
        why = tr("Calibrating on a rate sweep compares one server with the sweep; this scenario "
                 "splits its "
                 "arrivals over %1 replicas")
                  .arg(scenario.arrivals.replicas);
    m_calibrate->setToolTip(
        !why.isEmpty() ? why
                       : tr("Calibrate the roofline on a rate sweep: fit η compute, η memory, "
                            "the host time per sequence and the time a request spends outside "
                            "the server to a benchmark client's runs at several request rates "
                            "(vLLM or SGLang results)"));
}

void LlmModelPanel::chooseSweep()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Rate sweep to calibrate on"), QString(),
        tr("LLM benchmark results (*.json *.jsonl *.json.gz);;All files (*)"));
    if (!path.isEmpty())
        calibrateOn(path);
}

void LlmModelPanel::calibrateOn(const QString& path)
{
    if (!m_spec || !m_jobs)
        return;
    m_calibrate->setEnabled(false);
    m_calibration->setText(tr("Calibrating on %1…").arg(QFileInfo(path).fileName()));
    m_calibration->show();
    const QString project = m_document->filePath();
    const std::string base =
        project.isEmpty() ? std::string() : QFileInfo(project).absolutePath().toStdString();
    using Outcome = JobOutcome<llmsim::SweepCalibration>;
    m_jobs->run<Outcome>(
        kCalibrationLane, tr("Calibrating the roofline on a rate sweep"),
        [scenario = m_spec->scenario, file = path.toStdString(),
         base](JobRunner::Context& context) {
            auto c = llmsim::calibrateRooflineOnSweepFile(scenario, file, base, context.cancel,
                                                          context.progress);
            if (!c)
                return Outcome{nullptr, QString::fromStdString(c.error().toString())};
            return Outcome{std::make_shared<const llmsim::SweepCalibration>(std::move(*c)), {}};
        },
        [this, before = asCalibrated(m_spec->scenario)](Outcome outcome) {
            if (m_spec)
                updateCalibrateButton(m_spec->scenario);
            if (!outcome.value) {
                m_calibration->setText(tr("Not calibrated: %1").arg(outcome.error));
                return;
            }
            // The fit answers for the step it started from; a step edited meanwhile is not
            // overwritten with it.
            if (!m_spec || !(asCalibrated(m_spec->scenario) == before)) {
                m_calibration->setText(tr("Not applied: the scenario changed while calibrating; "
                                          "calibrate again."));
                return;
            }
            const llmsim::StepSpec step = outcome.value->fit.step;
            m_shownCalibration = step.calibratedOn; // before the edit reloads the dock
            edit(tr("Calibrate the roofline on %1")
                     .arg(QFileInfo(QString::fromStdString(outcome.value->sweepPath)).fileName()),
                 -1, [&](analysis::LlmRegionSpec& s) { s.scenario.step = step; });
            m_calibration->setText(llmCalibrationSummary(*outcome.value));
            m_calibration->show();
        });
}

} // namespace bs::widgets
