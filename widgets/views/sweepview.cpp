#include "views/sweepview.h"

#include "charts/chartpanel.h"
#include "document/projectdocument.h"
#include "models/displaytext.h"
#include "playbook/playbookstate.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>

namespace bs::widgets {

namespace {

/// The delta charts, in panel order.
constexpr SweepDeltaMetric kDeltaPanels[] = {
    SweepDeltaMetric::Throughput, SweepDeltaMetric::LatencyP99, SweepDeltaMetric::LatencyP50,
    SweepDeltaMetric::EnergyPerInference};

/// The first sweep dataset with `role`, or null.
const data::Dataset* sweepWithRole(const data::Project& project, data::DatasetRole role)
{
    for (const auto& dataset : project.datasets) {
        if (dataset.role == role && dataset.sweep())
            return &dataset;
    }
    return nullptr;
}

} // namespace

SweepView::SweepView(ProjectDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_display(new QComboBox(this))
    , m_deltaScale(new QComboBox(this))
    , m_deltaScaleLabel(new QLabel(tr("Δ as:"), this))
    , m_xAxis(new QComboBox(this))
    , m_logX(new QCheckBox(tr("Log x"), this))
    , m_logY(new QCheckBox(tr("Log y"), this))
    , m_deltaMessage(new QLabel(this))
    , m_caption(new QLabel(this))
    , m_recommendationNote(new QLabel(this))
    , m_whyNoRecommendation(tr("The recommended point is computed in the <a href=\"region\">Region "
                               "tab</a> for the Model dock's scenario; open it to place the point "
                               "here."))
{
    m_display->setObjectName(QStringLiteral("sweepDisplay"));
    m_display->addItem(tr("Overlay"), int(Display::Overlay));
    m_display->addItem(tr("Δ Candidate − baseline"), int(Display::Delta));
    m_display->setToolTip(tr("Overlay every sweep, or chart the candidate minus the baseline "
                             "point by point (roles are set in the Datasets dock)"));
    m_deltaScale->setObjectName(QStringLiteral("sweepDeltaScale"));
    m_deltaScale->addItem(tr("Absolute"), int(DeltaScale::Absolute));
    m_deltaScale->addItem(tr("Relative (%)"), int(DeltaScale::Relative));
    m_deltaScale->setToolTip(tr("Change in the metric's unit, or in percent of the baseline"));
    m_deltaMessage->setObjectName(QStringLiteral("sweepDeltaMessage"));
    m_deltaMessage->setWordWrap(true);
    m_deltaMessage->setTextFormat(Qt::PlainText);
    m_deltaMessage->setFrameShape(QFrame::StyledPanel);
    m_deltaMessage->setMargin(6);
    m_deltaMessage->hide();
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::PlainText);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_recommendationNote->setObjectName(QStringLiteral("sweepRecommendation"));
    m_recommendationNote->setWordWrap(true);
    m_recommendationNote->setTextFormat(Qt::RichText);
    m_recommendationNote->setTextInteractionFlags(Qt::TextBrowserInteraction);
    connect(m_recommendationNote, &QLabel::linkActivated, this, &SweepView::regionRequested);
    m_xAxis->addItem(tr("Batch size"), int(SweepXAxis::BatchSize));
    m_xAxis->addItem(tr("Concurrency"), int(SweepXAxis::Concurrency));
    m_xAxis->addItem(tr("Offered load"), int(SweepXAxis::RequestRate));
    m_logX->setChecked(true);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Show:"), this));
    bar->addWidget(m_display);
    bar->addWidget(m_deltaScaleLabel);
    bar->addWidget(m_deltaScale);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("Against:"), this));
    bar->addWidget(m_xAxis);
    bar->addWidget(m_logX);
    bar->addWidget(m_logY);
    bar->addStretch(1);

    auto* grid = new QGridLayout;
    for (int i = 0; i < 4; ++i) {
        auto* panel = new ChartPanel(this);
        m_panels.append(panel);
        grid->addWidget(panel, i / 2, i % 2);
    }
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_deltaMessage);
    layout->addWidget(m_caption);
    layout->addWidget(m_recommendationNote);
    layout->addLayout(grid, 1);

    connect(m_display, &QComboBox::activated, this, &SweepView::refresh);
    connect(m_deltaScale, &QComboBox::activated, this, &SweepView::refresh);
    connect(m_xAxis, &QComboBox::activated, this, [this]() {
        m_userPickedAxis = true;
        refresh();
    });
    connect(m_logX, &QCheckBox::toggled, this, &SweepView::refresh);
    connect(m_logY, &QCheckBox::toggled, this, &SweepView::refresh);
    connect(m_document, &ProjectDocument::datasetsChanged, this, &SweepView::refresh);
    // The playbook's practical threshold decides what the Δ tooltips call significant.
    connect(m_document, &ProjectDocument::sectionChanged, this, [this](ProjectSection section) {
        if (section == ProjectSection::Playbook && display() == Display::Delta)
            refresh();
    });
    connect(m_document, &ProjectDocument::projectReset, this, [this]() {
        m_userPickedAxis = false;
        refresh();
    });
    refresh();
}

