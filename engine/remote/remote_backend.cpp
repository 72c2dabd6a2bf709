// The remote backend: a TtsBackend whose speech comes from a server (reef/remote.h). load() asks
// the server who it is; synthesize() sends one request in the server's own wire format and turns
// what comes back (streamed PCM, SSE events or a whole file) into Reef's audio chunks and metrics.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "audio/audio_error.h"
#include "audio/resample.h"
#include "audio/wav_file.h"
#include "reef/remote.h"
#include "remote/base64.h"
#include "remote/http_client.h"
#include "remote/pcm_stream.h"
#include "remote/server_errors.h"
#include "remote/speech_events.h"
#include "remote/sse_parser.h"

namespace reef {
namespace {

using nlohmann::json;
using remote::HttpRequest;
using remote::HttpResponse;
using Clock = std::chrono::steady_clock;

constexpr size_t kMaxReferenceBytes = size_t(50) << 20;   // a reference clip sent inline
constexpr int kMaxTextBytes = 1 << 20;

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

std::optional<std::string> read_file_bytes(const std::string& path, std::string* error) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) {
        *error = "cannot read the reference clip " + path + ": " + ec.message();
        return std::nullopt;
    }
    if (size > kMaxReferenceBytes) {
        *error = "the reference clip " + path + " is larger than 50 MiB";
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    std::string bytes(size_t(size), '\0');
    if (!in.read(bytes.data(), std::streamsize(size))) {
        *error = "cannot read the reference clip " + path;
        return std::nullopt;
    }
    return bytes;
}

// The first model of an OpenAI-style model list ({"data": [{"id", "owned_by"}, …]}); nullopt when
// the body is not a model list at all, empty fields when the list is empty.
struct ListedModel {
    std::string id, owner;
    std::string served_with;   // reef-cli serve's own account of its engine ("cpu · fp32 · eager · auto")
};
std::optional<ListedModel> first_listed_model(const std::string& body) {
    const json j = json::parse(body, nullptr, false);
    if (!j.is_object() || !j.contains("data") || !j["data"].is_array()) return std::nullopt;
    ListedModel m;
    if (!j["data"].empty() && j["data"][0].is_object()) {
        m.id = j["data"][0].value("id", std::string());
        m.owner = j["data"][0].value("owned_by", std::string());
        const json& reef = j["data"][0].contains("reef") ? j["data"][0]["reef"] : json();
        if (reef.is_object()) {
            std::string parts;
            for (const char* key : {"device", "precision", "compile_mode", "sdpa_policy"})
                if (reef.contains(key) && reef[key].is_string() && !reef[key].get<std::string>().empty())
                    parts += (parts.empty() ? "" : " · ") + reef[key].get<std::string>().substr(0, 40);
            m.served_with = parts;
        }
    }
    return m;
}

// A reference voice's clip file, to send inline; every flavour needs the clip, not Reef's codes.
Result<std::string> reference_clip_bytes(const ReferenceVoice& v, const std::string& server_kind) {
    if (v.audio_path.empty())
        return EngineError{ErrorCode::InvalidArgument,
                           server_kind + " needs the reference clip itself, and this voice has only codes", {}};
    std::string error;
    std::optional<std::string> bytes = read_file_bytes(v.audio_path, &error);
    if (!bytes) return EngineError{ErrorCode::Io, error, {}};
    return std::move(*bytes);
}

std::string mime_of(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (ext == ".flac") return "audio/flac";
    if (ext == ".mp3") return "audio/mpeg";
    if (ext == ".ogg" || ext == ".oga" || ext == ".opus") return "audio/ogg";
    return "audio/wav";
}

// Chunks for on_audio_chunk as samples arrive: at least one frame's worth each, the last marked.
class ChunkEmitter {
public:
    ChunkEmitter(uint64_t id, const Callbacks& cb) : m_id(id), m_cb(cb) {}
    void add(std::vector<float>& fresh, bool flush) {
        m_pending.insert(m_pending.end(), fresh.begin(), fresh.end());
        fresh.clear();
        if (!m_cb.on_audio_chunk || (m_pending.size() < size_t(kSamplesPerFrame) && !flush) || m_pending.empty())
            return;
        emit(false);
    }
    void finish() {
        if (m_cb.on_audio_chunk) emit(true);
    }

private:
    void emit(bool last) {
        AudioChunk c;
        c.request_id = m_id;
        c.first_sample = m_sent;
        c.samples = std::move(m_pending);
        c.last = last;
        m_pending.clear();
        m_sent += int64_t(c.samples.size());
        m_cb.on_audio_chunk(c);
    }
    uint64_t m_id;
    const Callbacks& m_cb;
    std::vector<float> m_pending;
    int64_t m_sent = 0;
};

// Progress of a streamed answer for the views (issue #47): a server sends audio, not frames, so
// each frame's worth of samples received (at 44.1 kHz) counts as a frame, and the perf sample's
// rate is audio frames per second of wall time since the first audio. No attention backend is
// known: the sample's stay Unknown.
class StreamProgress {
public:
    using Clock = std::chrono::steady_clock;
    StreamProgress(uint64_t id, const Callbacks& cb, Clock::time_point t0) : m_id(id), m_cb(cb), m_t0(t0) {}
    void received(size_t samples_44k) {
        const int frames = int(samples_44k / size_t(kSamplesPerFrame));
        if (frames <= m_reported) return;
        const Clock::time_point now = Clock::now();
        if (m_reported == 0) m_first = now;
        for (; m_reported < frames; ++m_reported)
            if (m_cb.on_frame) m_cb.on_frame(m_id, m_reported, {});
        if (!m_cb.on_perf) return;
        PerfSample s;
        s.request_id = m_id;
        s.frame = frames - 1;
        s.t_ms = std::chrono::duration<double, std::milli>(now - m_t0).count();
        const double streaming_s = std::chrono::duration<double>(now - m_first).count();
        s.frames_per_s = streaming_s > 0.05 ? (frames - 1) / streaming_s : 0;
        s.step_ms = s.frames_per_s > 0 ? 1000.0 / s.frames_per_s : 0;
        m_cb.on_perf(s);
    }

private:
    uint64_t m_id;
    const Callbacks& m_cb;
    Clock::time_point m_t0, m_first;
    int m_reported = 0;
};

class RemoteBackend final : public TtsBackend {
public:
    explicit RemoteBackend(ServerProfile profile) : m_profile(std::move(profile)) {}

