#include "views/sweepview.h"

#include "charts/chartpanel.h"
#include "document/projectdocument.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>

namespace bs::widgets {

SweepView::SweepView(ProjectDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_xAxis(new QComboBox(this))
    , m_logX(new QCheckBox(tr("Log x"), this))
    , m_logY(new QCheckBox(tr("Log y"), this))
    , m_caption(new QLabel(this))
{
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::PlainText);
    m_xAxis->addItem(tr("Batch size"), int(SweepXAxis::BatchSize));
    m_xAxis->addItem(tr("Concurrency"), int(SweepXAxis::Concurrency));
    m_xAxis->addItem(tr("Offered load"), int(SweepXAxis::RequestRate));
    m_logX->setChecked(true);

    auto* bar = new QHBoxLayout;
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
    layout->addWidget(m_caption);
    layout->addLayout(grid, 1);

    connect(m_xAxis, &QComboBox::activated, this, [this]() {
        m_userPickedAxis = true;
        refresh();
    });
    connect(m_logX, &QCheckBox::toggled, this, &SweepView::refresh);
    connect(m_logY, &QCheckBox::toggled, this, &SweepView::refresh);
    connect(m_document, &ProjectDocument::datasetsChanged, this, &SweepView::refresh);
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
            out.append({QString::fromStdString(dataset.name), dataset.role, table});
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
    return options;
}

void SweepView::setOverlays(QList<SweepOverlay> overlays)
{
    m_overlays = std::move(overlays);
    QStringList lines;
    for (const SweepOverlay& overlay : std::as_const(m_overlays)) {
        if (!overlay.description.isEmpty())
            lines << overlay.description;
    }
    m_caption->setText(lines.join(QLatin1Char('\n')));
    m_caption->setVisible(!lines.isEmpty());
    refresh();
}

void SweepView::setLimits(std::optional<double> slaP99Ms, std::optional<double> powerCapW)
{
    m_slaP99Ms = slaP99Ms;
    m_powerCapW = powerCapW;
    refresh();
}

void SweepView::refresh()
{
    const QList<SweepInput> inputs = sweeps();
    if (!m_userPickedAxis) {
        const int index = m_xAxis->findData(int(suggestedXAxis(inputs)));
        m_xAxis->setCurrentIndex(std::max(index, 0));
    }
    const SweepChartOptions opts = options();
    m_panels[0]->setContent(sweepThroughputChart(inputs, m_overlays, opts));
    m_panels[1]->setContent(sweepLatencyChart(inputs, m_overlays, opts));
    m_panels[2]->setContent(sweepEnergyChart(inputs, m_overlays, opts));
    m_panels[3]->setContent(sweepPowerChart(inputs, m_overlays, opts));
}

} // namespace bs::widgets
