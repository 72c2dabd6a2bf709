#include "cli_playback.h"

#include <cstdio>

#include "cli_engine.h"

namespace reef::cli {

CliPlayback::CliPlayback(std::chrono::steady_clock::time_point command_start)
    : m_start(command_start), m_player(std::make_unique<audio::AudioPlayer>()) {
    try {
        m_player->open();
    } catch (const std::exception& e) {
        fail(e.what());
    }
    m_player->begin_stream();
}

void CliPlayback::append(const AudioChunk& chunk) {
    m_player->append(chunk.samples);
    if (!m_started) {
        m_player->play();
        m_started = true;
    }
}

void CliPlayback::finish_and_report() {
    m_player->end_stream();
    if (!m_started) m_player->play();
    const double seconds = double(m_player->length()) / audio::AudioPlayer::kSampleRate;
    m_player->wait_until_finished(std::chrono::milliseconds(int(seconds * 1000) + 5000));
    if (auto first = m_player->first_sample_time())
        std::fprintf(stderr, "playback: first sample handed to PortAudio %.1f ms after the command started (model load included); %llu underruns\n",
                     std::chrono::duration<double, std::milli>(*first - m_start).count(),
                     (unsigned long long)m_player->underruns());
}

}  // namespace reef::cli
