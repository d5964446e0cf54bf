#pragma once

#include "panels/sliderscale.h"

#include <QWidget>

class QDoubleSpinBox;
class QLabel;
class QSlider;

namespace bs::widgets {

/// One model or scenario parameter as a slider with a spin box and its unit. The slider may be
/// logarithmic (batch sizes, rates, latencies span decades; SliderScale maps it). Edits report a
/// drag id: every value of one slider drag carries the same id, so the undo stack merges the drag
/// into one step, while each spin-box step or slider click is its own step.
class ParameterControl : public QWidget
{
    Q_OBJECT
public:
    struct Spec
    {
        QString label;
        QString unit;
        double minimum = 0.0;
        double maximum = 100.0;
        int decimals = 0;
        bool logarithmic = false;
        double step = 1.0;
        QString toolTip;
        /// Logarithmic with minimum 0: the smallest positive value on the slider (0 keeps
        /// the first position).
        double logFloor = 0.0;
    };

    explicit ParameterControl(const Spec& spec, QWidget* parent = nullptr);

    double value() const;
    /// Sets the value without emitting valueEdited (loading from the project, undo).
    void setValue(double value);
    /// The value as the spin box shows it: clamped to the range, rounded to the decimals. An
    /// edit equal to displayed(saved) is the user retyping what they see, not a new value.
    double displayed(double value) const;
    QSlider* slider() const { return m_slider; }
    QDoubleSpinBox* spinBox() const { return m_spin; }
    const Spec& spec() const { return m_spec; }
    const SliderScale& scale() const { return m_scale; }

Q_SIGNALS:
    void valueEdited(double value, int dragId);

private:
    void emitEdit(double value);

    Spec m_spec;
    SliderScale m_scale;
    QSlider* m_slider;
    QDoubleSpinBox* m_spin;
    bool m_dragging = false;
    int m_dragId = 0;
    bool m_loading = false;
    static int s_nextDragId;
};

} // namespace bs::widgets
