#include "remote/pcm_stream.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace reef::remote {
namespace {

constexpr size_t kMaxHeader = 64 << 10;

uint32_t le32(const char* p) {
    return uint32_t(uint8_t(p[0])) | uint32_t(uint8_t(p[1])) << 8 | uint32_t(uint8_t(p[2])) << 16 |
           uint32_t(uint8_t(p[3])) << 24;
}
uint16_t le16(const char* p) { return uint16_t(uint8_t(p[0]) | uint8_t(p[1]) << 8); }

}  // namespace

// m_header holds the stream's first bytes. Returns Done with the audio bytes after the header in
// *rest (all of m_header when the stream has no header), NeedMore, or Error.
PcmStream::Header PcmStream::read_header(std::string* rest) {
    const size_t known = std::min<size_t>(m_header.size(), 4);
    if (std::memcmp(m_header.data(), "RIFF", known) != 0) {   // plain PCM
        *rest = std::move(m_header);
        m_header.clear();
        return Header::Done;
    }
    if (m_header.size() < 12) return Header::NeedMore;
    if (std::memcmp(m_header.data() + 8, "WAVE", 4) != 0) {
        m_error = "the audio stream starts with a RIFF header that is not WAVE";
        return Header::Error;
    }
    size_t at = 12;
    while (at + 8 <= m_header.size() && at <= kMaxHeader) {
        const char* chunk = m_header.data() + at;
        const uint32_t size = le32(chunk + 4);
        if (std::memcmp(chunk, "data", 4) == 0) {
            // Streaming servers write 0 or 0xFFFFFFFF as the data size: what follows is the audio.
            *rest = m_header.substr(at + 8);
            m_header.clear();
            return Header::Done;
        }
        if (std::memcmp(chunk, "fmt ", 4) == 0) {
            if (at + 8 + 16 > m_header.size()) return Header::NeedMore;
            const uint16_t format = le16(chunk + 8);
            const uint16_t channels = le16(chunk + 10);
            const uint32_t rate = le32(chunk + 12);
            const uint16_t bits = le16(chunk + 22);
            if ((format != 1 && format != 0xFFFE) || bits != 16) {
                m_error = "the server streams WAV audio that is not 16-bit PCM (format " + std::to_string(format) +
                          ", " + std::to_string(bits) + " bits); Reef reads 16-bit PCM streams";
                return Header::Error;
            }
            if (channels < 1 || channels > 2 || rate < 1000 || rate > 768000) {
                m_error = "the server streams WAV audio with " + std::to_string(channels) + " channels at " +
                          std::to_string(rate) + " Hz";
                return Header::Error;
            }
            m_channels = channels;
            m_rate = int(rate);
        }
        at += 8 + size_t(size) + (size & 1);
    }
    if (m_header.size() > kMaxHeader || at > kMaxHeader) {
        m_error = "the audio stream's WAV header is longer than 64 KiB";
        return Header::Error;
    }
    return Header::NeedMore;
}

bool PcmStream::feed(std::string_view bytes, std::vector<float>& out) {
    if (!m_error.empty()) return false;
    std::string after_header;
    if (!m_header_done) {
        m_header.append(bytes);
        switch (read_header(&after_header)) {
        case Header::NeedMore: return true;
        case Header::Error: return false;
        case Header::Done: break;
        }
        m_header_done = true;
        bytes = after_header;
    }
    const size_t frame_bytes = size_t(2) * size_t(m_channels);
    std::string joined;
    if (!m_carry.empty()) {
        joined = m_carry;
        joined.append(bytes);
        bytes = joined;
        m_carry.clear();
    }
    const size_t frames = bytes.size() / frame_bytes;
    out.reserve(out.size() + frames);
    for (size_t f = 0; f < frames; ++f) {
        const char* p = bytes.data() + f * frame_bytes;
        float sum = 0;
        for (int c = 0; c < m_channels; ++c) sum += float(int16_t(le16(p + 2 * c))) / 32768.0f;
        out.push_back(sum / float(m_channels));
    }
    m_carry.assign(bytes.substr(frames * frame_bytes));
    return true;
}

}  // namespace reef::remote
