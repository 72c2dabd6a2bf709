#include "widgets/player_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

#include "qt/playback_controller.h"
#include "reef/engine_types.h"
#include "widgets/waveform_widget.h"

namespace reef::ui {
namespace {
QString clock(qint64 frames) {
    const double s = double(frames) / kSampleRate;
    return QStringLiteral("%1:%2").arg(int(s) / 60).arg(s - 60 * (int(s) / 60), 4, 'f', 1, QLatin1Char('0'));
}
}  // namespace

PlayerBar::PlayerBar(PlaybackController& playback, QWidget* parent) : QWidget(parent), m_playback(playback) {
    auto* l = new QHBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    m_play = new QPushButton(tr("Play"));
    m_play->setObjectName(QStringLiteral("playButton"));
    m_wave = new WaveformWidget;
    m_wave->setSamples(&playback.samples());
    m_time = new QLabel;
    m_time->setMinimumWidth(110);
    m_export = new QPushButton(tr("Export…"));
    m_export->setObjectName(QStringLiteral("exportWavButton"));
    l->addWidget(m_play);
    l->addWidget(m_wave, 1);
    l->addWidget(m_time);
    l->addWidget(m_export);

    connect(m_play, &QPushButton::clicked, &playback, &PlaybackController::togglePlay);
    connect(m_export, &QPushButton::clicked, this, &PlayerBar::exportRequested);
    connect(m_wave, &WaveformWidget::seekRequested, &playback, &PlaybackController::seek);
    connect(&playback, &PlaybackController::samplesChanged, this, &PlayerBar::refresh);
    connect(&playback, &PlaybackController::positionChanged, this, [this](qint64 pos) {
        m_wave->setPosition(pos);
        refresh();
    });
    connect(&playback, &PlaybackController::playingChanged, this, &PlayerBar::refresh);
    connect(&playback, &PlaybackController::streamingChanged, this, &PlayerBar::refresh);
    refresh();
}

QString PlayerBar::timeText() const { return m_time->text(); }

void PlayerBar::refresh() {
    const bool has = m_playback.length() > 0;
    m_play->setEnabled(has);
    m_export->setEnabled(has && !m_playback.isStreaming());
    m_play->setText(m_playback.isPlaying() ? tr("Pause") : tr("Play"));
    m_time->setText(QStringLiteral("%1 / %2").arg(clock(m_playback.position()), clock(m_playback.length())));
    m_wave->update();
}

}  // namespace reef::ui
