#include "qt/playback_controller.h"

#include <algorithm>
#include <exception>

namespace reef::ui {

PlaybackController::PlaybackController(std::unique_ptr<PlaybackSink> sink, QObject* parent)
    : QObject(parent), m_sink(sink ? std::move(sink) : std::make_unique<ClockSink>()) {
    m_poll.setInterval(33);   // ~30 Hz playhead
    connect(&m_poll, &QTimer::timeout, this, &PlaybackController::poll);
}

PlaybackController::~PlaybackController() {
    guarded([&] { m_sink->stop(); });
}

template <class F>
bool PlaybackController::guarded(F&& f) {
    try {
        f();
        return true;
    } catch (const std::exception& e) {
        // One message per clip: a missing sound card should not repeat on every chunk.
        if (!m_reportedError)
            Q_EMIT playbackError(QString::fromStdString(e.what()));
        m_reportedError = true;
        return false;
    }
}

qint64 PlaybackController::position() const { return qint64(m_sink->position()); }

bool PlaybackController::isPlaying() const { return m_sink->state() == PlaybackSink::State::Playing; }

void PlaybackController::beginStream(quint64 requestId) {
    m_streamId = requestId;
    m_autoplayed = false;
    m_reportedError = false;
    m_samples.clear();
    guarded([&] { m_sink->beginStream(); });
    Q_EMIT streamingChanged(true);
    Q_EMIT samplesChanged();
    poll();
}

void PlaybackController::appendChunk(const reef::AudioChunk& chunk) {
    if (chunk.request_id != m_streamId || m_streamId == 0)
        return;
    // Chunks arrive in order; a gap (first_sample beyond the end) is filled with silence.
    std::vector<float> add;
    if (chunk.first_sample > int64_t(m_samples.size()))
        add.assign(size_t(chunk.first_sample - int64_t(m_samples.size())), 0.0f);
    const size_t skip = chunk.first_sample < int64_t(m_samples.size()) ? size_t(int64_t(m_samples.size()) - chunk.first_sample) : 0;
    if (skip < chunk.samples.size())
        add.insert(add.end(), chunk.samples.begin() + ptrdiff_t(skip), chunk.samples.end());
    m_samples.insert(m_samples.end(), add.begin(), add.end());
    guarded([&] { m_sink->append(add); });
    Q_EMIT samplesChanged();
    if (m_autoplay && !m_autoplayed && !add.empty()) {
        m_autoplayed = true;
        play();
    }
    if (chunk.last)
        endStream();
}

void PlaybackController::endStream() {
    if (!m_streamId)
        return;
    m_streamId = 0;
    guarded([&] { m_sink->endStream(); });
    Q_EMIT streamingChanged(false);
}

void PlaybackController::setClip(const std::vector<float>& mono) {
    if (m_streamId) {
        m_streamId = 0;
        Q_EMIT streamingChanged(false);
    }
    m_reportedError = false;
    m_samples = mono;
    guarded([&] { m_sink->setClip(mono); });
    Q_EMIT samplesChanged();
    poll();
}

void PlaybackController::play() {
    if (m_samples.empty() && !isStreaming())
        return;
    if (guarded([&] { m_sink->play(); }))
        m_poll.start();
    poll();
}

void PlaybackController::pause() {
    guarded([&] { m_sink->pause(); });
    poll();
}

void PlaybackController::togglePlay() { isPlaying() ? pause() : play(); }

void PlaybackController::stop() {
    guarded([&] { m_sink->stop(); });
    poll();
}

void PlaybackController::seek(qint64 frame) {
    guarded([&] { m_sink->seek(std::clamp<qint64>(frame, 0, length())); });
    poll();
}

void PlaybackController::poll() {
    const bool playing = isPlaying();
    const qint64 pos = position();
    if (pos != m_lastPosition) {
        m_lastPosition = pos;
        Q_EMIT positionChanged(pos);
    }
    if (playing != m_wasPlaying) {
        m_wasPlaying = playing;
        Q_EMIT playingChanged(playing);
    }
    if (!playing)
        m_poll.stop();
}

}  // namespace reef::ui
