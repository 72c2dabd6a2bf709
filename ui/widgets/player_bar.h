// Play/pause, waveform with seek, time, Export (WAV, FLAC, Ogg, MP3). Driven by a PlaybackController.
#pragma once
#include <QWidget>

class QLabel;
class QPushButton;

namespace reef::ui {

class PlaybackController;
class WaveformWidget;

class PlayerBar : public QWidget {
    Q_OBJECT
public:
    explicit PlayerBar(PlaybackController& playback, QWidget* parent = nullptr);
    QPushButton* playButton() const { return m_play; }
    QPushButton* exportButton() const { return m_export; }
    WaveformWidget* waveform() const { return m_wave; }
    QString timeText() const;

Q_SIGNALS:
    void exportRequested();

private:
    void refresh();
    PlaybackController& m_playback;
    QPushButton* m_play = nullptr;
    QPushButton* m_export = nullptr;
    WaveformWidget* m_wave = nullptr;
    QLabel* m_time = nullptr;
};

}  // namespace reef::ui
