// The player bar's logic: holds the current clip (a take, or the one being generated), streams
// chunks into the sink as they arrive so playback starts while generation goes on, and polls the
// position for the views.
#pragma once
#include <QObject>
#include <QTimer>
#include <memory>
#include <vector>

#include "qt/playback_sink.h"
#include "reef/engine_types.h"

namespace reef::ui {

class PlaybackController : public QObject {
    Q_OBJECT
public:
    explicit PlaybackController(std::unique_ptr<PlaybackSink> sink, QObject* parent = nullptr);
    ~PlaybackController() override;

    const std::vector<float>& samples() const { return m_samples; }
    qint64 position() const;
    qint64 length() const { return qint64(m_samples.size()); }
    bool isPlaying() const;
    bool isStreaming() const { return m_streamId != 0; }
    PlaybackSink& sink() { return *m_sink; }
    void setAutoplay(bool on) { m_autoplay = on; }

public Q_SLOTS:
    void beginStream(quint64 requestId);
    void appendChunk(const reef::AudioChunk& chunk);   // chunks of other requests are ignored
    void endStream();
    void setClip(const std::vector<float>& mono);
    void play();
    void pause();
    void togglePlay();
    void stop();
    void seek(qint64 frame);

Q_SIGNALS:
    void samplesChanged();
    void positionChanged(qint64 frame);
    void playingChanged(bool playing);
    void streamingChanged(bool streaming);
    void playbackError(const QString& reason);

private:
    void poll();
    template <class F>
    bool guarded(F&& f);   // sink exceptions become playbackError

    std::unique_ptr<PlaybackSink> m_sink;
    std::vector<float> m_samples;
    quint64 m_streamId = 0;
    bool m_autoplay = true;
    bool m_autoplayed = false;
    bool m_wasPlaying = false;
    bool m_reportedError = false;
    qint64 m_lastPosition = -1;
    QTimer m_poll;
};

}  // namespace reef::ui
