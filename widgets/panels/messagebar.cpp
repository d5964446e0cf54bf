#include "panels/messagebar.h"

#include "models/displaytext.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace bs::widgets {

MessageBar::MessageBar(QWidget* parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_label(new QLabel(this))
    , m_close(new QToolButton(this))
{
    setObjectName(QStringLiteral("messageBar"));
    setFrameShape(QFrame::StyledPanel);
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_label->setTextFormat(Qt::PlainText); // file-supplied text is never interpreted as HTML
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setToolTip(tr("Dismiss"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(m_icon);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    connect(m_close, &QToolButton::clicked, this, &MessageBar::clearMessage);
    hide();
}

void MessageBar::showMessage(Kind kind, const QString& text)
{
    m_kind = kind;
    // Messages quote file names and lines of files other people send.
    m_label->setText(displayText(text, TextLines::Many));
    applyStyle();
    show();
}

void MessageBar::clearMessage()
{
    m_label->clear();
    hide();
}

QString MessageBar::text() const
{
    return m_label->text();
}

void MessageBar::applyStyle()
{
    QStyle::StandardPixmap icon = QStyle::SP_MessageBoxInformation;
    QString colour = QStringLiteral("#2f6fb0");
    if (m_kind == Kind::Warning) {
        icon = QStyle::SP_MessageBoxWarning;
        colour = QStringLiteral("#b07d1a");
    } else if (m_kind == Kind::Error) {
        icon = QStyle::SP_MessageBoxCritical;
        colour = QStringLiteral("#b0302f");
    }
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(style()->standardIcon(icon).pixmap(size, size));
    setStyleSheet(QStringLiteral("QFrame#messageBar { border: 1px solid %1; border-radius: 4px; }")
                      .arg(colour));
}

} // namespace bs::widgets
