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
    std::string format = "wav";      // wav | pcm
    bool sse = false;                // OpenAI: SSE events rather than raw bytes
    std::string reference_id;        // a stored voice (fish "reference_id", OpenAI "voice"), resolved by the caller
};

// Each returns InvalidArgument naming the field and its allowed values.
Result<SpeechJob> parse_fish_tts(const nlohmann::json& body);
Result<SpeechJob> parse_openai_speech(const nlohmann::json& body);

// s16le mono, clipped to [-1, 1] first (fish-speech multiplies by 32768 and wraps at 1.0).
std::string pcm16_bytes(const std::vector<float>& samples);
// A whole 16-bit mono WAV file at 44.1 kHz.
std::string wav_bytes(const std::vector<float>& samples);
// The header alone, with the streaming placeholder size 0xFFFFFFFF (what vLLM-Omni streams first).
std::string wav_stream_header();

}  // namespace reef::cli
