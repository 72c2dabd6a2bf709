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
    explicit Banner(QWidget* parent = nullptr);
    void showMessage(const QString& text, Kind kind);
    QString text() const;
    Kind kind() const { return m_kind; }

public Q_SLOTS:
    void dismiss();

private:
    QLabel* m_label = nullptr;
    QToolButton* m_close = nullptr;
    Kind m_kind = Kind::Info;
};

}  // namespace reef::ui
