// Speech made by a server instead of this process: fish-speech's own HTTP server (and Fish Audio's
// hosted API, same schema), SGLang-Omni and vLLM-Omni (OpenAI-compatible /v1/audio/speech). The
// remote backend is a TtsBackend like the native engine, so the studio, the queue and reef-cli
// drive it the same way. No Qt, no torch.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "reef/backend.h"

namespace reef {

// How a server speaks. Auto: asked from the server at load (GET /v1/health answers {"status":"ok"}
// on fish-speech; /v1/audio/voices exists on vLLM-Omni; otherwise SGLang-Omni's /health).
enum class RemoteFlavour { Auto, FishSpeech, SglangOmni, VllmOmni };
const char* to_string(RemoteFlavour f);
// "fish-speech", "sglang-omni", "vllm-omni", "auto"; "openai" = either OpenAI-compatible one
// (told apart at load).
std::optional<RemoteFlavour> parse_remote_flavour(const std::string& s);
bool remote_flavour_openai(const std::string& s);

struct ServerProfile {
    std::string name;          // what the user calls it ("GPU box"); the URL when empty
    std::string url;           // http(s)://host:port[/prefix]; a trailing /v1 is accepted
    RemoteFlavour flavour = RemoteFlavour::Auto;
    bool openai_only = false;  // "--flavour openai": Auto, but only between the OpenAI-compatible two
    std::string api_key;       // sent as "Authorization: Bearer <key>"; never written to settings files
    // Where this front end takes the key, named when the server refuses it: reef-cli's flags, or
    // the studio's Settings field (each front end words it for its own users).
    std::string key_setting = "--api-key or REEF_API_KEY";
    std::string model;         // OpenAI "model"; Fish Audio's hosted API takes it as the "model" header
    std::string voice;         // OpenAI "voice" (a server-side voice name), empty = the server's default
    int concurrency = 1;       // requests the studio's queue may run on this server at once
    double connect_timeout_s = 10;
    double idle_timeout_s = 120;   // no byte for this long, once audio flows, ends a request
    // The wait for the first byte: a request without streaming gets nothing until the server has
    // made the whole utterance.
    double first_byte_timeout_s = 600;
    std::string display_name() const { return name.empty() ? url : name; }
};

// The backend for one server. load() checks the server (health, flavour, auth) without sending
// any text; synthesize() streams the audio into on_audio_chunk as it arrives.
std::unique_ptr<TtsBackend> make_remote_backend(const ServerProfile& profile);

}  // namespace reef
