// A fake AudioOutput for player tests: nothing runs by itself; pump() plays the role of the
// device callback, synchronously, and records what the renderer produced.
#pragma once
#include <string>
#include <vector>

#include "audio/audio_error.h"
#include "audio/audio_output.h"

namespace reef_test {

class FakeOutput : public reef::audio::AudioOutput {
public:
    // Shared with the test (the player owns the object).
    struct Log {
        std::vector<float> played;  // everything the renderer wrote, silence included
        int starts = 0, stops = 0, aborts = 0;
    };
    FakeOutput(Log* log, std::vector<reef::audio::OutputDevice> devs) : log_(log), devs_(std::move(devs)) {}

    std::vector<reef::audio::OutputDevice> devices() override { return devs_; }
    void open(const std::string& name, int rate, reef::audio::AudioRenderer* r) override {
        if (devs_.empty()) throw reef::audio::AudioError("no audio output device: fake has none");
        renderer_ = r;
        name_ = name.empty() ? devs_.front().name : name;
    }
    bool is_open() const override { return renderer_ != nullptr; }
    std::string device_name() const override { return name_; }
    void start() override {
        active_ = true;
        ++log_->starts;
    }
    void stop() override {
        active_ = false;
        ++log_->stops;
    }
    void abort() override {
        active_ = false;
        ++log_->aborts;
    }
    bool is_active() const override { return active_; }
    void close() override {
        active_ = false;
        renderer_ = nullptr;
    }

    // One device callback of `frames`; returns false when inactive or when the renderer ended.
    bool pump(unsigned long frames) {
        if (!active_ || !renderer_) return false;
        std::vector<float> buf(frames, -9.0f);  // -9: catches frames the renderer left unwritten
        const bool more = renderer_->render(buf.data(), frames);
        log_->played.insert(log_->played.end(), buf.begin(), buf.end());
        if (!more) active_ = false;  // paComplete: the stream drains and goes inactive
        return more;
    }

private:
    Log* log_;
    std::vector<reef::audio::OutputDevice> devs_;
    reef::audio::AudioRenderer* renderer_ = nullptr;
    std::string name_;
    bool active_ = false;
};

}  // namespace reef_test
