// The window shell: composes the synthesis editor, settings panel, charts and player bar.
#pragma once
#include <QMainWindow>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace reef::ui {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    QString statusDeviceText() const;
    QPushButton* generateButton() const { return m_generate; }
    QPlainTextEdit* textEdit() const { return m_text; }

public Q_SLOTS:
    void showAbout();

private:
    void setupUi();
    QWidget* createSettingsPanel();
    QWidget* createChartArea();
    QWidget* createPlayerBar();

    QPlainTextEdit* m_text = nullptr;
    QPushButton* m_generate = nullptr;
    QLabel* m_deviceLabel = nullptr;
};

}  // namespace reef::ui
