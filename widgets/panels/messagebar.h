#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace bs::widgets {

/// An inline message strip (errors with file and line, warnings, notices) shown above a page
/// instead of a modal box. Hidden until a message arrives; the user closes it.
class MessageBar : public QFrame
{
    Q_OBJECT
public:
    enum class Kind
    {
        Information,
        Warning,
        Error,
    };

    explicit MessageBar(QWidget* parent = nullptr);

    void showMessage(Kind kind, const QString& text);
    void showError(const QString& text) { showMessage(Kind::Error, text); }
    void clearMessage();

    QString text() const;
    Kind kind() const { return m_kind; }

private:
    void applyStyle();

    QLabel* m_icon;
    QLabel* m_label;
    QToolButton* m_close;
    Kind m_kind = Kind::Information;
};

} // namespace bs::widgets
