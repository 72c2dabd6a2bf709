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

// Reads WAV, FLAC, OGG, ... through libsndfile. Throws AudioError naming the file and the reason:
// missing, not audio/corrupt, no frames, truncated data, or longer than max_seconds.
AudioData read_audio(const std::string& path, double max_seconds = 600.0);

// The INFO strings write_wav stored (title, software, comment); empty where absent.
WavMetadata read_metadata(const std::string& path);

}  // namespace reef::audio
