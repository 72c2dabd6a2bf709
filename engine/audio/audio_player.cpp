#include "audio/audio_player.h"

#include <algorithm>

#include "audio/audio_error.h"

namespace reef::audio {
namespace {

// While part of the clip does not fit in the ring, the feeder tops it up this often. The ring
// holds ~1.5 s, so even a device draining much faster than real time is kept fed.
constexpr auto kFeedInterval = std::chrono::milliseconds(2);

int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

AudioPlayer::AudioPlayer(std::unique_ptr<AudioOutput> output, size_t ring_frames)
    : output_(std::move(output)), ring_(ring_frames) {
    if (!output_) throw AudioError("AudioPlayer needs an audio output");
    feeder_ = std::thread([this] { feeder_loop(); });
}

AudioPlayer::~AudioPlayer() {
    {
        std::lock_guard lk(mutex_);
        quit_ = true;
    }
    feeder_cv_.notify_all();
    feeder_.join();
    std::lock_guard lk(ctl_);
    output_->close();  // the callback holds `this`: stop it before members go away
}

// ---- real-time side -------------------------------------------------------------------------

bool AudioPlayer::render(float* out, unsigned long frames) noexcept {
    if (paused_.load(std::memory_order_acquire)) {
        std::fill(out, out + frames, 0.0f);
        return true;
    }
    size_t n = ring_.read(out, frames);
    if (n < frames) {
        // Load fed_all_ first, then read again: frames pushed just before fed_all_ was set are
        // then visible, so the tail of the clip is never cut off.
        const bool all = fed_all_.load(std::memory_order_acquire);
        n += ring_.read(out + n, frames - n);
        if (n < frames) {
            std::fill(out + n, out + frames, 0.0f);
            if (all) {
                position_.store(position_.load(std::memory_order_relaxed) + int64_t(n), std::memory_order_relaxed);
                finished_.store(true, std::memory_order_release);
                return false;
            }
            // Count a gap once, and only after audio has begun (waiting for the first chunk is not one).
            if (!starved_ && first_sample_ns_.load(std::memory_order_relaxed) != 0)
                underruns_.fetch_add(1, std::memory_order_relaxed);
            starved_ = true;
        } else {
            starved_ = false;
        }
    } else {
        starved_ = false;
    }
    if (n > 0 && first_sample_ns_.load(std::memory_order_relaxed) == 0)
        first_sample_ns_.store(now_ns(), std::memory_order_relaxed);
    position_.store(position_.load(std::memory_order_relaxed) + int64_t(n), std::memory_order_relaxed);
    return true;
}

// ---- feeding (non-real-time producer) -------------------------------------------------------

void AudioPlayer::feed_locked() {
    const size_t pending = clip_.size() - feed_pos_;
    feed_pos_ += ring_.write(clip_.data() + feed_pos_, pending);
    if (ended_ && feed_pos_ == clip_.size()) fed_all_.store(true, std::memory_order_release);
}

void AudioPlayer::feeder_loop() {
    std::unique_lock lk(mutex_);
    while (!quit_) {
        feed_locked();
        if (feed_pos_ < clip_.size())
            feeder_cv_.wait_for(lk, kFeedInterval);  // the callback is draining the ring
        else
            feeder_cv_.wait(lk);  // append/seek feed by themselves and wake us for the rest
    }
}

void AudioPlayer::rewind_locked(int64_t frame, bool keep_timing) {
    {
        std::lock_guard lk(mutex_);
        const auto at = size_t(std::clamp<int64_t>(frame, 0, int64_t(clip_.size())));
        ring_.reset();  // safe: the output is stopped, so the consumer is not running
        feed_pos_ = at;
        position_.store(int64_t(at));
        fed_all_.store(false);
        finished_.store(false);
        starved_ = false;
        if (!keep_timing) {
            underruns_.store(0);
            first_sample_ns_.store(0);
        }
        feed_locked();
    }
    feeder_cv_.notify_one();
}

void AudioPlayer::reset_content(std::vector<float> clip, bool ended) {
    std::lock_guard ctl(ctl_);
    if (output_->is_open()) output_->abort();
    {
        std::lock_guard lk(mutex_);
        clip_ = std::move(clip);
        ended_ = ended;
    }
    rewind_locked(0, false);
    state_ = State::Stopped;
}

void AudioPlayer::set_clip(std::vector<float> mono) { reset_content(std::move(mono), true); }
void AudioPlayer::begin_stream() { reset_content({}, false); }

void AudioPlayer::append(const float* mono, size_t frames) {
    {
        std::lock_guard lk(mutex_);
        if (ended_) throw AudioError("cannot append audio: the stream was already ended");
        clip_.insert(clip_.end(), mono, mono + frames);
        feed_locked();
    }
    feeder_cv_.notify_one();
}

void AudioPlayer::end_stream() {
    {
        std::lock_guard lk(mutex_);
        ended_ = true;
        feed_locked();
    }
    feeder_cv_.notify_one();
}

// ---- devices and transport ------------------------------------------------------------------

std::vector<OutputDevice> AudioPlayer::list_devices() {
    std::lock_guard ctl(ctl_);
    return output_->devices();
}

void AudioPlayer::open(const std::string& device_name) {
    std::lock_guard ctl(ctl_);
    output_->close();
    if (state_ == State::Playing) state_ = State::Paused;
    output_->open(device_name, kSampleRate, this);
}

bool AudioPlayer::is_open() const {
    std::lock_guard ctl(ctl_);
    return output_->is_open();
}

std::string AudioPlayer::device_name() const {
    std::lock_guard ctl(ctl_);
    return output_->device_name();
}

void AudioPlayer::play() {
    std::lock_guard ctl(ctl_);
    if (!output_->is_open()) output_->open("", kSampleRate, this);
    if (finished_.load()) {
        output_->abort();
        rewind_locked(0, false);
    }
    paused_.store(false, std::memory_order_release);
    output_->start();
    state_ = State::Playing;
}

void AudioPlayer::pause() {
    std::lock_guard ctl(ctl_);
    if (state_ != State::Playing || finished_.load()) return;
    paused_.store(true, std::memory_order_release);  // silence from the next callback on
    output_->stop();  // lets the already-handed buffers play out
    state_ = State::Paused;
}

void AudioPlayer::stop() {
    std::lock_guard ctl(ctl_);
    if (output_->is_open()) output_->abort();
    rewind_locked(0, false);
    state_ = State::Stopped;
}

void AudioPlayer::seek(int64_t frame) {
    std::lock_guard ctl(ctl_);
    const bool playing = state_ == State::Playing && !finished_.load();
    if (output_->is_open()) output_->abort();  // drop queued audio from the old position
    rewind_locked(frame, true);
    if (playing) {
        paused_.store(false, std::memory_order_release);
        output_->start();
    } else if (state_ == State::Playing) {
        state_ = State::Paused;  // it had finished; wait at the new position
    }
}

// ---- queries --------------------------------------------------------------------------------

AudioPlayer::State AudioPlayer::state() const {
    std::lock_guard ctl(ctl_);
    if (state_ == State::Playing && finished_.load(std::memory_order_acquire)) return State::Finished;
    return state_;
}

int64_t AudioPlayer::position() const { return position_.load(std::memory_order_relaxed); }

int64_t AudioPlayer::length() const {
    std::lock_guard lk(mutex_);
    return int64_t(clip_.size());
}

bool AudioPlayer::stream_ended() const {
    std::lock_guard lk(mutex_);
    return ended_;
}

std::vector<float> AudioPlayer::samples() const {
    std::lock_guard lk(mutex_);
    return clip_;
}

std::optional<std::chrono::steady_clock::time_point> AudioPlayer::first_sample_time() const {
    const int64_t ns = first_sample_ns_.load(std::memory_order_relaxed);
    if (ns == 0) return std::nullopt;
    return std::chrono::steady_clock::time_point(
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::nanoseconds(ns)));
}

bool AudioPlayer::wait_until_finished(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        {
            std::lock_guard ctl(ctl_);
            if (finished_.load(std::memory_order_acquire) && !output_->is_active()) return true;
        }
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

}  // namespace reef::audio
