// Reference-voice import: any libsndfile format -> mono -> 44.1 kHz float, through libsoxr.
#pragma once
#include <string>
#include <vector>

namespace reef::audio {

constexpr int kReferenceSampleRate = 44100;  // the codec's rate (fish-speech DAC)

// Averages interleaved channels into one.
std::vector<float> mix_to_mono(const std::vector<float>& interleaved, int channels);

// Band-limited resampling (soxr "high quality"). The result has round(n * to / from) frames,
// so durations are kept. Throws AudioError on a bad rate.
std::vector<float> resample(const std::vector<float>& mono, int from_rate, int to_rate);

// Reads WAV/FLAC/OGG/..., mixes to mono and resamples to 44.1 kHz. Throws AudioError naming
// the file when it is missing, corrupt, empty, silent or longer than max_seconds.
std::vector<float> load_reference_audio(const std::string& path, double max_seconds = 30.0);

}  // namespace reef::audio
