// Paints a clip's min/max envelope with a playhead; a click seeks.
#pragma once
#include <QWidget>
#include <vector>

namespace reef::ui {

class WaveformWidget : public QWidget {
    Q_OBJECT
public:
    explicit WaveformWidget(QWidget* parent = nullptr);
    void setSamples(const std::vector<float>* samples);   // not owned; repainted on update()
    void setPosition(qint64 frame);
    QSize sizeHint() const override { return {400, 56}; }

Q_SIGNALS:
    void seekRequested(qint64 frame);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    qint64 frameAt(int x) const;
    const std::vector<float>* m_samples = nullptr;
    qint64 m_position = 0;
};

}  // namespace reef::ui
