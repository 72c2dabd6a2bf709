#include "remote/speech_events.h"

#include <nlohmann/json.hpp>

#include "remote/base64.h"

namespace reef::remote {

bool SpeechEventReader::read(const SseEvent& event, std::vector<float>& out) {
    using nlohmann::json;
    ++m_events;
    if (event.data == "[DONE]") {
        m_done = true;
        return true;
    }
    const json j = json::parse(event.data, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) {
        m_error = "the server sent a malformed stream event (event " + std::to_string(m_events) + " is not a JSON object)";
        return false;
    }
    std::string type = j.value("type", j.value("object", event.event));
    if (const auto e = j.find("error"); (e != j.end() && !e->is_null()) || type.find("error") != std::string::npos) {
        std::string message;
        if (e != j.end() && e->is_object()) message = e->value("message", std::string());
        if (e != j.end() && e->is_string()) message = e->get<std::string>();
        m_error = "the server failed while streaming" + (message.empty() ? std::string() : ": " + message);
        return false;
    }
    if (m_done) return true;   // anything after the end is ignored
    const auto audio = j.find("audio");
    std::string b64;
    bool whole_wav = false;
    if (audio != j.end() && audio->is_string()) {
        b64 = audio->get<std::string>();
    } else if (audio != j.end() && audio->is_object()) {
        const auto data = audio->find("data");
        if (data == audio->end() || !data->is_string()) {
            m_error = "the server sent a malformed stream event (its audio has no base64 data)";
            return false;
        }
        b64 = data->get<std::string>();
        whole_wav = audio->value("format", std::string()) == "wav";
    } else if (const auto delta = j.find("delta"); delta != j.end() && delta->is_string()) {
        b64 = delta->get<std::string>();
    }
    if (!b64.empty()) {
        const std::optional<std::string> bytes = base64_decode(b64);
        if (!bytes) {
            m_error = "the server sent a malformed stream event (its audio is not valid base64)";
            return false;
        }
        if (whole_wav) m_pcm.expect_header_again();
        if (!m_pcm.feed(*bytes, out)) {
            m_error = m_pcm.error();
            return false;
        }
    }
    const bool finished = type.size() >= 5 && type.compare(type.size() - 5, 5, ".done") == 0;
    const auto reason = j.find("finish_reason");
    if (finished || (reason != j.end() && !reason->is_null())) m_done = true;
    return true;
}

}  // namespace reef::remote
