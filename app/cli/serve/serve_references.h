// reef-cli serve's stored voices, as fish-speech's server keeps them: POST /v1/references/add
// (multipart: id, audio, text), GET /v1/references/list, DELETE /v1/references/delete
// {reference_id}, POST /v1/references/update {old_reference_id, new_reference_id}; then
// "reference_id" in /v1/tts (and "voice" in /v1/audio/speech) speaks with one. Answers are msgpack
// unless ?format=json or the client accepts JSON only (fish-speech's rule). Kept in memory until
// the server stops.
#pragma once
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace httplib {
class Server;
}

namespace reef::cli {

class ReferenceStore {
public:
    static constexpr size_t kMaxReferences = 256;
    // The clip's file bytes and its transcript, or nullopt.
    std::optional<std::pair<std::string, std::string>> find(const std::string& id) const;
    void install(httplib::Server& server);

private:
    mutable std::mutex m_mutex;
    std::vector<std::pair<std::string, std::pair<std::string, std::string>>> m_refs;   // id -> (audio, text)
};

}  // namespace reef::cli