QList<SweepInput> SweepView::sweeps() const
{
    QList<SweepInput> out;
    for (const auto& dataset : m_document->project().datasets) {
        if (auto table = dataset.sweep())
            out.append({displayText(dataset.name), dataset.role, table});
    }
    return out;
}

SweepChartOptions SweepView::options() const
{
    SweepChartOptions options;
    options.xAxis = SweepXAxis(m_xAxis->currentData().toInt());
    options.logX = m_logX->isChecked();
    options.logY = m_logY->isChecked();
    options.slaP99Ms = m_slaP99Ms;
    options.powerCapW = m_powerCapW;
    options.recommendation = m_recommendation;
    return options;
}

SweepView::Display SweepView::display() const
{
    return Display(m_display->currentData().toInt());
}

void SweepView::setDisplay(Display display)
{
    m_display->setCurrentIndex(m_display->findData(int(display)));
    refresh();
}

DeltaScale SweepView::deltaScale() const
{
    return DeltaScale(m_deltaScale->currentData().toInt());
}

void SweepView::setDeltaScale(DeltaScale scale)
{
    m_deltaScale->setCurrentIndex(m_deltaScale->findData(int(scale)));
    refresh();
}

std::optional<SweepDeltaInput> SweepView::deltaInput() const
{
    const data::Project& project = m_document->project();
    const data::Dataset* baseline = sweepWithRole(project, data::DatasetRole::Baseline);
    const data::Dataset* candidate = sweepWithRole(project, data::DatasetRole::Candidate);
    if (!baseline || !candidate)
        return std::nullopt;
    const auto state = playbook::playbookStateFromJson(project.playbook);
    const double practicalDelta =
        state ? state->options.practicalDelta : playbook::PlaybookOptions{}.practicalDelta;
    return SweepDeltaInput{
        displayText(baseline->name), displayText(candidate->name),
        playbook::sweepDeltas(*baseline->sweep(), *candidate->sweep(), practicalDelta)};
}

void SweepView::setOverlays(QList<SweepOverlay> overlays)
{
    m_overlays = std::move(overlays);
    m_overlayCaption.clear();
    for (const SweepOverlay& overlay : std::as_const(m_overlays)) {
        if (!overlay.description.isEmpty())
            m_overlayCaption << overlay.description;
    }
    refresh();
}

void SweepView::setLimits(std::optional<double> slaP99Ms, std::optional<double> powerCapW)
{
    // The workbench sets the limits with every result; redrawing the four charts for limits
    // that did not move would double the cost of each slider step.
    if (slaP99Ms == m_slaP99Ms && powerCapW == m_powerCapW)
        return;
    m_slaP99Ms = slaP99Ms;
    m_powerCapW = powerCapW;
    refresh();
}

void SweepView::setRecommendation(std::optional<SweepRecommendation> recommendation,
                                  const QString& whyNoneHtml)
{
    // Every Model-dock edit withdraws the point: while there is none, redrawing the four charts
    // again on each slider step would only double the workbench's redraw cost.
    if (!recommendation && !m_recommendation && whyNoneHtml == m_whyNoRecommendation)
        return;
    m_recommendation = std::move(recommendation);
    m_whyNoRecommendation = whyNoneHtml;
    refresh();
}

QString SweepView::recommendationNoteHtml(SweepXAxis xAxis) const
{
    if (!m_recommendation)
        return m_whyNoRecommendation;
    QString text = sweepRecommendationText(*m_recommendation).toHtmlEscaped();
    if (xAxis == SweepXAxis::Concurrency)
        text += tr(" Not drawn against concurrency, which a batching policy does not set: show "
                   "the charts against batch size or offered load to see it.");
    else
        text += tr(" Drawn as the large yellow marker, at %1.")
                    .arg(xAxis == SweepXAxis::BatchSize ? tr("its max batch")
                                                        : tr("its offered load per server"));
    return text;
}

