// What PlaybackController drives: the app adapts reef::audio::AudioPlayer to it (audio_player_sink),
// tests and machines with no sound card use ClockSink, which only keeps time.
#pragma once
#include <QElapsedTimer>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <vector>

namespace reef::ui {

class PlaybackSink {
public:
    enum class State { Stopped, Playing, Paused, Finished };
    virtual ~PlaybackSink() = default;
    virtual void setClip(std::vector<float> mono) = 0;   // whole clip, rewinds
    virtual void beginStream() = 0;                       // empty clip that grows with append()
    virtual void append(const std::vector<float>& mono) = 0;
    virtual void endStream() = 0;
    // Transport; play() may throw std::exception with a user-facing reason (no audio device).
    virtual void play() = 0;
    virtual void pause() = 0;
    virtual void stop() = 0;
    virtual void seek(int64_t frame) = 0;
    virtual State state() const = 0;
    virtual int64_t position() const = 0;   // frames played
    virtual int64_t length() const = 0;
    virtual QStringList devices() { return {}; }
    virtual void openDevice(const QString& /*name*/) {}
};

// Keeps time like a sound card would, without one: position advances with the wall clock.
class ClockSink : public PlaybackSink {
public:
    explicit ClockSink(int sampleRate = 44100) : m_rate(sampleRate) {}
    void setClip(std::vector<float> mono) override;
    void beginStream() override;
    void append(const std::vector<float>& mono) override { m_length += int64_t(mono.size()); }
    void endStream() override { m_ended = true; }
    void play() override;
    void pause() override;
    void stop() override;
    void seek(int64_t frame) override;
    State state() const override;
    int64_t position() const override;
    int64_t length() const override { return m_length; }

private:
    int64_t rawPosition() const;
    int m_rate;
    int64_t m_length = 0;
    int64_t m_base = 0;   // position when the clock last (re)started
    bool m_ended = false;
    State m_state = State::Stopped;
    QElapsedTimer m_clock;
};

// The real device when this build has reef::audio::AudioPlayer; null if it cannot be created.
std::unique_ptr<PlaybackSink> makeDeviceSink(QString* whyNot);

}  // namespace reef::ui