    Result<ModelInfo> load(const EngineConfig&) override;
    bool is_loaded() const override { return m_loaded; }
    Result<SynthesisResult> synthesize(const SynthesisRequest& request, const Callbacks& callbacks) override;
    Result<Codes> encode_reference(const std::vector<float>&) override {
        return not_available("encoding a reference clip into codes (the server takes the clip itself)");
    }
    DeviceCaps device_caps() const override;

private:
    HttpRequest base_request(const std::string& method, const std::string& route) const;
    HttpResponse get(const std::string& route) const;
    Result<RemoteFlavour> detect_flavour();
    Result<HttpRequest> fish_speech_request(const SynthesisRequest& r, bool stream) const;
    Result<HttpRequest> openai_request(const SynthesisRequest& r, bool stream) const;
    std::string server_label() const { return m_profile.display_name(); }

    ServerProfile m_profile;
    std::string m_base;
    RemoteFlavour m_flavour = RemoteFlavour::Auto;
    std::string m_model;      // OpenAI "model": the profile's, else the server's first listed
    std::optional<ListedModel> m_listed;   // /v1/models' first entry, as this load read it
    bool m_loaded = false;
    ModelInfo m_info;
};

HttpRequest RemoteBackend::base_request(const std::string& method, const std::string& route) const {
    HttpRequest h;
    h.method = method;
    h.url = m_base + route;
    h.connect_timeout_s = m_profile.connect_timeout_s;
    h.idle_timeout_s = m_profile.idle_timeout_s;
    h.first_byte_timeout_s = m_profile.first_byte_timeout_s;
    if (!m_profile.api_key.empty()) h.headers.push_back("Authorization: Bearer " + m_profile.api_key);
    return h;
}

HttpResponse RemoteBackend::get(const std::string& route) const {
    HttpRequest h = base_request("GET", route);
    h.max_body_bytes = size_t(4) << 20;
    h.idle_timeout_s = std::min(h.idle_timeout_s, 30.0);
    h.first_byte_timeout_s = std::min(h.first_byte_timeout_s, 30.0);
    return remote::http_exchange(h);
}

Result<RemoteFlavour> RemoteBackend::detect_flavour() {
    const RemoteFlavour asked = m_profile.flavour;
    // fish-speech answers /v1/health with {"status":"ok"} (behind its key, if it has one).
    if (asked == RemoteFlavour::Auto && !m_profile.openai_only) {
        const HttpResponse r = get("/v1/health");
        if (r.failure != HttpResponse::Failure::None || r.status == 401 || r.status == 403 ||
            (r.status >= 300 && r.status < 400))
            return remote::describe_failure(r, server_label(), "/v1/health", "the health check", m_profile.key_setting);
        if (r.ok()) {
            const json j = json::parse(r.body, nullptr, false);
            if (j.is_object() && j.value("status", std::string()) == "ok") return RemoteFlavour::FishSpeech;
        }
    }
    if (asked == RemoteFlavour::FishSpeech) {
        const HttpResponse r = get("/v1/health");
        if (!r.ok()) return remote::describe_failure(r, server_label(), "/v1/health", "the health check", m_profile.key_setting);
        return RemoteFlavour::FishSpeech;
    }
    // The OpenAI-compatible ones: /v1/models names the model (and, on SGLang-Omni, its owner).
    const HttpResponse models = get("/v1/models");
    if (!models.ok()) {
        EngineError e = remote::describe_failure(models, server_label(), "/v1/models", "the model list", m_profile.key_setting);
        if (asked == RemoteFlavour::Auto && models.status == 404)
            e.message = "the server answers neither fish-speech's /v1/health nor the OpenAI-compatible /v1/models (" +
                        server_label() + ")";
        return e;
    }
    const std::optional<ListedModel> listed = m_listed = first_listed_model(models.body);
    if (!listed)
        return EngineError{ErrorCode::BackendUnavailable,
                           "the server does not look like fish-speech, SGLang-Omni or vLLM-Omni: GET /v1/models answered " +
                               (models.content_type.empty() ? std::string("something") : models.content_type) +
                               " that is not a model list (" + server_label() + ")",
                           "Check the URL (host, port and path prefix)."};
    if (m_model.empty()) m_model = listed->id;
    if (asked == RemoteFlavour::SglangOmni || asked == RemoteFlavour::VllmOmni) return asked;
    if (listed->owner.find("sglang") != std::string::npos) return RemoteFlavour::SglangOmni;
    if (listed->owner.find("vllm") != std::string::npos) return RemoteFlavour::VllmOmni;
    const HttpResponse voices = get("/v1/audio/voices");
    return voices.ok() ? RemoteFlavour::VllmOmni : RemoteFlavour::SglangOmni;
}

Result<ModelInfo> RemoteBackend::load(const EngineConfig&) {
    m_loaded = false;
    m_base = remote::normalize_base_url(m_profile.url);
    if (m_base.empty())
        return EngineError{ErrorCode::InvalidArgument, "not a server address: \"" + m_profile.url + "\"",
                           "Give an http:// or https:// URL, e.g. http://127.0.0.1:8080."};
    m_model = m_profile.model;
    m_listed.reset();
    Result<RemoteFlavour> flavour = detect_flavour();
    if (!flavour) return flavour.error();
    m_flavour = *flavour;
    // The model list, read once: detection read it for the OpenAI-compatible flavours; fish-speech
    // has none, but reef-cli serve (same protocol) names its model there. reef-cli serve also says
    // how it runs the model; others say nothing.
    if (!m_listed) {
        const HttpResponse models = get("/v1/models");
        if (models.ok()) m_listed = first_listed_model(models.body);
    }
    if (m_flavour == RemoteFlavour::FishSpeech && m_model.empty() && m_listed) m_model = m_listed->id;
    const std::string served_with = m_listed ? m_listed->served_with : std::string();
    m_info = ModelInfo{};
    m_info.model_dir = m_base;
    m_info.model_type = std::string("remote:") + to_string(m_flavour);
    const std::string model = m_model.empty() ? std::string() : " " + m_model;
    m_info.name = std::string(to_string(m_flavour)) + model + " at " + server_label();
    m_info.num_codebooks = 10;
    m_info.served_with = served_with;
    m_loaded = true;
    return m_info;
}

Result<HttpRequest> RemoteBackend::fish_speech_request(const SynthesisRequest& r, bool stream) const {
    const SamplingParams& s = r.sampling;
    json body = {
        {"text", r.text},
        // fish-speech batches text by chunk_length (100-1000 bytes); Reef's 0 = "no limit" is its most.
        {"chunk_length", s.chunk_length <= 0 ? 1000 : std::clamp(s.chunk_length, 100, 1000)},
        {"format", "wav"},
        {"seed", s.seed},
        {"use_memory_cache", "off"},
        {"normalize", true},
        {"streaming", stream},
        {"max_new_tokens", s.max_new_frames},
        {"top_p", s.top_p},
        {"repetition_penalty", s.repetition_penalty},
        {"temperature", s.temperature},
    };
    json refs = json::array();
    for (const ReferenceVoice& v : r.references) {
        Result<std::string> bytes = reference_clip_bytes(v, "fish-speech's server");
        if (!bytes) return bytes.error();
        // msgpack bin: the server takes bytes as they are (a JSON string would be base64-guessed).
        refs.push_back({{"audio", json::binary(std::vector<uint8_t>(bytes->begin(), bytes->end()))}, {"text", v.text}});
    }
    body["references"] = std::move(refs);
    HttpRequest h = base_request("POST", "/v1/tts");
    h.headers.push_back("Content-Type: application/msgpack");
    if (!m_profile.model.empty()) h.headers.push_back("model: " + m_profile.model);   // Fish Audio's hosted API
    const std::vector<uint8_t> packed = json::to_msgpack(body);
    h.body.assign(packed.begin(), packed.end());
    return h;
}

Result<HttpRequest> RemoteBackend::openai_request(const SynthesisRequest& r, bool stream) const {
    const SamplingParams& s = r.sampling;
    json body = {
        {"input", r.text},
        {"voice", m_profile.voice.empty() ? "default" : m_profile.voice},
        {"response_format", stream ? "pcm" : "wav"},   // both servers stream only pcm (SGLang) or pcm/wav
        {"stream", stream},
        {"seed", s.seed},
    };
    if (stream) body["stream_format"] = "sse";
    if (!m_model.empty()) body["model"] = m_model;
    if (s.max_new_frames > 0) body["max_new_tokens"] = s.max_new_frames;
    if (m_flavour == RemoteFlavour::VllmOmni) {
        // vLLM-Omni drops unknown top-level fields; its sampling knobs live in extra_params.
        body["extra_params"] = {{"temperature", s.temperature}, {"top_p", s.top_p}, {"top_k", s.top_k}};
    } else {
        body["temperature"] = s.temperature;
        body["top_p"] = s.top_p;
        body["top_k"] = s.top_k;
        body["repetition_penalty"] = s.repetition_penalty;
    }
    for (const ReferenceVoice& v : r.references) {
        Result<std::string> bytes = reference_clip_bytes(v, to_string(m_flavour));
        if (!bytes) return bytes.error();
        if (m_flavour == RemoteFlavour::VllmOmni) {
            if (r.references.size() > 1)
                return EngineError{ErrorCode::InvalidArgument, "vLLM-Omni takes one reference clip per request", {}};
            body["ref_audio"] = "data:" + mime_of(v.audio_path) + ";base64," + remote::base64_encode(*bytes);
            body["ref_text"] = v.text;
        } else {
            // SGLang-Omni 0.1.9 takes inline clips as references[].data (base64); older releases
            // only a path or URL on the server, and say so in their error.
            body["references"].push_back({{"data", remote::base64_encode(*bytes)}, {"media_type", mime_of(v.audio_path)},
                                          {"text", v.text}});
        }
    }
    HttpRequest h = base_request("POST", "/v1/audio/speech");
    h.headers.push_back("Content-Type: application/json");
    h.body = body.dump();
    return h;
}

Result<SynthesisResult> RemoteBackend::synthesize(const SynthesisRequest& request, const Callbacks& callbacks) {
    if (!m_loaded) return EngineError{ErrorCode::NotLoaded, "no server is connected", "Load the server profile first."};
    if (request.text.find_first_not_of(" \t\r\n") == std::string::npos)
        return EngineError{ErrorCode::InvalidArgument, "the text is empty", {}};
    if (request.text.size() > size_t(kMaxTextBytes))
        return EngineError{ErrorCode::InvalidArgument, "the text is longer than 1 MiB", "Split it into a project."};
    const bool stream = bool(callbacks.on_audio_chunk) && request.stream_chunk_frames > 0 && request.decode_audio;
    Result<HttpRequest> built = m_flavour == RemoteFlavour::FishSpeech ? fish_speech_request(request, stream)
                                                                       : openai_request(request, stream);
    if (!built) return built.error();
    HttpRequest& http = *built;
    const std::string route = m_flavour == RemoteFlavour::FishSpeech ? "/v1/tts" : "/v1/audio/speech";

    // Far longer than asked is a server gone wrong: stop reading. fish-speech applies
    // max_new_tokens to each text batch, so its cap grows with the number of batches.
    const int batches = m_flavour == RemoteFlavour::FishSpeech
                            ? 1 + int(request.text.size()) / std::max(100, request.sampling.chunk_length > 0 ? request.sampling.chunk_length : 1000)
                            : 1;
    const double max_frames = request.sampling.max_new_frames > 0 ? double(request.sampling.max_new_frames) * batches * 1.25 + 64
                                                                 : 3600.0 * kFramesPerSecond;
    const size_t max_samples = size_t(max_frames * kSamplesPerFrame);

    const Clock::time_point t0 = Clock::now();
    SynthesisResult result;
    result.request_id = request.id;
    ChunkEmitter emitter(request.id, callbacks);
    StreamProgress progress(request.id, callbacks, t0);
    std::vector<float> fresh;
    std::string stream_error;
    double first_audio_ms = 0;
    int rate = kSampleRate;
    bool too_long = false;
    auto take = [&](std::vector<float>& samples) {
        if (samples.empty()) return true;
        if (first_audio_ms == 0) first_audio_ms = ms_since(t0);
        if (result.audio.size() + samples.size() > max_samples) {
            too_long = true;
            return false;
        }
        result.audio.insert(result.audio.end(), samples.begin(), samples.end());
        progress.received(size_t(double(result.audio.size()) * kSampleRate / std::max(rate, 1)));
        if (rate == kSampleRate) emitter.add(samples, false);
        samples.clear();
        return true;
    };

    remote::PcmStream pcm;
    remote::SpeechEventReader events;
    remote::SseParser sse([&](const remote::SseEvent& e) {
        if (!events.read(e, fresh)) {
            stream_error = events.error();
            return false;
        }
        rate = events.sample_rate();
        return take(fresh);
    });
    // Streams are SSE events from the OpenAI-compatible servers, raw PCM from fish-speech.
    const bool sse_mode = m_flavour != RemoteFlavour::FishSpeech;
    std::function<bool(std::string_view)> on_data;
    if (stream)
        on_data = [&](std::string_view bytes) {
            if (sse_mode) {
                if (!sse.feed(bytes)) {
                    if (stream_error.empty() && !too_long) stream_error = sse.error();
                    return false;
                }
                return true;
            }
            if (!pcm.feed(bytes, fresh)) {
                stream_error = pcm.error();
                return false;
            }
            rate = pcm.sample_rate();
            return take(fresh);
        };
    const HttpResponse response = remote::http_exchange(http, on_data, callbacks.should_abort);

    if (callbacks.should_abort && callbacks.should_abort()) return EngineError{ErrorCode::Cancelled, "synthesis cancelled", {}};
    if (too_long)
        return EngineError{ErrorCode::Io,
                           "the server sent far more audio than was asked for (over " +
                               std::to_string(int(max_frames / kFramesPerSecond)) + " s); Reef stopped reading (" +
                               server_label() + ")",
                           "Check max new frames and the server's settings."};
    if (!stream_error.empty())
        return EngineError{ErrorCode::Io, stream_error + " (" + server_label() + ")", {}};
    if (!response.ok()) {
        EngineError e = remote::describe_failure(response, server_label(), route, "synthesis", m_profile.key_setting);
        // SGLang-Omni before 0.1.9 takes reference clips only as paths or URLs on the server.
        if (m_flavour == RemoteFlavour::SglangOmni && !request.references.empty() && response.status >= 400 &&
            response.status < 600)
            e.hint = "This SGLang-Omni may not take inline reference clips (0.1.9 and later do; older ones only a "
                     "path or URL on the server): update it, or clone on fish-speech's server, vLLM-Omni or Reef.";
        return e;
    }
    if (stream) {
        if (sse_mode) {
            sse.finish();
            if (!stream_error.empty()) return EngineError{ErrorCode::Io, stream_error + " (" + server_label() + ")", {}};
            if (!events.done())
                return EngineError{ErrorCode::Io,
                                   "the server's stream ended without its final event: the audio may be cut (" +
                                       server_label() + ")",
                                   "The server may have crashed or restarted; look at its log and try again."};
        } else if (pcm.pending_bytes() != 0) {
            return EngineError{ErrorCode::Io, "the server's audio stream ended inside a sample: it was cut (" + server_label() + ")", {}};
        }
        if (rate != kSampleRate) {   // no live play at another rate: resampled whole at the end
            result.audio = audio::resample(result.audio, rate, kSampleRate);
            std::vector<float> all = result.audio;
            emitter.add(all, true);
        }
    } else {
        if (response.body.empty())
            return EngineError{ErrorCode::Io, "the server answered with no audio (an empty body) (" + server_label() + ")", {}};
        try {
            audio::AudioData decoded = audio::read_audio_bytes(response.body, "the server's answer", 3600.0);
            std::vector<float> mono = audio::mix_to_mono(decoded.samples, decoded.channels);
            if (decoded.sample_rate != kSampleRate) mono = audio::resample(mono, decoded.sample_rate, kSampleRate);
            first_audio_ms = ms_since(t0);
            if (mono.size() > max_samples)
                return EngineError{ErrorCode::Io, "the server sent far more audio than was asked for (" + server_label() + ")", {}};
            result.audio = std::move(mono);
        } catch (const audio::AudioError& e) {
            return EngineError{ErrorCode::Io, std::string("the server's answer is not audio Reef can read: ") + e.what() +
                                                  " (content type " + (response.content_type.empty() ? "none" : response.content_type) + ")",
                               {}};
        }
    }
    if (result.audio.empty())
        return EngineError{ErrorCode::Io, "the server finished without sending any audio (" + server_label() + ")", {}};
    emitter.finish();

    RunMetrics& m = result.metrics;
    m.total_ms = ms_since(t0);
    m.time_to_first_audio_ms = first_audio_ms;
    m.cold_first_frame_ms = response.first_byte_ms;
    m.generation_ms = m.total_ms;
    m.audio_seconds = double(result.audio.size()) / kSampleRate;
    m.frames = int(std::ceil(double(result.audio.size()) / kSamplesPerFrame));
    m.real_time_factor = m.audio_seconds > 0 ? m.total_ms / 1000.0 / m.audio_seconds : 0;
    // What the client sees: audio frames per second of wall time after the first byte.
    const double streaming_s = (m.total_ms - first_audio_ms) / 1000.0;
    m.warm_frames_per_s = streaming_s > 0.05 ? m.frames / streaming_s : 0;
    m.stop_reason = "server";
    return result;
}

DeviceCaps RemoteBackend::device_caps() const {
    DeviceCaps caps;
    const std::string why = "speech is made by the server " + server_label();
    caps.devices["cpu"] = {false, why};
    caps.devices["cuda"] = {false, why};
    caps.compile_modes["eager"] = {false, why};
    return caps;
}

}  // namespace

std::unique_ptr<TtsBackend> make_remote_backend(const ServerProfile& profile) {
    return std::make_unique<RemoteBackend>(profile);
}

}  // namespace reef
