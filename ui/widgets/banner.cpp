#include "widgets/banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace reef::ui {

Banner::Banner(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("banner"));
    setFrameShape(QFrame::StyledPanel);
    auto* l = new QHBoxLayout(this);
    l->setContentsMargins(10, 6, 6, 6);
    m_label = new QLabel;
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close = new QToolButton;
    m_close->setText(QStringLiteral("✕"));
    m_close->setToolTip(tr("Dismiss"));
    m_close->setAutoRaise(true);
    connect(m_close, &QToolButton::clicked, this, &Banner::dismiss);
    l->addWidget(m_label, 1);
    l->addWidget(m_close, 0, Qt::AlignTop);
    hide();
}

void Banner::showMessage(const QString& text, Kind kind, Topic topic) {
    m_kind = kind;
    m_topic = topic;
    m_label->setText(text);
    setStyleSheet(kind == Kind::Error
                      ? QStringLiteral("#banner { background: #fde8e8; border: 1px solid #e0a0a0; } QLabel { color: #7a1010; }")
                      : QStringLiteral("#banner { background: #e8f1fd; border: 1px solid #a0bce0; } QLabel { color: #123a6b; }"));
    show();
}

QString Banner::text() const { return m_label->text(); }

void Banner::dismiss() { hide(); }

void Banner::dismissTopic(Topic topic) {
    if (m_topic == topic) hide();
}

}  // namespace reef::ui
