#include "panels/parametercontrol.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>

#include <algorithm>
#include <cmath>

namespace bs::widgets {

int ParameterControl::s_nextDragId = 1;

ParameterControl::ParameterControl(const Spec& spec, QWidget* parent)
    : QWidget(parent)
    , m_spec(spec)
    , m_scale{spec.minimum, spec.maximum, spec.logarithmic, spec.logFloor}
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_spin(new QDoubleSpinBox(this))
{
    m_slider->setRange(0, m_scale.maximumPosition());
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
        double value = m_scale.toValue(position);
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
        m_slider->setValue(m_scale.toPosition(value));
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

double ParameterControl::displayed(double value) const
{
    // QDoubleSpinBox rounds through this very text form.
    return QString::number(std::clamp(value, m_spec.minimum, m_spec.maximum), 'f', m_spec.decimals)
        .toDouble();
}

void ParameterControl::setValue(double value)
{
    m_loading = true;
    m_spin->setValue(value);
    m_slider->setValue(m_scale.toPosition(m_spin->value()));
    m_loading = false;
}

} // namespace bs::widgets
