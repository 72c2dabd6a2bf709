// Reference-voice import: stereo 22.05/48 kHz (WAV, FLAC, OGG) -> mono 44.1 kHz keeps the
// duration and a test tone's frequency; silent, empty and too-long inputs are clear errors.
#include <sndfile.h>

#include <cmath>
#include <functional>
#include <string>

#include "audio/audio_error.h"
#include "audio/resample.h"
#include "audio/wav_file.h"
#include "check.h"

using namespace reef::audio;

namespace {

// Interleaved stereo: the same tone at two levels, so the mono mix has amplitude (l + r) / 2.
std::vector<float> stereo_tone(int frames, double hz, int rate, float left, float right) {
    std::vector<float> s(size_t(frames) * 2);
    for (int i = 0; i < frames; ++i) {
        const float v = float(std::sin(2 * M_PI * hz * i / rate));
        s[size_t(i) * 2] = left * v;
        s[size_t(i) * 2 + 1] = right * v;
    }
    return s;
}

void write_with_sndfile(const std::string& path, const std::vector<float>& interleaved, int rate, int channels,
                        int format) {
    SF_INFO info{};
    info.samplerate = rate;
    info.channels = channels;
    info.format = format;
    SNDFILE* f = sf_open(path.c_str(), SFM_WRITE, &info);
    if (!f) throw std::runtime_error(std::string("test setup: ") + sf_strerror(nullptr));
    sf_writef_float(f, interleaved.data(), sf_count_t(interleaved.size()) / channels);
    sf_close(f);
}

// Frequency from the rising zero crossings of the steady middle part (skips filter edges).
double measured_hz(const std::vector<float>& s, int rate) {
    const size_t lo = s.size() / 10, hi = s.size() - s.size() / 10;
    size_t first = 0, last = 0, count = 0;
    for (size_t i = lo + 1; i < hi; ++i) {
        if (s[i - 1] < 0 && s[i] >= 0) {
            if (count == 0) first = i;
            last = i;
            ++count;
        }
    }
    return count > 1 ? double(count - 1) * rate / double(last - first) : 0.0;
}

float peak_of_middle(const std::vector<float>& s) {
    float p = 0;
    for (size_t i = s.size() / 10; i < s.size() - s.size() / 10; ++i) p = std::max(p, std::fabs(s[i]));
    return p;
}

std::string error_of(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const AudioError& e) {
        return e.what();
    }
    return "(no error)";
}

void check_import(const std::string& path, int rate, int frames, double hz) {
    const std::vector<float> mono = load_reference_audio(path);
    const auto want = long(std::lround(double(frames) * 44100 / rate));
    CHECK_EQ(long(mono.size()), want);  // duration kept to the frame
    CHECK_NEAR(measured_hz(mono, 44100), hz, hz * 0.002);
    CHECK_NEAR(peak_of_middle(mono), 0.4, 0.01);  // (0.6 + 0.2) / 2, no gain change
}

}  // namespace

TEST_CASE(stereo_22050_wav_to_mono_44100) {
    const auto dir = reef_test::temp_dir("resample_22k");
    const auto path = (dir / "ref.wav").string();
    write_wav(path, stereo_tone(22050 * 2, 1000, 22050, 0.6f, 0.2f), 22050, 2, WavFormat::Float32);
    check_import(path, 22050, 22050 * 2, 1000);
}

TEST_CASE(stereo_48000_wav_to_mono_44100) {
    const auto dir = reef_test::temp_dir("resample_48k");
    const auto path = (dir / "ref.wav").string();
    write_wav(path, stereo_tone(48000 * 2, 440, 48000, 0.6f, 0.2f), 48000, 2, WavFormat::Pcm16);
    check_import(path, 48000, 48000 * 2, 440);
}

TEST_CASE(flac_and_ogg_import) {
    const auto dir = reef_test::temp_dir("resample_formats");
    const auto flac = (dir / "ref.flac").string();
    write_with_sndfile(flac, stereo_tone(48000, 440, 48000, 0.6f, 0.2f), 48000, 2, SF_FORMAT_FLAC | SF_FORMAT_PCM_16);
    check_import(flac, 48000, 48000, 440);
    const auto ogg = (dir / "ref.ogg").string();
    write_with_sndfile(ogg, stereo_tone(22050, 1000, 22050, 0.6f, 0.2f), 22050, 2, SF_FORMAT_OGG | SF_FORMAT_VORBIS);
    const std::vector<float> mono = load_reference_audio(ogg);
    CHECK_EQ(long(mono.size()), 44100L);
    CHECK_NEAR(measured_hz(mono, 44100), 1000, 2);  // lossy codec: frequency only
}

TEST_CASE(same_rate_is_identity) {
    const std::vector<float> s = {0.1f, -0.2f, 0.3f};
    CHECK(resample(s, 44100, 44100) == s);
    CHECK(resample({}, 22050, 44100).empty());
    CHECK(error_of([] { resample({0.f}, 0, 44100); }).find("bad sample rates") != std::string::npos);
}

TEST_CASE(bad_references_are_clear_errors) {
    const auto dir = reef_test::temp_dir("resample_bad");
    const auto silent = (dir / "silent.wav").string();
    write_wav(silent, std::vector<float>(44100, 0.0f), 44100);
    CHECK(error_of([&] { load_reference_audio(silent); }).find("silent") != std::string::npos);
    const auto empty = (dir / "empty.wav").string();
    write_wav(empty, {}, 44100);
    CHECK(error_of([&] { load_reference_audio(empty); }).find("no audio frames") != std::string::npos);
    const auto longer = (dir / "long.wav").string();
    write_wav(longer, std::vector<float>(44100 * 31, 0.5f), 44100);
    const std::string err = error_of([&] { load_reference_audio(longer); });
    CHECK(err.find("long.wav is 31.0 s long; the limit is 30.0 s") != std::string::npos);
    CHECK(error_of([&] { load_reference_audio((dir / "none.wav").string()); }).find("not found") != std::string::npos);
}

TEST_MAIN()
