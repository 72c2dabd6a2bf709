// AudioPlayer: plays one mono 44.1 kHz clip, whole or streamed in chunks while it is generated.
//
// Design: the player owns the whole clip in a std::vector (non-real-time side). The output's
// callback reads only from a lock-free SPSC ring; the ring is filled from the clip by append() /
// seek() on the caller's thread and topped up by a small feeder thread while the clip is longer
// than the ring. Transport changes that must empty the ring (seek, stop) first stop the stream, so
// the ring is never reset under a running callback. All public methods are thread-safe; the
// intended use is transport from the UI thread and append()/end_stream() from the generator.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "audio/audio_output.h"
#include "audio/ring_buffer.h"

namespace reef::audio {

class AudioPlayer : private AudioRenderer {
public:
    static constexpr int kSampleRate = 44100;
    enum class State { Stopped, Playing, Paused, Finished };

    // ring_frames: how much audio the callback can run ahead of the feeder (rounded up to 2^k).
    explicit AudioPlayer(std::unique_ptr<AudioOutput> output = make_portaudio_output(),
                         size_t ring_frames = size_t(1) << 16);
    ~AudioPlayer() override;
    AudioPlayer(const AudioPlayer&) = delete;
    AudioPlayer& operator=(const AudioPlayer&) = delete;

    // Devices. An empty list is a normal state (no sound card); open() then throws AudioError
    // "no audio output device: ...". play() opens the default device when none is open.
    std::vector<OutputDevice> list_devices();
    void open(const std::string& device_name = {});  // "" = default; exact name or substring
    bool is_open() const;
    std::string device_name() const;

    // Content. Each of set_clip / begin_stream stops playback and rewinds to frame 0.
    void set_clip(std::vector<float> mono);  // a whole clip; end of stream is marked
    void begin_stream();                     // an empty clip that grows with append()
    void append(const float* mono, size_t frames);  // throws after end_stream()
    void append(const std::vector<float>& mono) { append(mono.data(), mono.size()); }
    void end_stream();  // no more chunks: playback finishes when the clip has played out

    // Transport.
    void play();   // from the current position; from 0 after Finished
    void pause();  // keeps the position; what was already handed to the device still plays
    void stop();   // stops now and rewinds to 0
    void seek(int64_t frame);  // clamped to [0, length()]; keeps playing if it was playing

    State state() const;
    int64_t position() const;  // frames of the clip handed to the device so far
    int64_t length() const;    // frames in the clip so far
    bool stream_ended() const;
    // Times the callback ran dry after playback had begun and before the end of the stream
    // (one per gap, not per silent callback). Reset, like first_sample_time(), by set_clip,
    // begin_stream, stop and play() after Finished (each starts a new listening).
    uint64_t underruns() const { return underruns_.load(std::memory_order_relaxed); }
    // When the callback first handed a clip sample to the device (for time-to-first-audio).
    std::optional<std::chrono::steady_clock::time_point> first_sample_time() const;
    // Blocks until the clip has played out and the device went idle; false on timeout.
    bool wait_until_finished(std::chrono::milliseconds timeout);
    std::vector<float> samples() const;  // a copy of the clip so far

private:
    bool render(float* out, unsigned long frames) noexcept override;  // real-time thread
    void feed_locked();  // clip -> ring; needs mutex_
    void rewind_locked(int64_t frame, bool keep_timing);  // needs ctl_ and a stopped output
    void reset_content(std::vector<float> clip, bool ended);
    void feeder_loop();

    std::unique_ptr<AudioOutput> output_;
    FloatRingBuffer ring_;

    mutable std::mutex ctl_;  // transport and the output (taken before mutex_)
    State state_ = State::Stopped;

    mutable std::mutex mutex_;  // the clip and the ring's producer side
    std::vector<float> clip_;
    size_t feed_pos_ = 0;  // next clip frame to push into the ring
    bool ended_ = false;
    bool quit_ = false;
    std::condition_variable feeder_cv_;
    std::thread feeder_;

    // Shared with the callback (lock-free).
    std::atomic<bool> paused_{false};     // callback outputs silence and consumes nothing
    std::atomic<bool> fed_all_{false};    // ended_ and every frame is in the ring
    std::atomic<bool> finished_{false};   // the callback reached the end of the stream
    std::atomic<int64_t> position_{0};
    std::atomic<uint64_t> underruns_{0};
    std::atomic<int64_t> first_sample_ns_{0};  // steady_clock ns since epoch; 0 = not yet
    bool starved_ = false;  // callback-only (reset while the stream is stopped)
};

}  // namespace reef::audio
