// WAV export and audio import through libsndfile. Exports are atomic: a temp file beside the
// target is written and renamed, so a failed export never leaves a broken file or clobbers one.
#pragma once
#include <string>
#include <vector>

#include "audio/audio_error.h"

namespace reef::audio {

enum class WavFormat { Pcm16, Float32 };

struct WavMetadata {
    std::string title;     // e.g. the synthesised text (truncated)
    std::string software;  // "Reef 0.1.0"
    std::string comment;   // model and settings
};

// Throws AudioError naming the path and the reason. channels: interleaved samples.
void write_wav(const std::string& path, const std::vector<float>& samples, int sample_rate, int channels = 1,
               WavFormat format = WavFormat::Pcm16, const WavMetadata& meta = {});

struct AudioData {
    std::vector<float> samples;  // interleaved
    int sample_rate = 0;
    int channels = 0;
    long long frames() const { return channels ? (long long)samples.size() / channels : 0; }
};

// Bounds on imported audio: a clip comes from anywhere, and its header alone decides how much
// read_audio would allocate. The rates match engine/src/input_limits.h (kMinSampleRate/kMaxSampleRate);
// 64 channels covers any interleaved recording; 4 GiB of decoded float32 is 3.4 h of 44.1 kHz stereo.
inline constexpr int kMinAudioSampleRate = 1000;
inline constexpr int kMaxAudioSampleRate = 768000;
inline constexpr int kMaxAudioChannels = 64;
inline constexpr unsigned long long kMaxDecodedAudioBytes = 4ull << 30;

// Reads WAV, FLAC, OGG, ... through libsndfile. Throws AudioError naming the file and the reason:
// missing, not a regular file, not audio/corrupt, no frames, a sample rate or channel count out
// of range, truncated data, longer than max_seconds, or more than kMaxDecodedAudioBytes decoded.
// Memory grows with the frames actually decoded, never with the count the header claims.
AudioData read_audio(const std::string& path, double max_seconds = 600.0);

// The INFO strings write_wav stored (title, software, comment); empty where absent.
WavMetadata read_metadata(const std::string& path);

}  // namespace reef::audio
