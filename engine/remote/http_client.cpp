#include "remote/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <mutex>

namespace reef::remote {
namespace {

constexpr size_t kMaxErrorBody = 64 << 10;

void global_init_once() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

struct Exchange {
    CURL* curl = nullptr;
    const HttpRequest* request = nullptr;
    const std::function<bool(std::string_view)>* on_data = nullptr;
    const std::function<bool()>* should_abort = nullptr;
    HttpResponse* response = nullptr;
    std::chrono::steady_clock::time_point start;
    std::chrono::steady_clock::time_point last_byte;
    bool stopped_by_us = false;
    HttpResponse::Failure stop_reason = HttpResponse::Failure::None;
    std::string timeout_note;
};

size_t on_header(char* data, size_t size, size_t n, void* user) {
    auto* ex = static_cast<Exchange*>(user);
    const std::string line(data, size * n);
    const size_t colon = line.find(':');
    if (colon != std::string::npos) {
        const std::string name = lower(line.substr(0, colon));
        std::string value = line.substr(colon + 1);
        while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.erase(value.begin());
        while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) value.pop_back();
        if (name == "content-type") ex->response->content_type = lower(value);
        if (name == "location") ex->response->location = value;
    }
    return size * n;
}

size_t on_body(char* data, size_t size, size_t n, void* user) {
    auto* ex = static_cast<Exchange*>(user);
    const size_t bytes = size * n;
    HttpResponse& r = *ex->response;
    if (r.body_bytes == 0 && bytes > 0)
        r.first_byte_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - ex->start).count();
    r.body_bytes += bytes;
    ex->last_byte = std::chrono::steady_clock::now();
    long status = 0;
    curl_easy_getinfo(ex->curl, CURLINFO_RESPONSE_CODE, &status);
    const bool success = status >= 200 && status < 300;
    if (!success) {   // error bodies: keep the start, enough for the server's message
        if (r.body.size() < kMaxErrorBody) r.body.append(data, std::min(bytes, kMaxErrorBody - r.body.size()));
        return bytes;
    }
    if (r.body_bytes > ex->request->max_body_bytes) {
        ex->stopped_by_us = true;
        ex->stop_reason = HttpResponse::Failure::TooLarge;
        return CURL_WRITEFUNC_ERROR;
    }
    if (ex->on_data && *ex->on_data) {
        if (!(*ex->on_data)(std::string_view(data, bytes))) {
            ex->stopped_by_us = true;
            ex->stop_reason = HttpResponse::Failure::Cancelled;
            return CURL_WRITEFUNC_ERROR;
        }
    } else {
        r.body.append(data, bytes);
    }
    return bytes;
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    auto* ex = static_cast<Exchange*>(user);
    if (ex->should_abort && *ex->should_abort && (*ex->should_abort)()) {
        ex->stopped_by_us = true;
        ex->stop_reason = HttpResponse::Failure::Cancelled;
        return 1;
    }
    // Silence: before the first byte the server may be generating a whole utterance (a request
    // without streaming), so that wait has its own, longer limit.
    const bool started = ex->response->body_bytes > 0;
    const auto since = std::chrono::steady_clock::now() - (started ? ex->last_byte : ex->start);
    const double limit = started ? ex->request->idle_timeout_s : ex->request->first_byte_timeout_s;
    if (std::chrono::duration<double>(since).count() > limit) {
        ex->stopped_by_us = true;
        ex->stop_reason = HttpResponse::Failure::Timeout;
        ex->timeout_note = started ? "no byte for " : "no answer for ";
        ex->timeout_note += std::to_string(int(limit)) + " s";
        return 1;
    }
    return 0;
}

HttpResponse::Failure classify(CURLcode code) {
    switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
        return HttpResponse::Failure::Connect;
    case CURLE_OPERATION_TIMEDOUT:
        return HttpResponse::Failure::Timeout;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
        return HttpResponse::Failure::Tls;
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
        return HttpResponse::Failure::Cut;
    case CURLE_ABORTED_BY_CALLBACK:
        return HttpResponse::Failure::Cancelled;
    default:
        return HttpResponse::Failure::Other;
    }
}

}  // namespace

HttpResponse http_exchange(const HttpRequest& request, const std::function<bool(std::string_view)>& on_data,
                           const std::function<bool()>& should_abort) {
    global_init_once();
    HttpResponse response;
    CURL* curl = curl_easy_init();
    if (!curl) {
        response.failure = HttpResponse::Failure::Other;
        response.error = "libcurl could not start a transfer";
        return response;
    }
    Exchange ex;
    ex.curl = curl;
    ex.request = &request;
    ex.on_data = &on_data;
    ex.should_abort = &should_abort;
    ex.response = &response;
    ex.start = std::chrono::steady_clock::now();
    char error_text[CURL_ERROR_SIZE] = {};
    curl_slist* headers = nullptr;
    for (const std::string& h : request.headers) headers = curl_slist_append(headers, h.c_str());
    // A POST without a body still says so; libcurl would otherwise add "Expect: 100-continue"
    // for large bodies, which some Python servers answer slowly.
    headers = curl_slist_append(headers, "Expect:");

    curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_text);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "Reef");
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, long(request.connect_timeout_s * 1000));
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &ex);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &ex);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &ex);
    if (request.method == "POST") {
        curl_easy_setopt(curl, CURLOPT_POST, 1L);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.size()));
    } else if (request.method != "GET") {
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
        if (!request.body.empty()) {
            curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
            curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.size()));
        }
    }

    const CURLcode code = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
    if (code != CURLE_OK) {
        response.failure = ex.stopped_by_us ? ex.stop_reason : classify(code);
        if (code == CURLE_WRITE_ERROR && !ex.stopped_by_us) response.failure = HttpResponse::Failure::Other;
        response.error = ex.stop_reason == HttpResponse::Failure::Timeout
                             ? ex.timeout_note
                             : std::string(error_text[0] ? error_text : curl_easy_strerror(code));
        response.error += " (" + request.url + ")";
    }
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return response;
}

std::string normalize_base_url(const std::string& url) {
    const std::string l = lower(url);
    if (l.rfind("http://", 0) != 0 && l.rfind("https://", 0) != 0) return {};
    const size_t host = url.find("://") + 3;
    if (host >= url.size() || url[host] == '/' || url[host] == '?' || url[host] == '#') return {};
    std::string out = url;
    while (!out.empty() && out.back() == '/') out.pop_back();
    // People paste the API root they see in the server's docs ("…/v1"); the routes add it.
    if (out.size() >= 3 && lower(out.substr(out.size() - 3)) == "/v1") out.resize(out.size() - 3);
    return out;
}

}  // namespace reef::remote
