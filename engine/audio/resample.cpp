#include "audio/resample.h"

#include <soxr.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "audio/audio_error.h"
#include "audio/wav_file.h"

namespace reef::audio {
namespace {

// A reference whose peak stays below -60 dBFS carries no usable voice.
constexpr float kSilencePeak = 1e-3f;

}  // namespace

std::vector<float> mix_to_mono(const std::vector<float>& interleaved, int channels) {
    if (channels <= 0) throw AudioError("mix_to_mono: channel count must be positive, got " + std::to_string(channels));
    if (channels == 1) return interleaved;
    const size_t frames = interleaved.size() / size_t(channels);
    std::vector<float> mono(frames);
    for (size_t f = 0; f < frames; ++f) {
        float sum = 0;
        for (int c = 0; c < channels; ++c) sum += interleaved[f * size_t(channels) + size_t(c)];
        mono[f] = sum / float(channels);
    }
    return mono;
}

std::vector<float> resample(const std::vector<float>& mono, int from_rate, int to_rate) {
    if (from_rate <= 0 || to_rate <= 0)
        throw AudioError("resample: bad sample rates " + std::to_string(from_rate) + " -> " + std::to_string(to_rate));
    if (from_rate == to_rate || mono.empty()) return mono;
    const auto want = size_t(std::llround(double(mono.size()) * to_rate / from_rate));
    std::vector<float> out(want + 64);  // soxr may want a little slack; trimmed below
    size_t done = 0;
    const soxr_io_spec_t io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I);
    const soxr_quality_spec_t quality = soxr_quality_spec(SOXR_HQ, 0);
    const soxr_error_t err = soxr_oneshot(from_rate, to_rate, 1, mono.data(), mono.size(), nullptr, out.data(),
                                          out.size(), &done, &io, &quality, nullptr);
    if (err) throw AudioError(std::string("resample ") + std::to_string(from_rate) + " -> " + std::to_string(to_rate) +
                              " Hz failed: " + err);
    out.resize(std::min(done, want));
    out.resize(want, 0.0f);  // the filter's tail can fall a frame short; keep the duration exact
    return out;
}

std::vector<float> load_reference_audio(const std::string& path, double max_seconds) {
    const AudioData data = read_audio(path, max_seconds);  // missing/corrupt/empty/too long
    std::vector<float> mono = mix_to_mono(data.samples, data.channels);
    float peak = 0;
    for (float s : mono) peak = std::max(peak, std::fabs(s));
    if (peak < kSilencePeak) {
        char db[32];
        std::snprintf(db, sizeof db, "%.0f", peak > 0 ? 20 * std::log10(peak) : -999.0);
        throw AudioError("reference audio " + path + " is silent (peak " + db + " dBFS); record the voice louder");
    }
    return resample(mono, data.sample_rate, kReferenceSampleRate);
}

}  // namespace reef::audio
