// A dismissable message strip at the top of the window (load errors, the demo-model notice).
#pragma once
#include <QFrame>

class QLabel;
class QToolButton;

namespace reef::ui {

class Banner : public QFrame {
    Q_OBJECT
public:
    enum class Kind { Info, Error };
    // What a message is about, so the event that makes it out of date can take it away (a
    // synthesis failure goes when the next synthesis starts; a load error when a model loads).
    enum class Topic { General, Synthesis, Model };
    explicit Banner(QWidget* parent = nullptr);
    void showMessage(const QString& text, Kind kind, Topic topic = Topic::General);
    QString text() const;
    Kind kind() const { return m_kind; }
    Topic topic() const { return m_topic; }
    // Hides the banner when it shows a message about `topic`; others stay.
    void dismissTopic(Topic topic);

public Q_SLOTS:
    void dismiss();

private:
    QLabel* m_label = nullptr;
    QToolButton* m_close = nullptr;
    Kind m_kind = Kind::Info;
    Topic m_topic = Topic::General;
};

}  // namespace reef::ui
