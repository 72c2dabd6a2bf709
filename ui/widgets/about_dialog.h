#pragma once
#include <QDialog>

class QLabel;

namespace reef::ui {

class AboutDialog : public QDialog {
    Q_OBJECT
public:
    explicit AboutDialog(QWidget* parent = nullptr);
    QString versionsText() const;

private:
    QLabel* m_versions = nullptr;
};

}  // namespace reef::ui
