#include "panels/parametercontrol.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>

#include <cmath>

namespace bs::widgets {

namespace {
constexpr int kSliderSteps = 1000;
}

int ParameterControl::s_nextDragId = 1;

ParameterControl::ParameterControl(const Spec& spec, QWidget* parent)
    : QWidget(parent)
    , m_spec(spec)
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_spin(new QDoubleSpinBox(this))
{
    m_slider->setRange(0, kSliderSteps);
    m_slider->setToolTip(spec.toolTip);
    m_spin->setRange(spec.minimum, spec.maximum);
    m_spin->setDecimals(spec.decimals);
    m_spin->setSingleStep(spec.step);
    m_spin->setKeyboardTracking(false); // one edit when typing ends, not one per keystroke
    m_spin->setAccelerated(true);
    if (!spec.unit.isEmpty())
        m_spin->setSuffix(QLatin1Char(' ') + spec.unit);
    m_spin->setToolTip(spec.toolTip);
    m_spin->setMinimumWidth(110);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_spin);

    connect(m_slider, &QSlider::sliderPressed, this, [this]() {
        m_dragging = true;
        m_dragId = s_nextDragId++;
    });
    connect(m_slider, &QSlider::sliderReleased, this, [this]() { m_dragging = false; });
    connect(m_slider, &QSlider::valueChanged, this, [this](int position) {
        if (m_loading)
            return;
        double value = fromSlider(position);
        if (m_spec.decimals == 0)
            value = std::round(value);
        m_loading = true;
        m_spin->setValue(value);
        m_loading = false;
        emitEdit(m_spin->value());
    });
    connect(m_spin, &QDoubleSpinBox::valueChanged, this, [this](double value) {
        if (m_loading)
            return;
        m_loading = true;
        m_slider->setValue(toSlider(value));
        m_loading = false;
        emitEdit(value);
    });
}

void ParameterControl::emitEdit(double value)
{
    // Outside a drag every edit is its own undo step.
    const int id = m_dragging ? m_dragId : s_nextDragId++;
    Q_EMIT valueEdited(value, id);
}

double ParameterControl::value() const
{
    return m_spin->value();
}

void ParameterControl::setValue(double value)
{
    m_loading = true;
    m_spin->setValue(value);
    m_slider->setValue(toSlider(m_spin->value()));
    m_loading = false;
}

int ParameterControl::toSlider(double value) const
{
    double t = 0.0;
    if (m_spec.logarithmic && m_spec.minimum > 0) {
        t = std::log(value / m_spec.minimum) / std::log(m_spec.maximum / m_spec.minimum);
    } else if (m_spec.maximum > m_spec.minimum) {
        t = (value - m_spec.minimum) / (m_spec.maximum - m_spec.minimum);
    }
    return int(std::lround(std::clamp(t, 0.0, 1.0) * kSliderSteps));
}

double ParameterControl::fromSlider(int position) const
{
    const double t = double(position) / kSliderSteps;
    if (m_spec.logarithmic && m_spec.minimum > 0)
        return m_spec.minimum * std::pow(m_spec.maximum / m_spec.minimum, t);
    return m_spec.minimum + t * (m_spec.maximum - m_spec.minimum);
}

} // namespace bs::widgets
