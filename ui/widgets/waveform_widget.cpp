#include "widgets/waveform_widget.h"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>

#include "reef/engine_types.h"

namespace reef::ui {

namespace {
// The x scale covers at least this many seconds, so a growing stream does not rescale every chunk.
constexpr double kMinSpanSeconds = 5.0;
}

WaveformWidget::WaveformWidget(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(40);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    setToolTip(tr("Click to seek"));
}

void WaveformWidget::setSamples(const std::vector<float>* samples) {
    m_samples = samples;
    update();
}

void WaveformWidget::setPosition(qint64 frame) {
    m_position = frame;
    update();
}

qint64 WaveformWidget::frameAt(int x) const {
    const qint64 n = m_samples ? qint64(m_samples->size()) : 0;
    const qint64 span = std::max<qint64>(n, qint64(kMinSpanSeconds * kSampleRate));
    return std::clamp<qint64>(qint64(double(x) / std::max(1, width()) * double(span)), 0, n);
}

void WaveformWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const int w = width(), h = height(), mid = h / 2;
    p.setPen(palette().mid().color());
    p.drawLine(0, mid, w, mid);
    if (!m_samples || m_samples->empty())
        return;
    const std::vector<float>& s = *m_samples;
    const double span = std::max<double>(double(s.size()), kMinSpanSeconds * kSampleRate);
    const double perPixel = span / std::max(1, w);
    p.setPen(palette().highlight().color());
    for (int x = 0; x < w; ++x) {
        const size_t a = size_t(x * perPixel), b = std::min(s.size(), size_t((x + 1) * perPixel) + 1);
        if (a >= s.size())
            break;
        const auto [lo, hi] = std::minmax_element(s.begin() + ptrdiff_t(a), s.begin() + ptrdiff_t(b));
        p.drawLine(x, mid - int(std::clamp(*hi, -1.0f, 1.0f) * float(mid - 2)), x,
                   mid - int(std::clamp(*lo, -1.0f, 1.0f) * float(mid - 2)));
    }
    const int px = int(double(m_position) / perPixel);
    p.setPen(QPen(QColor(220, 60, 40), 2));
    p.drawLine(px, 0, px, h);
}

void WaveformWidget::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && m_samples && !m_samples->empty())
        Q_EMIT seekRequested(frameAt(int(event->position().x())));
}

}  // namespace reef::ui
