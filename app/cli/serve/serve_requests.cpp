#include "serve/serve_requests.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>
#include <utility>

#include "audio/resample.h"
#include "audio/time_stretch.h"
#include "audio/wav_file.h"
#include "reef/sampling_settings.h"
#include "remote/base64.h"

namespace reef::cli {
namespace {

using nlohmann::json;

EngineError bad(const std::string& message) { return EngineError{ErrorCode::InvalidArgument, message, {}}; }

// A number field: absent or null keeps the default; anything but a number is refused.
bool number(const json& body, const char* key, double* out, std::string* error) {
    const auto it = body.find(key);
    if (it == body.end() || it->is_null()) return true;
    if (!it->is_number()) {
        *error = std::string("\"") + key + "\" must be a number";
        return false;
    }
    *out = it->get<double>();
    return true;
}

bool string_field(const json& body, const char* key, std::string* out, std::string* error) {
    const auto it = body.find(key);
    if (it == body.end() || it->is_null()) return true;
    if (!it->is_string()) {
        *error = std::string("\"") + key + "\" must be a string";
        return false;
    }
    *out = it->get<std::string>();
    return true;
}

// Seeds: any 64-bit value, as an unsigned or a negative JSON/msgpack integer (two's complement).
bool seed_field(const json& body, const char* key, SamplingParams& s, std::string* error) {
    const auto it = body.find(key);
    if (it == body.end() || it->is_null()) return true;
    if (it->is_number_unsigned()) s.seed = it->get<uint64_t>();
    else if (it->is_number_integer()) s.seed = uint64_t(it->get<int64_t>());
    else {
        *error = std::string("\"") + key + "\" must be an integer";
        return false;
    }
    return true;
}

Result<SpeechJob> checked(SpeechJob job) {
    if (job.text.find_first_not_of(" \t\r\n") == std::string::npos) return bad("\"text\" is empty");
    if (!(job.speed >= audio::kMinSpeed && job.speed <= audio::kMaxSpeed))
        return bad("\"speed\" must be between 0.5 and 2.0 (got " + json(job.speed).dump() + ")");
    if (!(job.volume_db >= -30.0 && job.volume_db <= 12.0))
        return bad("\"volume\" must be between -30 and 12 dB (got " + json(job.volume_db).dump() + ")");
    if (const auto problem = sampling_problem(job.sampling)) return bad(*problem);
    return job;
}

// Sampling fields shared by both bodies; names per protocol.
bool sampling_fields(const json& b, SamplingParams& s, const char* max_tokens_key, std::string* error) {
    double temperature = s.temperature, top_p = s.top_p, top_k = s.top_k, penalty = s.repetition_penalty,
           max_new = s.max_new_frames;
    const json* extra = b.contains("extra_params") && b["extra_params"].is_object() ? &b["extra_params"] : nullptr;
    for (const json* src : {&b, extra}) {
        if (!src) continue;
        if (!number(*src, "temperature", &temperature, error) || !number(*src, "top_p", &top_p, error) ||
            !number(*src, "top_k", &top_k, error) || !number(*src, "repetition_penalty", &penalty, error))
            return false;
    }
    if (!number(b, max_tokens_key, &max_new, error) || !seed_field(b, "seed", s, error)) return false;
    if (top_k != std::floor(top_k) || max_new != std::floor(max_new)) {
        *error = std::string("\"top_k\" and \"") + max_tokens_key + "\" must be whole numbers";
        return false;
    }
    s.temperature = float(temperature);
    s.top_p = float(top_p);
    s.top_k = int(std::clamp(top_k, -1.0, 1e9));
    s.repetition_penalty = float(penalty);
    s.max_new_frames = int(std::clamp(max_new, -1.0, 1e9));
    return true;
}

// The encodings written through libsndfile (WAV and PCM are written here, always served).
constexpr std::pair<const char*, audio::ExportFormat> kCompressed[] = {{"mp3", audio::ExportFormat::Mp3},
                                                                      {"flac", audio::ExportFormat::Flac}};

std::optional<audio::ExportFormat> compressed(const std::string& format) {
    for (const auto& [name, f] : kCompressed)
        if (format == name) return f;
    return std::nullopt;
}

// "a, b or c"
template <typename List>
std::string one_of(const List& items) {
    std::string out;
    size_t i = 0, n = std::size(items);
    for (const auto& item : items) {
        out += (i ? (i + 1 == n ? " or " : ", ") : "") + std::string(item);
        ++i;
    }
    return out;
}

// "format" (fish-speech) or "response_format" (OpenAI) and "sample_rate", checked before any
// synthesis: a format this libsndfile cannot write at that rate is refused up front, not after
// the audio was made. Streamed answers are the model's 44.1 kHz (no resampler state is carried
// between pieces), in wav or pcm; fish-speech streams wav only (its own rule and message).
bool audio_fields(const json& b, const char* key, bool fish, SpeechJob& job, std::string* error) {
    if (!string_field(b, key, &job.format, error)) return false;
    std::vector<std::string> served = {"wav", "pcm"};
    for (const auto& [name, f] : kCompressed)
        if (audio::export_format_available(f)) served.push_back(name);
    if (std::find(served.begin(), served.end(), job.format) == served.end()) {
        *error = std::string("\"") + key + "\" " + job.format + " is not served here: " + one_of(served);
        return false;
    }
    double rate = 0;
    if (!number(b, "sample_rate", &rate, error)) return false;
    if (rate != 0 && (rate != std::floor(rate) || rate < 8000 || rate > 192000)) {
        *error = "\"sample_rate\" must be a whole number of Hz from 8000 to 192000";
        return false;
    }
    job.sample_rate = rate == kSampleRate ? 0 : int(rate);
    if (job.streaming) {
        if (fish && job.format != "wav") return *error = "Streaming only supports WAV format", false;
        if (job.format != "wav" && job.format != "pcm") {
            *error = "a streamed answer is wav or pcm; " + job.format + " is answered whole (without streaming)";
            return false;
        }
        if (job.sample_rate) {
            *error = "a streamed answer is " + std::to_string(kSampleRate) + " Hz; \"sample_rate\" " +
                     std::to_string(job.sample_rate) + " is for whole answers";
            return false;
        }
    }
    if (const auto f = compressed(job.format); f && !audio::export_format_accepts(*f, job.answer_rate(), 1)) {
        std::vector<std::string> rates;
        for (int r : audio::kMpegSampleRates) rates.push_back(std::to_string(r));
        *error = job.format + " is not written at " + std::to_string(job.answer_rate()) + " Hz here (MP3: " +
                 one_of(rates) + ")";
        return false;
    }
    return true;
}

}  // namespace

Result<SpeechJob> parse_fish_tts(const json& b) {
    if (!b.is_object()) return bad("the body must be an object (fish-speech's ServeTTSRequest)");
    SpeechJob job;
    std::string error;
    if (!b.contains("text") || !b["text"].is_string()) return bad("\"text\" is required and must be a string");
    job.text = b["text"].get<std::string>();
    if (const auto s = b.find("streaming"); s != b.end() && !s->is_null()) {
        if (!s->is_boolean()) return bad("\"streaming\" must be true or false");
        job.streaming = s->get<bool>();
    }
    if (!audio_fields(b, "format", true, job, &error)) return bad(error);
    if (!string_field(b, "reference_id", &job.reference_id, &error)) return bad(error);
    double chunk = 200;
    if (!number(b, "chunk_length", &chunk, &error)) return bad(error);
    if (!sampling_fields(b, job.sampling, "max_new_tokens", &error)) return bad(error);
    job.sampling.chunk_length = int(std::clamp(chunk, 0.0, 1e9));
    // The Fish Audio API's prosody (its SDKs send it; fish-speech's own server ignores it).
    if (const auto p = b.find("prosody"); p != b.end() && !p->is_null()) {
        if (!p->is_object()) return bad("\"prosody\" must be an object {speed, volume}");
        if (!number(*p, "speed", &job.speed, &error) || !number(*p, "volume", &job.volume_db, &error)) return bad(error);
    }
    if (const auto refs = b.find("references"); refs != b.end() && !refs->is_null()) {
        if (!refs->is_array()) return bad("\"references\" must be a list of {audio, text}");
        for (const json& r : *refs) {
            if (!r.is_object() || !r.contains("audio") || !r.contains("text") || !r["text"].is_string())
                return bad("each reference needs \"audio\" (bytes) and \"text\"");
            std::string bytes;
            const json& audio = r["audio"];
            if (audio.is_binary()) {
                bytes.assign(audio.get_binary().begin(), audio.get_binary().end());
            } else if (audio.is_string()) {
                // fish-speech's rule: a string over 255 characters is base64, a shorter one its bytes.
                bytes = audio.get<std::string>();
                if (bytes.size() > 255)
                    if (auto decoded = remote::base64_decode(bytes)) bytes = std::move(*decoded);
            } else {
                return bad("a reference's \"audio\" must be bytes (msgpack bin) or a base64 string");
            }
            job.clips.emplace_back(std::move(bytes), r["text"].get<std::string>());
        }
    }
    return checked(std::move(job));
}

Result<SpeechJob> parse_openai_speech(const json& b) {
    if (!b.is_object()) return bad("the body must be a JSON object");
    SpeechJob job;
    std::string error, stream_format;
    if (!b.contains("input") || !b["input"].is_string()) return bad("\"input\" is required and must be a string");
    job.text = b["input"].get<std::string>();
    if (!string_field(b, "stream_format", &stream_format, &error)) return bad(error);
    if (!stream_format.empty() && stream_format != "sse" && stream_format != "audio")
        return bad("\"stream_format\" must be sse or audio");
    bool stream = false;
    if (const auto s = b.find("stream"); s != b.end() && !s->is_null()) {
        if (!s->is_boolean()) return bad("\"stream\" must be true or false");
        stream = s->get<bool>();
    }
    // vLLM-Omni's rule: stream_format=audio streams raw bytes; stream or stream_format=sse, events.
    job.streaming = stream || !stream_format.empty();
    job.sse = job.streaming && stream_format != "audio";
    if (!audio_fields(b, "response_format", false, job, &error)) return bad(error);
    if (!sampling_fields(b, job.sampling, "max_new_tokens", &error)) return bad(error);
    std::string voice;
    if (!string_field(b, "voice", &voice, &error)) return bad(error);
    if (!voice.empty() && voice != "default") job.reference_id = voice;   // a voice stored on this server
    if (!number(b, "speed", &job.speed, &error)) return bad(error);
    auto add_clip = [&](const std::string& source, const std::string& text) -> std::optional<EngineError> {
        // data:audio/wav;base64,... or bare base64; server paths and URLs are not fetched.
        std::string b64 = source;
        if (source.rfind("data:", 0) == 0) {
            const size_t comma = source.find(',');
            if (comma == std::string::npos || source.substr(0, comma).find(";base64") == std::string::npos)
                return bad("a reference data URL must be base64 (data:audio/wav;base64,...)");
            b64 = source.substr(comma + 1);
        } else if (source.find("://") != std::string::npos || (!source.empty() && source[0] == '/')) {
            return bad("reef-cli serve does not fetch reference clips from paths or URLs; send the clip inline "
                       "(ref_audio as a base64 data URL)");
        }
        auto bytes = remote::base64_decode(b64);
        if (!bytes || bytes->empty()) return bad("a reference clip is not valid base64");
        job.clips.emplace_back(std::move(*bytes), text);
        return std::nullopt;
    };
    if (const auto ref = b.find("ref_audio"); ref != b.end() && !ref->is_null()) {
        if (!ref->is_string()) return bad("\"ref_audio\" must be a string (a base64 data URL)");
        std::string text;
        if (!string_field(b, "ref_text", &text, &error)) return bad(error);
        if (text.empty()) return bad("voice cloning needs \"ref_text\", the clip's transcript");
        if (auto e = add_clip(ref->get<std::string>(), text)) return *e;
    }
    if (const auto refs = b.find("references"); refs != b.end() && refs->is_array()) {
        for (const json& r : *refs) {
            if (!r.is_object() || !r.contains("text") || !r["text"].is_string())
                return bad("each reference needs \"text\" and \"data\" (base64)");
            std::string source = r.value("data", std::string());
            if (source.empty()) source = r.value("ref_audio", r.value("audio", r.value("audio_path", std::string())));
            if (auto e = add_clip(source, r["text"].get<std::string>())) return *e;
        }
    }
    return checked(std::move(job));
}

std::string pcm16_bytes(const std::vector<float>& samples) {
    std::string out(samples.size() * 2, '\0');
    for (size_t i = 0; i < samples.size(); ++i) {
        const float x = std::clamp(samples[i], -1.0f, 1.0f);
        const int16_t v = int16_t(std::lround(std::clamp(x * 32768.0f, -32768.0f, 32767.0f)));
        out[2 * i] = char(uint16_t(v) & 0xFF);
        out[2 * i + 1] = char(uint16_t(v) >> 8);
    }
    return out;
}

namespace {

std::string le(uint32_t v, int bytes) {
    std::string s;
    for (int i = 0; i < bytes; ++i) s.push_back(char((v >> (8 * i)) & 0xFF));
    return s;
}

std::string header(uint32_t data_bytes, int sample_rate) {
    const uint32_t riff = data_bytes == 0xFFFFFFFFu ? 0xFFFFFFFFu : 36 + data_bytes;
    return "RIFF" + le(riff, 4) + "WAVE" + "fmt " + le(16, 4) + le(1, 2) + le(1, 2) + le(uint32_t(sample_rate), 4) +
           le(uint32_t(sample_rate) * 2, 4) + le(2, 2) + le(16, 2) + "data" + le(data_bytes, 4);
}

}  // namespace

std::string wav_bytes(const std::vector<float>& samples, int sample_rate) {
    const std::string pcm = pcm16_bytes(samples);
    return header(uint32_t(pcm.size()), sample_rate) + pcm;
}

std::string wav_stream_header() { return header(0xFFFFFFFFu, kSampleRate); }

std::string speech_bytes(const std::vector<float>& samples, const SpeechJob& job) {
    const int rate = job.answer_rate();
    const std::vector<float> out = rate == kSampleRate || samples.empty() ? samples : audio::resample(samples, kSampleRate, rate);
    if (job.format == "pcm") return pcm16_bytes(out);
    if (const auto f = compressed(job.format)) return audio::encode_audio(out, rate, 1, *f);
    return wav_bytes(out, rate);
}

std::string speech_content_type(const SpeechJob& job, bool openai) {
    if (job.format == "pcm") return openai ? "audio/pcm" : "application/octet-stream";
    if (job.format == "mp3") return "audio/mpeg";
    if (job.format == "flac") return "audio/flac";
    return "audio/wav";
}

}  // namespace reef::cli