void SweepView::refresh()
{
    const QList<SweepInput> inputs = sweeps();
    if (!m_userPickedAxis) {
        const int index = m_xAxis->findData(int(suggestedXAxis(inputs)));
        m_xAxis->setCurrentIndex(std::max(index, 0));
    }
    const bool delta = display() == Display::Delta;
    m_deltaScaleLabel->setVisible(delta);
    m_deltaScale->setVisible(delta);
    // A change can be negative: the Δ charts keep a linear y axis.
    m_logY->setEnabled(!delta);
    if (delta)
        refreshDelta(options());
    else
        refreshOverlay(options());
}

void SweepView::refreshOverlay(const SweepChartOptions& opts)
{
    m_deltaMessage->hide();
    m_recommendationNote->setText(recommendationNoteHtml(opts.xAxis));
    m_recommendationNote->setVisible(!m_recommendationNote->text().isEmpty());
    m_caption->setText(m_overlayCaption.join(QLatin1Char('\n')));
    m_caption->setVisible(!m_overlayCaption.isEmpty());
    const QList<SweepInput> inputs = sweeps();
    m_panels[0]->setContent(sweepThroughputChart(inputs, m_overlays, opts));
    m_panels[1]->setContent(sweepLatencyChart(inputs, m_overlays, opts));
    m_panels[2]->setContent(sweepEnergyChart(inputs, m_overlays, opts));
    m_panels[3]->setContent(sweepPowerChart(inputs, m_overlays, opts));
}

void SweepView::refreshDelta(const SweepChartOptions& opts)
{
    m_recommendationNote->hide();
    const std::optional<SweepDeltaInput> input = deltaInput();
    // Without a pair the charts stay empty (with a short pointer) and the message explains.
    const SweepDeltaInput none;
    const playbook::SweepDeltas& deltas = input ? input->deltas : none.deltas;
    const SweepXAxis xAxis = sweepDeltaXAxis(deltas, opts.xAxis);
    for (int i = 0; i < 4; ++i) {
        ChartContent content =
            sweepDeltaChart(input ? *input : none, kDeltaPanels[i], deltaScale(), xAxis, opts.logX);
        if (!input) {
            content.emptyText = tr("No baseline and candidate sweep to compare.");
            content.references.clear(); // no "No change" line over nothing
        }
        m_panels[i]->setContent(content);
    }
    m_deltaMessage->setText(input ? QString() : missingPairText());
    m_deltaMessage->setVisible(!input);
    QStringList caption;
    if (input) {
        caption = sweepDeltaNotes(*input);
        if (xAxis == SweepXAxis::Concurrency && opts.xAxis != SweepXAxis::Concurrency)
            caption << tr("Drawn against concurrency: every matched point has the same batch "
                          "size.");
        else if (xAxis != opts.xAxis && opts.xAxis == SweepXAxis::RequestRate)
            caption << tr("Drawn against batch size: offered load is not a matching key (it is "
                          "usually set from each side's own capacity, so it differs by design).");
        else if (xAxis != opts.xAxis)
            caption << tr("Drawn against batch size: the two sweeps do not both report a "
                          "concurrency.");
    }
    m_caption->setText(caption.join(QLatin1Char('\n')));
    m_caption->setVisible(!caption.isEmpty());
}

QString SweepView::missingPairText() const
{
    const data::Project& project = m_document->project();
    const bool baseline = sweepWithRole(project, data::DatasetRole::Baseline) != nullptr;
    const bool candidate = sweepWithRole(project, data::DatasetRole::Candidate) != nullptr;
    const QString how =
        tr("In the Datasets dock, select a sweep and set its role to Baseline, then select "
           "another and set its role to Candidate.");
    if (sweeps().size() < 2)
        return tr("The Δ display compares two sweeps, and %n sweep(s) are loaded. Import the "
                  "baseline and candidate sweeps (File ▸ Import…), then set their roles. ",
                  nullptr, int(sweeps().size())) +
               how;
    if (!baseline && !candidate)
        return tr("No sweep has the Baseline or Candidate role. ") + how;
    return (baseline ? tr("No sweep has the Candidate role. ")
                     : tr("No sweep has the Baseline role. ")) +
           how;
}

} // namespace bs::widgets
