// reef-cli serve: the two request bodies it accepts, read into one job description, and the audio
// bytes it answers with. fish-speech's POST /v1/tts (msgpack or JSON, fish_speech/utils/schema.py's
// ServeTTSRequest) and the OpenAI-compatible POST /v1/audio/speech (vLLM-Omni / SGLang-Omni fields).
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "reef/engine_types.h"
#include "reef/result.h"

namespace reef::cli {

struct SpeechJob {
    std::string text;
    SamplingParams sampling;
    std::vector<std::pair<std::string, std::string>> clips;   // file bytes, transcript
    bool streaming = false;
    std::string format = "wav";      // wav | pcm | mp3 | flac (mp3 where libsndfile has LAME)
    int sample_rate = 0;             // of the answer; 0: the model's 44.1 kHz (whole answers only)
    bool sse = false;                // OpenAI: SSE events rather than raw bytes
    std::string reference_id;        // a stored voice (fish "reference_id", OpenAI "voice"), resolved by the caller
    // Pace and level after synthesis (OpenAI "speed"; Fish Audio's "prosody": {speed, volume}):
    // tempo without pitch change (0.5…2) and a gain in dB (−30…+12).
    double speed = 1.0;
    double volume_db = 0.0;

    int answer_rate() const { return sample_rate ? sample_rate : kSampleRate; }
};

// Each returns InvalidArgument naming the field and its allowed values.
Result<SpeechJob> parse_fish_tts(const nlohmann::json& body);
Result<SpeechJob> parse_openai_speech(const nlohmann::json& body);

// s16le mono, clipped to [-1, 1] first (fish-speech multiplies by 32768 and wraps at 1.0).
std::string pcm16_bytes(const std::vector<float>& samples);
// A whole 16-bit mono WAV file (the model's 44.1 kHz unless told).
std::string wav_bytes(const std::vector<float>& samples, int sample_rate = kSampleRate);
// A whole answer's body in the job's format and sample rate, and its content type. Throws
// audio::AudioError where the encoder fails (the parsers have refused what it cannot write).
std::string speech_bytes(const std::vector<float>& samples, const SpeechJob& job);
std::string speech_content_type(const SpeechJob& job, bool openai);
// The header alone, with the streaming placeholder size 0xFFFFFFFF (what vLLM-Omni streams first).
std::string wav_stream_header();

}  // namespace reef::cli
