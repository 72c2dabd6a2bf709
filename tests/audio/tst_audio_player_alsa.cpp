// AudioPlayer through real PortAudio into the ALSA file sink of tests/alsa/asound-test.conf:
// what the player hands to the device lands in $PA_TEST_OUT. The recording starts with the
// callback stream's priming silence and has silence wherever the callback ran dry (the null
// sink drains far faster than real time), so it is compared with the clip after dropping exact
// zeros; the clip itself never quantises to zero.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>

#include "audio/audio_player.h"
#include "audio/wav_file.h"
#include "check.h"

using namespace reef::audio;
using namespace std::chrono_literals;

namespace {

// Pseudo-random magnitudes in [0.05, 0.95] with the sign flipping every 37 frames: order and
// polarity errors both show, and no sample is within 16-bit rounding of zero.
std::vector<float> signal(size_t n) {
    std::vector<float> s(n);
    for (size_t i = 0; i < n; ++i) {
        const float mag = 0.05f + 0.9f * float((i * 7919) % 10007) / 10007.0f;
        s[i] = (i / 37) % 2 ? -mag : mag;
    }
    return s;
}
std::vector<float> slice(const std::vector<float>& v, size_t a, size_t b) { return {v.begin() + long(a), v.begin() + long(b)}; }
std::vector<float> concat(std::vector<float> a, const std::vector<float>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

bool have_sink() { return std::getenv("ALSA_CONFIG_PATH") && std::getenv("PA_TEST_OUT"); }

// Each case records into its own file: the sink reads $PA_TEST_OUT when the stream opens.
std::string use_output(const std::string& name) {
    const std::string path = (reef_test::temp_dir("alsa_" + name) / "played.wav").string();
    ::setenv("PA_TEST_OUT", path.c_str(), 1);
    return path;
}

struct Recording {
    std::vector<float> audio;  // the recording with exact zeros (priming, gaps) dropped
    int gaps = 0;              // runs of silence between the first and last audio sample
};

Recording read_recording(const std::string& path) {
    const AudioData d = read_audio(path);
    CHECK_EQ(d.sample_rate, 44100);
    CHECK_EQ(d.channels, 1);
    Recording r;
    bool in_audio = false, pending_gap = false;
    for (float x : d.samples) {
        if (x == 0.0f) {
            pending_gap = in_audio;
            continue;
        }
        if (pending_gap) ++r.gaps;
        pending_gap = false;
        in_audio = true;
        r.audio.push_back(x);
    }
    return r;
}

// Sample-exact up to the int16 round trip (write x32767, read /32768).
void check_matches(const std::vector<float>& got, const std::vector<float>& want) {
    CHECK_EQ(got.size(), want.size());
    double maxerr = 0;
    for (size_t i = 0; i < std::min(got.size(), want.size()); ++i)
        maxerr = std::max(maxerr, double(std::fabs(got[i] - want[i])));
    CHECK(maxerr <= 2.0 / 32768);
    if (maxerr > 2.0 / 32768) std::fprintf(stderr, "max error %g\n", maxerr);
}

bool wait_for_position(const AudioPlayer& p, int64_t frame) {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (p.position() < frame) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(200us);
    }
    return true;
}

}  // namespace

TEST_CASE(whole_clip_lands_in_file) {
    if (!have_sink()) return;
    const std::string out = use_output("whole");
    const auto clip = signal(44100 * 2);  // longer than the ring: the feeder refills it
    uint64_t underruns = 0;
    {
        AudioPlayer p;
        p.open();
        CHECK(p.device_name() == "default");
        p.set_clip(clip);
        const auto t0 = std::chrono::steady_clock::now();
        p.play();
        CHECK(p.wait_until_finished(10s));
        CHECK(p.state() == AudioPlayer::State::Finished);
        CHECK_EQ(p.position(), int64_t(clip.size()));
        CHECK(p.first_sample_time().has_value() && *p.first_sample_time() >= t0);
        underruns = p.underruns();
    }  // closing the stream finalises the WAV header
    const Recording r = read_recording(out);
    check_matches(r.audio, clip);
    CHECK_EQ(uint64_t(r.gaps), underruns);  // every gap in the file is a counted underrun
    std::printf("whole clip: %zu frames, %llu underruns\n", clip.size(), (unsigned long long)underruns);
}

