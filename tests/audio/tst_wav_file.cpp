// WAV export and import through libsndfile: round trips, atomic writes, broken inputs.
#include <cmath>
#include <filesystem>
#include <fstream>

#include "audio/wav_file.h"
#include "check.h"

using namespace reef::audio;

static std::vector<float> tone(int n, double hz, int rate, float amp = 0.8f) {
    std::vector<float> s(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) s[size_t(i)] = amp * float(std::sin(2 * M_PI * hz * i / rate));
    return s;
}

TEST_CASE(pcm16_round_trip) {
    const auto dir = reef_test::temp_dir("wav_pcm16");
    const auto path = (dir / "a.wav").string();
    const auto s = tone(22050, 440, 44100);
    write_wav(path, s, 44100, 1, WavFormat::Pcm16, {"hello", "Reef", "test"});
    const AudioData d = read_audio(path);
    CHECK_EQ(d.sample_rate, 44100);
    CHECK_EQ(d.channels, 1);
    CHECK_EQ(d.frames(), 22050);
    double maxerr = 0;
    for (size_t i = 0; i < s.size(); ++i) maxerr = std::max(maxerr, double(std::fabs(s[i] - d.samples[i])));
    CHECK(maxerr <= 2.0 / 32768);  // write scales by 32767, read by 32768
}

TEST_CASE(float_round_trip_is_exact) {
    const auto dir = reef_test::temp_dir("wav_float");
    const auto path = (dir / "a.wav").string();
    const auto s = tone(4410, 1000, 44100);
    write_wav(path, s, 44100, 1, WavFormat::Float32);
    const AudioData d = read_audio(path);
    CHECK(d.samples == s);
}

TEST_CASE(unwritable_path_leaves_nothing) {
    const auto dir = reef_test::temp_dir("wav_unwritable");
    CHECK_THROWS(write_wav((dir / "missing" / "a.wav").string(), tone(100, 440, 44100), 44100));
    CHECK(std::filesystem::is_empty(dir));
}

TEST_CASE(corrupt_file_is_a_specific_error) {
    const auto dir = reef_test::temp_dir("wav_corrupt");
    const auto path = (dir / "bad.wav").string();
    std::ofstream(path) << "RIFF\x10\0\0\0WAVEjunk";
    bool threw = false;
    try {
        read_audio(path);
    } catch (const AudioError& e) {
        threw = true;
        CHECK(std::string(e.what()).find("bad.wav") != std::string::npos);
    }
    CHECK(threw);
}

TEST_MAIN()
