// Audio import (engine/audio, no torch): libsndfile's format detection and decoding of WAV, FLAC,
// OGG and whatever else it recognises, and read_audio's own bounds (channels, rate, frame count,
// truncation, decoded size), on a file holding the fuzzer's bytes; then read_metadata, which the
// app calls on the same files. A refusal is an AudioError; anything else is a finding.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "audio/wav_file.h"

namespace {

const std::string& clip_path() {
    static const std::string path = [] {
        const std::filesystem::path dir =
            std::filesystem::path(std::filesystem::exists("/dev/shm") ? "/dev/shm" : "/tmp") /
            ("reef-fuzz-audio-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        static const std::filesystem::path keep = dir;
        std::atexit([] { std::error_code ec; std::filesystem::remove_all(keep, ec); });
        return (dir / "clip.wav").string();
    }();
    return path;
}

[[noreturn]] void finding(const char* what) {
    std::fprintf(stderr, "\n*** fuzz finding: %s\n", what);
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string& path = clip_path();
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
    }
    try {
        const reef::audio::AudioData a = reef::audio::read_audio(path, 600.0);
        if (a.channels <= 0 || a.sample_rate <= 0 || a.samples.size() % size_t(a.channels) != 0 || a.frames() <= 0)
            finding("read_audio returned an inconsistent clip");
        (void)reef::audio::read_metadata(path);
    } catch (const reef::audio::AudioError&) {
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        finding("an exception other than AudioError");
    }
    return 0;
}
