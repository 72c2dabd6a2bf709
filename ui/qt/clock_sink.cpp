#include <algorithm>

#include "qt/playback_sink.h"

namespace reef::ui {

void ClockSink::setClip(std::vector<float> mono) {
    m_length = int64_t(mono.size());
    m_base = 0;
    m_ended = true;
    m_state = State::Stopped;
}

void ClockSink::beginStream() {
    m_length = 0;
    m_base = 0;
    m_ended = false;
    m_state = State::Stopped;
}

int64_t ClockSink::rawPosition() const {
    if (m_state != State::Playing)
        return m_base;
    return m_base + m_clock.nsecsElapsed() * m_rate / 1000000000LL;
}

int64_t ClockSink::position() const { return std::min(rawPosition(), m_length); }

PlaybackSink::State ClockSink::state() const {
    if (m_state == State::Playing && m_ended && rawPosition() >= m_length)
        return State::Finished;
    return m_state;
}

void ClockSink::play() {
    if (state() == State::Finished)
        m_base = 0;
    else
        m_base = position();
    m_state = State::Playing;
    m_clock.start();
}

void ClockSink::pause() {
    if (m_state != State::Playing)
        return;
    m_base = position();
    m_state = State::Paused;
}

void ClockSink::stop() {
    m_base = 0;
    m_state = State::Stopped;
}

void ClockSink::seek(int64_t frame) {
    m_base = std::clamp<int64_t>(frame, 0, m_length);
    if (m_state == State::Playing)
        m_clock.start();
}

}  // namespace reef::ui
