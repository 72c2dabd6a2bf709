// AudioOutput through PortAudio: one mono paFloat32 callback stream. A machine with no output
// device is a normal state here (PortAudio initialises and lists 0 devices); only open() fails.
#include <portaudio.h>

#include <algorithm>
#include <string>

#include "audio/audio_error.h"
#include "audio/audio_output.h"

namespace reef::audio {
namespace {

// 512 frames ≈ 11.6 ms at 44.1 kHz: small enough for a responsive pause, large enough for ALSA.
constexpr unsigned long kFramesPerBuffer = 512;

std::string pa_reason(PaError err) { return std::string(Pa_GetErrorText(err)) + " (" + std::to_string(err) + ")"; }

int pa_callback(const void* /*input*/, void* output, unsigned long frames, const PaStreamCallbackTimeInfo* /*time*/,
                PaStreamCallbackFlags /*flags*/, void* user) {
    // Real-time thread: one virtual call, nothing else.
    auto* renderer = static_cast<AudioRenderer*>(user);
    return renderer->render(static_cast<float*>(output), frames) ? paContinue : paComplete;
}

class PortAudioOutput final : public AudioOutput {
public:
    PortAudioOutput() : init_error_(Pa_Initialize()) {}  // Pa_Initialize is reference-counted
    ~PortAudioOutput() override {
        close();
        if (init_error_ == paNoError) Pa_Terminate();
    }

    std::vector<OutputDevice> devices() override {
        std::vector<OutputDevice> out;
        if (init_error_ != paNoError) return out;
        const PaDeviceIndex def = Pa_GetDefaultOutputDevice();
        const PaDeviceIndex n = Pa_GetDeviceCount();
        for (PaDeviceIndex i = 0; i < n; ++i) {
            const PaDeviceInfo* info = Pa_GetDeviceInfo(i);
            if (!info || info->maxOutputChannels <= 0) continue;
            const PaHostApiInfo* api = Pa_GetHostApiInfo(info->hostApi);
            out.push_back({i, info->name ? info->name : "", api && api->name ? api->name : "", info->maxOutputChannels,
                           info->defaultSampleRate, i == def});
        }
        return out;
    }

    void open(const std::string& device_name, int sample_rate, AudioRenderer* renderer) override {
        close();
        if (init_error_ != paNoError)
            throw AudioError("no audio output device: PortAudio failed to initialise: " + pa_reason(init_error_));
        const OutputDevice dev = pick(device_name);
        const PaDeviceInfo* info = Pa_GetDeviceInfo(dev.index);
        PaStreamParameters params{};
        params.device = dev.index;
        params.channelCount = 1;
        params.sampleFormat = paFloat32;
        params.suggestedLatency = std::max(info ? info->defaultLowOutputLatency : 0.0, 0.02);
        PaStream* stream = nullptr;
        const PaError err = Pa_OpenStream(&stream, nullptr, &params, sample_rate, kFramesPerBuffer, paClipOff,
                                          &pa_callback, renderer);
        if (err != paNoError)
            throw AudioError("cannot open audio output '" + dev.name + "' at " + std::to_string(sample_rate) +
                             " Hz mono: " + pa_reason(err));
        stream_ = stream;
        name_ = dev.name;
    }

    bool is_open() const override { return stream_ != nullptr; }
    std::string device_name() const override { return name_; }

    void start() override {
        if (!stream_ || Pa_IsStreamActive(stream_) == 1) return;
        // A stream whose callback returned paComplete is inactive but not yet stopped.
        if (Pa_IsStreamStopped(stream_) == 0) Pa_StopStream(stream_);
        const PaError err = Pa_StartStream(stream_);
        if (err != paNoError) throw AudioError("cannot start audio output '" + name_ + "': " + pa_reason(err));
    }
    void stop() override {
        if (stream_ && Pa_IsStreamStopped(stream_) == 0) Pa_StopStream(stream_);
    }
    void abort() override {
        if (stream_ && Pa_IsStreamStopped(stream_) == 0) Pa_AbortStream(stream_);
    }
    bool is_active() const override { return stream_ && Pa_IsStreamActive(stream_) == 1; }

    void close() override {
        if (!stream_) return;
        abort();
        Pa_CloseStream(stream_);
        stream_ = nullptr;
        name_.clear();
    }

private:
    // "" = the default output (or the first one when PortAudio names no default); otherwise an
    // exact name, then the first name containing it.
    OutputDevice pick(const std::string& wanted) {
        const auto all = devices();
        if (all.empty())
            throw AudioError("no audio output device: PortAudio found no output device (no sound card, or no "
                             "ALSA/JACK device configured)");
        if (wanted.empty()) {
            auto it = std::find_if(all.begin(), all.end(), [](const OutputDevice& d) { return d.is_default; });
            return it != all.end() ? *it : all.front();
        }
        for (const auto& d : all)
            if (d.name == wanted) return d;
        for (const auto& d : all)
            if (d.name.find(wanted) != std::string::npos) return d;
        std::string names;
        for (const auto& d : all) names += (names.empty() ? "" : ", ") + ("'" + d.name + "'");
        throw AudioError("no audio output device: none is named '" + wanted + "' (available: " + names + ")");
    }

    PaError init_error_;
    PaStream* stream_ = nullptr;
    std::string name_;
};

}  // namespace

std::unique_ptr<AudioOutput> make_portaudio_output() { return std::make_unique<PortAudioOutput>(); }

}  // namespace reef::audio