TEST_CASE(streamed_chunks_land_in_file) {
    if (!have_sink()) return;
    const std::string out = use_output("stream");
    const auto clip = signal(44100 * 2);
    const size_t chunk = 4096;  // like codec chunks arriving while generation goes on
    uint64_t underruns = 0;
    {
        AudioPlayer p;
        p.begin_stream();
        p.play();  // before the first chunk, as the app does
        for (size_t at = 0; at < clip.size(); at += chunk) {
            p.append(clip.data() + at, std::min(chunk, clip.size() - at));
            std::this_thread::sleep_for(1ms);
        }
        p.end_stream();
        CHECK(p.wait_until_finished(10s));
        CHECK_EQ(p.position(), int64_t(clip.size()));
        underruns = p.underruns();
    }
    const Recording r = read_recording(out);
    check_matches(r.audio, clip);
    // Every gap is a counted underrun; one more may fall after the last chunk and before
    // end_stream() (silence at the end of the file, indistinguishable from the drain padding).
    CHECK(uint64_t(r.gaps) == underruns || uint64_t(r.gaps) + 1 == underruns);
    std::printf("streamed: %zu chunks, %llu underruns\n", (clip.size() + chunk - 1) / chunk,
                (unsigned long long)underruns);
}

TEST_CASE(pause_then_resume_loses_nothing) {
    if (!have_sink()) return;
    const std::string out = use_output("pause");
    const auto clip = signal(30000);
    {
        AudioPlayer p;
        p.begin_stream();
        p.append(slice(clip, 0, 10000));
        p.play();
        CHECK(wait_for_position(p, 10000));
        p.pause();
        CHECK(p.state() == AudioPlayer::State::Paused);
        p.append(slice(clip, 10000, 30000));
        std::this_thread::sleep_for(20ms);
        CHECK_EQ(p.position(), int64_t(10000));  // paused: nothing more is handed out
        p.play();
        p.end_stream();
        CHECK(p.wait_until_finished(10s));
    }
    check_matches(read_recording(out).audio, clip);
}

TEST_CASE(seek_while_playing_continues_from_there) {
    if (!have_sink()) return;
    const std::string out = use_output("seek");
    const auto clip = signal(30000);
    {
        AudioPlayer p;
        p.begin_stream();
        p.append(slice(clip, 0, 12000));
        p.play();
        CHECK(wait_for_position(p, 12000));  // everything so far is out; still playing
        p.seek(5000);
        CHECK(p.state() == AudioPlayer::State::Playing);
        CHECK(wait_for_position(p, 12000));
        p.append(slice(clip, 12000, 30000));
        p.end_stream();
        CHECK(p.wait_until_finished(10s));
        CHECK_EQ(p.position(), int64_t(30000));
    }
    // After the seek the file continues with the samples from frame 5000.
    check_matches(read_recording(out).audio, concat(slice(clip, 0, 12000), slice(clip, 5000, 30000)));
}

TEST_CASE(unknown_device_name_is_a_clear_error) {
    if (!have_sink()) return;
    use_output("unknown");
    AudioPlayer p;
    std::string err;
    try {
        p.open("no such speakers");
    } catch (const AudioError& e) {
        err = e.what();
    }
    CHECK(err.find("no audio output device: none is named 'no such speakers'") == 0);
    CHECK(err.find("'default'") != std::string::npos);  // lists what there is
}

// Run alone with the system's ALSA config (ctest: tst_audio_no_device). On a machine without a
// sound card (containers, CI) PortAudio lists nothing; a machine with one skips (exit 77).
// (An ALSA config with no PCMs at all trips an assertion inside PortAudio, so it is not used.)
TEST_CASE(no_device_at_all) {
    if (!std::getenv("REEF_EXPECT_NO_DEVICE")) return;
    AudioPlayer p;
    if (!p.list_devices().empty()) {
        std::printf("skipped: this machine has an audio output device\n");
        std::exit(77);
    }
    p.set_clip(signal(1000));
    std::string err;
    try {
        p.play();
    } catch (const AudioError& e) {
        err = e.what();
    }
    CHECK(err.find("no audio output device") == 0);
    CHECK_EQ(p.length(), int64_t(1000));  // the rest of the player keeps working
    CHECK(p.state() == AudioPlayer::State::Stopped);
}

TEST_MAIN()
