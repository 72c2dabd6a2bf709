// One HTTP(S) exchange through libcurl, for the remote backend: TLS, chunked transfer, timeouts,
// cancellation and a cap on what the server may send. No Qt, no torch.
//
// Redirects are not followed: a 3xx comes back as a response with its Location, so the caller can
// tell the user which URL to use instead of silently moving to another host or scheme.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace reef::remote {

struct HttpRequest {
    std::string method = "GET";
    std::string url;
    std::vector<std::string> headers;   // "Name: value"
    std::string body;
    double connect_timeout_s = 10;
    // No byte from the server for this long, once its body started, ends the exchange (a server
    // that hangs mid-stream); before the first byte the limit is first_byte_timeout_s.
    double idle_timeout_s = 120;
    double first_byte_timeout_s = 900;
    // Success bodies larger than this end the exchange with Failure::TooLarge.
    size_t max_body_bytes = size_t(512) << 20;
};

struct HttpResponse {
    enum class Failure {
        None,
        Connect,     // refused, unreachable, or the name does not resolve
        Tls,         // handshake or certificate
        Timeout,     // connect or idle timeout
        Cancelled,   // should_abort said so, or on_data returned false
        TooLarge,    // the body passed max_body_bytes
        Cut,         // the connection closed before the body was complete
        Other,
    };
    Failure failure = Failure::None;
    std::string error;          // libcurl's words for the failure, with the URL
    long status = 0;            // HTTP status, 0 when no response arrived
    std::string content_type;   // lower-case, parameters kept
    std::string location;       // of a 3xx
    // The whole body when no on_data was given, or when the status is not 2xx (error bodies are
    // always collected, capped at 64 KiB, so their message can be shown).
    std::string body;
    size_t body_bytes = 0;      // received, streamed or not
    double first_byte_ms = 0;   // request start to the first body byte
    bool ok() const { return failure == Failure::None && status >= 200 && status < 300; }
};

// on_data gets each piece of a 2xx body as it arrives (then body stays empty); returning false
// stops the exchange (Failure::Cancelled). should_abort is polled several times a second.
HttpResponse http_exchange(const HttpRequest& request,
                           const std::function<bool(std::string_view)>& on_data = {},
                           const std::function<bool()>& should_abort = {});

// "http://host:port" without the trailing slash and path of a base URL; empty when it is not an
// http(s) URL (what profiles and --server accept).
std::string normalize_base_url(const std::string& url);

}  // namespace reef::remote
