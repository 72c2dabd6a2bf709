#include "remote/server_errors.h"

#include <nlohmann/json.hpp>

namespace reef::remote {
namespace {

using nlohmann::json;

std::string printable_start(const std::string& body) {
    std::string out;
    for (char c : body) {
        if (c == '\n' || c == '\r') {
            if (!out.empty()) break;
            continue;
        }
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return {};   // binary, not a message
        out.push_back(c);
        if (out.size() >= 300) {
            out += "…";
            break;
        }
    }
    return out;
}

// [{loc: ["body", "temperature"], msg: "…"}] -> "temperature: …; …"
std::string validation_list(const json& list) {
    std::string out;
    for (const json& item : list) {
        if (!item.is_object()) continue;
        std::string where;
        if (const auto loc = item.find("loc"); loc != item.end() && loc->is_array())
            for (const json& part : *loc) {
                if (part.is_string() && part.get<std::string>() == "body") continue;
                if (!where.empty()) where += ".";
                where += part.is_string() ? part.get<std::string>() : part.dump();
            }
        const std::string msg = item.value("msg", std::string());
        if (msg.empty()) continue;
        if (!out.empty()) out += "; ";
        out += where.empty() ? msg : where + ": " + msg;
    }
    return out;
}

std::string status_words(long status) {
    switch (status) {
    case 400: return "bad request";
    case 401: return "unauthorized";
    case 403: return "forbidden";
    case 404: return "not found";
    case 405: return "method not allowed";
    case 413: return "request too large";
    case 415: return "unsupported media type";
    case 422: return "invalid request";
    case 429: return "too many requests";
    case 500: return "server error";
    case 502: return "bad gateway";
    case 503: return "service unavailable";
    case 504: return "gateway timeout";
    default: return "HTTP " + std::to_string(status);
    }
}

}  // namespace

std::string server_message(const std::string& body) {
    const json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return printable_start(body);
    if (j.is_array()) return validation_list(j);
    if (!j.is_object()) return j.is_string() ? j.get<std::string>() : std::string();
    if (const auto e = j.find("error"); e != j.end()) {
        if (e->is_object()) {
            const std::string m = e->value("message", std::string());
            if (!m.empty()) return m;
        }
    }
    if (const auto m = j.find("message"); m != j.end() && m->is_string() && !m->get<std::string>().empty())
        return m->get<std::string>();
    if (const auto d = j.find("detail"); d != j.end()) {
        if (d->is_string()) return d->get<std::string>();
        if (d->is_array()) return validation_list(*d);
    }
    if (const auto e = j.find("error"); e != j.end() && e->is_string()) return e->get<std::string>();
    return {};
}

EngineError describe_failure(const HttpResponse& r, const std::string& server, const std::string& route,
                             const std::string& what, const std::string& key_setting) {
    using F = HttpResponse::Failure;
    const std::string at = " (" + server + ")";
    switch (r.failure) {
    case F::None: break;
    case F::Connect:
        return {ErrorCode::BackendUnavailable, "cannot reach the server for " + what + at + ": " + r.error,
                "Is the server running, and is the address right? Start it, or check the profile's URL."};
    case F::Tls:
        return {ErrorCode::BackendUnavailable, "the secure connection to the server failed" + at + ": " + r.error,
                "Check that the URL's scheme is right (http or https) and that the server's certificate is valid."};
    case F::Timeout:
        return {ErrorCode::BackendUnavailable, "the server stopped answering during " + what + at + ": " + r.error,
                "The server may be overloaded or stuck; try again, or raise the profile's timeout."};
    case F::Cancelled: return {ErrorCode::Cancelled, what + " cancelled", {}};
    case F::TooLarge:
        return {ErrorCode::Io, "the server sent far more than was asked for during " + what + at + "; Reef stopped reading",
                "Lower max new frames, or check the server's settings."};
    case F::Cut:
        return {ErrorCode::Io, "the server closed the connection before " + what + " was complete" + at + ": " + r.error,
                "The server may have crashed or restarted; look at its log and try again."};
    case F::Other: return {ErrorCode::Io, what + " failed" + at + ": " + r.error, {}};
    }
    const std::string said = server_message(r.body);
    const std::string status = std::to_string(r.status) + " " + status_words(r.status);
    const std::string says = said.empty() ? std::string() : ": " + said;
    if (r.status >= 300 && r.status < 400)
        return {ErrorCode::BackendUnavailable,
                "the server redirects " + route + " to " + (r.location.empty() ? "another address" : r.location) + at,
                "Reef does not follow redirects: put the address it names in the profile."};
    if (r.status == 401 || r.status == 403)
        return {ErrorCode::BackendUnavailable, "the server refused the API key (" + status + says + ")" + at,
                "Give the key the server expects" + (key_setting.empty() ? std::string(".") : " (" + key_setting + ").")};
    if (r.status == 404 || r.status == 405)
        return {ErrorCode::BackendUnavailable, "the server has no " + route + " (" + status + ")" + at,
                "Is it the kind of server the profile says? Choose its flavour (fish-speech, sglang-omni or "
                "vllm-omni), or check the URL's path."};
    if (r.status == 400 || r.status == 413 || r.status == 415 || r.status == 422)
        return {ErrorCode::InvalidArgument, "the server refused the request (" + status + says + ")" + at, {}};
    if (r.status == 429 || r.status == 503)
        return {ErrorCode::BackendUnavailable, "the server is busy (" + status + says + ")" + at,
                "Try again later, or lower the profile's concurrency."};
    return {ErrorCode::BackendUnavailable, "the server failed during " + what + " (" + status + says + ")" + at,
            "Look at the server's log."};
}

}  // namespace reef::remote
