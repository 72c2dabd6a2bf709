#include "serve/serve_references.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <regex>

#include "audio/audio_error.h"
#include "audio/wav_file.h"

namespace reef::cli {
namespace {

using nlohmann::json;

bool valid_id(const std::string& id) {
    static const std::regex pattern("[A-Za-z0-9_-]{1,64}");
    return std::regex_match(id, pattern);
}

// fish-speech's format_response: msgpack unless ?format=json or the client accepts JSON only.
void answer(const httplib::Request& req, httplib::Response& res, int status, const json& body) {
    const std::string accept = req.get_header_value("Accept");
    const bool as_json = req.get_param_value("format") == "json" ||
                         (accept.find("application/json") != std::string::npos &&
                          accept.find("application/msgpack") == std::string::npos);
    res.status = status;
    if (as_json) {
        res.set_content(body.dump(), "application/json");
    } else {
        const std::vector<uint8_t> packed = json::to_msgpack(body);
        res.set_content(std::string(packed.begin(), packed.end()), "application/msgpack");
    }
}

void fail(const httplib::Request& req, httplib::Response& res, int status, const std::string& message,
          const std::string& id = {}) {
    json body{{"success", false}, {"message", message}};
    if (!id.empty()) body["reference_id"] = id;
    answer(req, res, status, body);
}

// A JSON or msgpack body's object, or nullopt.
std::optional<json> body_of(const httplib::Request& req) {
    const std::string type = req.get_header_value("Content-Type");
    json j = type.rfind("application/msgpack", 0) == 0 ? json::from_msgpack(req.body, true, false)
                                                        : json::parse(req.body, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return std::nullopt;
    return j;
}

}  // namespace

std::optional<std::pair<std::string, std::string>> ReferenceStore::find(const std::string& id) const {
    std::lock_guard lock(m_mutex);
    for (const auto& [key, value] : m_refs)
        if (key == id) return value;
    return std::nullopt;
}

void ReferenceStore::install(httplib::Server& s) {
    s.Post("/v1/references/add", [this](const httplib::Request& req, httplib::Response& res) {
        if (!req.is_multipart_form_data() || !req.has_file("id") || !req.has_file("audio") || !req.has_file("text"))
            return fail(req, res, 400, "send multipart/form-data with id, audio and text");
        const std::string id = req.get_file_value("id").content;
        const std::string audio = req.get_file_value("audio").content;
        const std::string text = req.get_file_value("text").content;
        if (!valid_id(id)) return fail(req, res, 400, "a reference id is 1 to 64 of A-Z a-z 0-9 _ -", id);
        if (text.empty()) return fail(req, res, 400, "the reference needs its transcript (text)", id);
        try {   // refused now, not at the first synthesis that uses it
            (void)audio::read_audio_bytes(audio, "the reference clip", 30.0);
        } catch (const audio::AudioError& e) {
            return fail(req, res, 400, e.what(), id);
        }
        std::lock_guard lock(m_mutex);
        if (std::any_of(m_refs.begin(), m_refs.end(), [&](const auto& r) { return r.first == id; }))
            return fail(req, res, 409, "a reference with the id " + id + " exists already", id);
        if (m_refs.size() >= kMaxReferences)
            return fail(req, res, 400, "this server keeps at most " + std::to_string(kMaxReferences) + " references", id);
        m_refs.push_back({id, {audio, text}});
        answer(req, res, 200, {{"success", true}, {"message", "Reference " + id + " added"}, {"reference_id", id}});
    });
    s.Get("/v1/references/list", [this](const httplib::Request& req, httplib::Response& res) {
        std::vector<std::string> ids;
        {
            std::lock_guard lock(m_mutex);
            for (const auto& r : m_refs) ids.push_back(r.first);
        }
        answer(req, res, 200, {{"success", true}, {"reference_ids", ids},
                               {"message", "Found " + std::to_string(ids.size()) + " reference voices"}});
    });
    s.Delete("/v1/references/delete", [this](const httplib::Request& req, httplib::Response& res) {
        const std::optional<json> b = body_of(req);
        if (!b || !b->contains("reference_id") || !(*b)["reference_id"].is_string())
            return fail(req, res, 400, "send {\"reference_id\": ...}");
        const std::string id = (*b)["reference_id"].get<std::string>();
        std::lock_guard lock(m_mutex);
        const auto it = std::find_if(m_refs.begin(), m_refs.end(), [&](const auto& r) { return r.first == id; });
        if (it == m_refs.end()) return fail(req, res, 404, "no reference with the id " + id, id);
        m_refs.erase(it);
        answer(req, res, 200, {{"success", true}, {"message", "Reference " + id + " deleted"}, {"reference_id", id}});
    });
    s.Post("/v1/references/update", [this](const httplib::Request& req, httplib::Response& res) {
        const std::optional<json> b = body_of(req);
        if (!b || !b->contains("old_reference_id") || !b->contains("new_reference_id") ||
            !(*b)["old_reference_id"].is_string() || !(*b)["new_reference_id"].is_string())
            return fail(req, res, 400, "send {\"old_reference_id\": ..., \"new_reference_id\": ...}");
        const std::string from = (*b)["old_reference_id"].get<std::string>(), to = (*b)["new_reference_id"].get<std::string>();
        if (!valid_id(to)) return fail(req, res, 400, "a reference id is 1 to 64 of A-Z a-z 0-9 _ -", to);
        std::lock_guard lock(m_mutex);
        const auto it = std::find_if(m_refs.begin(), m_refs.end(), [&](const auto& r) { return r.first == from; });
        if (it == m_refs.end()) return fail(req, res, 404, "no reference with the id " + from, from);
        if (std::any_of(m_refs.begin(), m_refs.end(), [&](const auto& r) { return r.first == to; }))
            return fail(req, res, 409, "a reference with the id " + to + " exists already", to);
        it->first = to;
        answer(req, res, 200, {{"success", true}, {"message", "Reference " + from + " renamed to " + to}, {"reference_id", to}});
    });
}

}  // namespace reef::cli
