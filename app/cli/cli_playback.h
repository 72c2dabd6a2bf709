// reef-cli synth --play: streams decoded chunks into an AudioPlayer as they arrive and reports the
// latency from the command's start to the first sample handed to PortAudio.
#pragma once
#include <chrono>
#include <memory>

#include "audio/audio_player.h"
#include "reef/engine_types.h"

namespace reef::cli {

class CliPlayback {
public:
    explicit CliPlayback(std::chrono::steady_clock::time_point command_start);
    void append(const AudioChunk& chunk);   // engine thread; starts playback on the first chunk
    void finish_and_report();               // end of stream, wait for play-out, print latency

private:
    std::chrono::steady_clock::time_point m_start;
    std::unique_ptr<audio::AudioPlayer> m_player;
    bool m_started = false;
};

}  // namespace reef::cli
