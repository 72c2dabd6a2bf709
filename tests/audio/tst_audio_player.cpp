// AudioPlayer logic against a fake output whose "callback" the test drives by hand: whole and
// streamed clips arrive sample-exact, underruns are counted once per gap, pause/seek/stop move
// the position as documented, and a machine without devices gives a clear error.
#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "audio/audio_player.h"
#include "check.h"
#include "fake_output.h"

using namespace reef::audio;
using reef_test::FakeOutput;
using State = AudioPlayer::State;

namespace {

// Distinct, never-zero samples, so silence inserted by the player is unambiguous.
std::vector<float> ramp(size_t n, size_t from = 0) {
    std::vector<float> s(n);
    for (size_t i = 0; i < n; ++i) s[i] = 0.001f + float((i + from) % 997) / 1000.0f;
    return s;
}

std::vector<float> slice(const std::vector<float>& v, size_t a, size_t b) { return {v.begin() + long(a), v.begin() + long(b)}; }
std::vector<float> concat(std::vector<float> a, const std::vector<float>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}
std::vector<float> without_silence(const std::vector<float>& v) {
    std::vector<float> out;
    for (float x : v)
        if (x != 0.0f) out.push_back(x);
    return out;
}
// Runs of silence strictly between the first and last sample of audio.
int inner_gaps(const std::vector<float>& v) {
    const auto first = std::find_if(v.begin(), v.end(), [](float x) { return x != 0; });
    const auto last = std::find_if(v.rbegin(), v.rend(), [](float x) { return x != 0; }).base();
    int gaps = 0;
    for (auto it = first; it < last; ++it)
        if (*it == 0 && *(it - 1) != 0) ++gaps;
    return gaps;
}

struct Rig {
    FakeOutput::Log log;
    FakeOutput* out = nullptr;
    std::unique_ptr<AudioPlayer> player;
    explicit Rig(size_t ring = 4096, bool with_device = true) {
        std::vector<OutputDevice> devs;
        if (with_device) devs.push_back({0, "fake speakers", "Fake", 2, 44100, true});
        auto fake = std::make_unique<FakeOutput>(&log, devs);
        out = fake.get();
        player = std::make_unique<AudioPlayer>(std::move(fake), ring);
    }
    void pump_to_end(unsigned long block = 512) {
        for (int guard = 0; guard < 100000 && out->pump(block); ++guard) {
        }
    }
};

std::string error_of(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const AudioError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE(whole_clip_plays_exactly) {
    Rig rig;
    const auto clip = ramp(3000);
    rig.player->set_clip(clip);
    CHECK(rig.player->state() == State::Stopped);
    CHECK(!rig.player->first_sample_time());
    const auto before = std::chrono::steady_clock::now();
    rig.player->play();
    CHECK(rig.player->state() == State::Playing);
    rig.pump_to_end();
    const auto& played = rig.log.played;
    CHECK(slice(played, 0, 3000) == clip);  // from the first callback, in order
    CHECK(std::all_of(played.begin() + 3000, played.end(), [](float x) { return x == 0; }));  // padded, not garbage
    CHECK_EQ(rig.player->position(), int64_t(3000));
    CHECK(rig.player->state() == State::Finished);
    CHECK_EQ(rig.player->underruns(), uint64_t(0));
    CHECK(rig.player->first_sample_time().has_value() && *rig.player->first_sample_time() >= before);
    CHECK(rig.player->wait_until_finished(std::chrono::milliseconds(100)));
}

TEST_CASE(clip_longer_than_ring_is_refilled_by_feeder) {
    Rig rig(1024);
    const auto clip = ramp(60000);
    rig.player->set_clip(clip);
    rig.player->play();
    // The feeder tops the ring up on its own thread; a callback that outruns it plays silence
    // and counts an underrun, but nothing is lost or reordered.
    for (int guard = 0; guard < 200000 && rig.out->pump(256); ++guard) std::this_thread::sleep_for(std::chrono::microseconds(50));
    CHECK(without_silence(rig.log.played) == clip);
    CHECK_EQ(rig.player->position(), int64_t(60000));
    CHECK_EQ(int(rig.player->underruns()), inner_gaps(rig.log.played));
    CHECK(rig.player->state() == State::Finished);
}

TEST_CASE(streaming_chunks_and_underruns) {
    Rig rig;
    const auto all = ramp(2500);
    rig.player->begin_stream();
    rig.player->play();
    rig.out->pump(128);  // nothing generated yet: silence, and not an underrun
    CHECK_EQ(rig.player->underruns(), uint64_t(0));
    CHECK(!rig.player->first_sample_time());
    rig.player->append(slice(all, 0, 1000));
    CHECK_EQ(rig.player->length(), int64_t(1000));
    rig.out->pump(512);
    CHECK(rig.player->first_sample_time().has_value());
    rig.out->pump(512);  // only 488 left: the buffer runs dry before the end of the stream
    CHECK_EQ(rig.player->underruns(), uint64_t(1));
    rig.out->pump(512);  // still dry: the same gap, not a new underrun
    CHECK_EQ(rig.player->underruns(), uint64_t(1));
    CHECK(rig.player->state() == State::Playing);
    CHECK_EQ(rig.player->position(), int64_t(1000));
    rig.player->append(slice(all, 1000, 2500));
    rig.player->end_stream();
    CHECK(rig.player->stream_ended());
    rig.pump_to_end();
    CHECK(without_silence(rig.log.played) == all);
    CHECK_EQ(rig.player->underruns(), uint64_t(1));
    CHECK(rig.player->state() == State::Finished);
    CHECK(error_of([&] { rig.player->append(all); }).find("already ended") != std::string::npos);
}

TEST_CASE(pause_keeps_position) {
    Rig rig;
    const auto clip = ramp(3000);
    rig.player->set_clip(clip);
    rig.player->play();
    rig.out->pump(512);
    rig.player->pause();
    CHECK(rig.player->state() == State::Paused);
    CHECK_EQ(rig.log.stops, 1);  // stopped gracefully: queued buffers still play
    CHECK(!rig.out->pump(512));  // the device no longer calls us
    CHECK_EQ(rig.player->position(), int64_t(512));
    rig.player->play();
    rig.pump_to_end();
    CHECK(without_silence(rig.log.played) == clip);  // resumes exactly where it paused
}

TEST_CASE(seek_while_playing_continues_from_there) {
    Rig rig;
    const auto clip = ramp(3000);
    rig.player->set_clip(clip);
    rig.player->play();
    rig.out->pump(512);
    rig.player->seek(2000);
    CHECK_EQ(rig.player->position(), int64_t(2000));
    CHECK(rig.player->state() == State::Playing);
    CHECK_EQ(rig.log.aborts, 1);  // queued audio from the old position is dropped
    rig.pump_to_end();
    CHECK(without_silence(rig.log.played) == concat(slice(clip, 0, 512), slice(clip, 2000, 3000)));
    CHECK_EQ(rig.player->position(), int64_t(3000));
}

TEST_CASE(seek_clamps_and_replay_after_finish) {
    Rig rig;
    const auto clip = ramp(1000);
    rig.player->set_clip(clip);
    rig.player->seek(-5);
    CHECK_EQ(rig.player->position(), int64_t(0));
    rig.player->seek(1 << 30);
    CHECK_EQ(rig.player->position(), int64_t(1000));
    rig.player->seek(600);
    rig.player->play();
    rig.pump_to_end();
    CHECK(without_silence(rig.log.played) == slice(clip, 600, 1000));
    CHECK(rig.player->state() == State::Finished);
    rig.player->seek(900);  // after the end: waits at the new position
    CHECK(rig.player->state() == State::Paused);
    rig.player->play();
    rig.pump_to_end();
    rig.player->play();  // play after Finished starts over
    rig.pump_to_end();
    CHECK(without_silence(rig.log.played) == concat(concat(slice(clip, 600, 1000), slice(clip, 900, 1000)), clip));
}

TEST_CASE(stop_rewinds) {
    Rig rig;
    rig.player->set_clip(ramp(3000));
    rig.player->play();
    rig.out->pump(700);
    rig.player->stop();
    CHECK(rig.player->state() == State::Stopped);
    CHECK_EQ(rig.player->position(), int64_t(0));
    CHECK(!rig.player->first_sample_time());
    rig.log.played.clear();
    rig.player->play();
    rig.pump_to_end();
    CHECK(without_silence(rig.log.played) == ramp(3000));
}

TEST_CASE(no_device_is_a_clear_error_and_the_rest_works) {
    Rig rig(4096, false);
    CHECK(rig.player->list_devices().empty());
    CHECK(error_of([&] { rig.player->open(); }).find("no audio output device") == 0);
    rig.player->set_clip(ramp(100));
    CHECK(error_of([&] { rig.player->play(); }).find("no audio output device") == 0);
    CHECK_EQ(rig.player->length(), int64_t(100));
    CHECK(!rig.player->is_open());
    rig.player->seek(50);
    CHECK_EQ(rig.player->position(), int64_t(50));
}

TEST_CASE(open_by_name) {
    Rig rig;
    rig.player->open("fake speakers");
    CHECK(rig.player->is_open());
    CHECK(rig.player->device_name() == "fake speakers");
}

TEST_MAIN()
