// Server-sent events (the WHATWG event-stream format) read incrementally from an HTTP body: the
// streaming format of SGLang-Omni's and vLLM-Omni's /v1/audio/speech. Bytes arrive in arbitrary
// pieces; an event is complete at its blank line. Lines are LF, CRLF or CR terminated.
#pragma once
#include <functional>
#include <string>
#include <string_view>

namespace reef::remote {

struct SseEvent {
    std::string event;   // the "event:" field, empty when absent (the spec's "message")
    std::string data;    // "data:" lines joined with '\n'
    std::string id;
};

class SseParser {
public:
    // on_event returns false to stop; feed then returns false too.
    explicit SseParser(std::function<bool(const SseEvent&)> on_event, size_t max_event_bytes = size_t(64) << 20);
    bool feed(std::string_view bytes);
    // The stream ended: an event without its closing blank line is dispatched (servers that close
    // right after the last data line), a partial line is not.
    bool finish();
    // Why feed stopped on its own: an event larger than max_event_bytes.
    const std::string& error() const { return m_error; }

private:
    bool line(std::string_view l);
    bool dispatch();

    std::function<bool(const SseEvent&)> m_on_event;
    size_t m_max;
    std::string m_line;
    SseEvent m_event;
    bool m_has_data = false;
    bool m_last_was_cr = false;
    std::string m_error;
};

}  // namespace reef::remote
