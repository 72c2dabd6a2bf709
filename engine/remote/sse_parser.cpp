#include "remote/sse_parser.h"

namespace reef::remote {

SseParser::SseParser(std::function<bool(const SseEvent&)> on_event, size_t max_event_bytes)
    : m_on_event(std::move(on_event)), m_max(max_event_bytes) {}

bool SseParser::feed(std::string_view bytes) {
    for (char c : bytes) {
        if (c == '\n' && m_last_was_cr) {   // the LF of a CRLF: the line already ended at the CR
            m_last_was_cr = false;
            continue;
        }
        m_last_was_cr = c == '\r';
        if (c == '\n' || c == '\r') {
            if (!line(m_line)) return false;
            m_line.clear();
            continue;
        }
        m_line.push_back(c);
        if (m_line.size() + m_event.data.size() > m_max) {
            m_error = "an event of the stream is larger than " + std::to_string(m_max >> 20) + " MiB";
            return false;
        }
    }
    return true;
}

bool SseParser::finish() {
    if (m_has_data) return dispatch();
    return true;
}

bool SseParser::line(std::string_view l) {
    if (l.empty()) return dispatch();
    if (l.front() == ':') return true;   // a comment (keep-alive)
    const size_t colon = l.find(':');
    std::string_view field = l.substr(0, colon);
    std::string_view value = colon == std::string_view::npos ? std::string_view() : l.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    if (field == "data") {
        if (m_has_data) m_event.data.push_back('\n');
        m_event.data.append(value);
        m_has_data = true;
    } else if (field == "event") {
        m_event.event = std::string(value);
    } else if (field == "id") {
        m_event.id = std::string(value);
    }
    return true;   // "retry" and unknown fields are ignored, as the spec says
}

bool SseParser::dispatch() {
    if (!m_has_data) {   // an event without data is not dispatched (spec), its fields reset
        m_event = {};
        return true;
    }
    const bool go_on = m_on_event(m_event);
    m_event = {};
    m_has_data = false;
    return go_on;
}

}  // namespace reef::remote
