// reef-cli play FILE [--device NAME] [--list-devices]: plays a WAV/FLAC/OGG file through the same
// AudioPlayer the GUI uses (mono 44.1 kHz; other rates and channel counts are converted).
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "audio/audio_error.h"
#include "audio/audio_player.h"
#include "audio/resample.h"
#include "audio/wav_file.h"
#include "cli_common.h"

namespace reef::cli {
namespace {

struct PlayOptions {
    std::string file;
    std::string device;
    bool list_devices = false;
};

[[noreturn]] void play_error(const std::string& msg) {
    std::fprintf(stderr, "error: %s\n", msg.c_str());
    throw CLI::RuntimeError(1);
}

void print_devices(audio::AudioPlayer& player) {
    const auto devices = player.list_devices();
    if (devices.empty()) {
        std::printf("no audio output devices (no sound card, or no ALSA/JACK device configured)\n");
        return;
    }
    for (const auto& d : devices)
        std::printf("%2d  %-32s %-6s %3d ch  %6.0f Hz%s\n", d.index, d.name.c_str(), d.host_api.c_str(), d.max_channels,
                    d.default_sample_rate, d.is_default ? "  (default)" : "");
}

void run_play(const PlayOptions& o) {
    try {
        audio::AudioPlayer player;
        if (o.list_devices) {
            print_devices(player);
            return;
        }
        if (o.file.empty()) play_error("play needs a FILE (or --list-devices)");
        const audio::AudioData data = audio::read_audio(o.file, 24 * 3600.0);
        const auto mono = audio::resample(audio::mix_to_mono(data.samples, data.channels), data.sample_rate,
                                          audio::AudioPlayer::kSampleRate);
        const double seconds = double(mono.size()) / audio::AudioPlayer::kSampleRate;
        player.open(o.device);
        player.set_clip(mono);
        std::printf("playing %s (%.2f s, %d Hz, %d ch) on '%s'\n", o.file.c_str(), seconds, data.sample_rate,
                    data.channels, player.device_name().c_str());
        std::fflush(stdout);
        const auto start = std::chrono::steady_clock::now();
        player.play();
        if (!player.wait_until_finished(std::chrono::milliseconds(int64_t(seconds * 1000) + 10000)))
            play_error("playback did not finish in time (position " + std::to_string(player.position()) + " of " +
                       std::to_string(player.length()) + " frames)");
        const auto first = player.first_sample_time();
        std::printf("done: %lld frames, first sample after %.1f ms, %llu underruns\n", (long long)player.position(),
                    first ? std::chrono::duration<double, std::milli>(*first - start).count() : -1.0,
                    (unsigned long long)player.underruns());
    } catch (const audio::AudioError& e) {
        play_error(e.what());
    }
}

}  // namespace

void register_play(CLI::App& app) {
    auto opts = std::make_shared<PlayOptions>();
    auto* cmd = app.add_subcommand("play", "play an audio file (WAV/FLAC/OGG) on an audio output");
    cmd->add_option("file", opts->file, "the audio file");
    cmd->add_option("--device", opts->device, "output device name or part of it (default: the system default)");
    cmd->add_flag("--list-devices", opts->list_devices, "list the audio output devices and exit");
    cmd->callback([opts] { run_play(*opts); });
}

}  // namespace reef::cli
