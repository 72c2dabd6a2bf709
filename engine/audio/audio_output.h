// A thin interface in front of the audio device, so the player's logic can be tested with a fake
// and the real PortAudio stream stays in one small file (portaudio_output.cpp).
#pragma once
#include <memory>
#include <string>
#include <vector>

namespace reef::audio {

struct OutputDevice {
    int index = -1;            // backend device index
    std::string name;          // what --device / the settings panel match against
    std::string host_api;      // "ALSA", "JACK", ...
    int max_channels = 0;
    double default_sample_rate = 0;
    bool is_default = false;
};

// Called on the real-time audio thread: implementations must not lock, allocate, log or throw.
class AudioRenderer {
public:
    virtual ~AudioRenderer() = default;
    // Fill `frames` mono float samples. Return false when the stream is complete (out is filled
    // anyway, with silence past the end); the output then drains and goes inactive.
    virtual bool render(float* out, unsigned long frames) noexcept = 0;
};

// One mono float output stream. Not thread-safe: the player calls it from its control side only.
class AudioOutput {
public:
    virtual ~AudioOutput() = default;
    virtual std::vector<OutputDevice> devices() = 0;
    // device_name "" = the default output. Throws AudioError "no audio output device: ..." when
    // there is none (or none by that name), or naming the backend's reason.
    virtual void open(const std::string& device_name, int sample_rate, AudioRenderer* renderer) = 0;
    virtual bool is_open() const = 0;
    virtual std::string device_name() const = 0;
    virtual void start() = 0;   // begin calling the renderer
    virtual void stop() = 0;    // stop after the queued buffers have played
    virtual void abort() = 0;   // stop now, dropping queued buffers
    virtual bool is_active() const = 0;  // the renderer may still be called
    virtual void close() = 0;
};

// The real device through PortAudio (callback mode, paFloat32 mono).
std::unique_ptr<AudioOutput> make_portaudio_output();

}  // namespace reef::audio
