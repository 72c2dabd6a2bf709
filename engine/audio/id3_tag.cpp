#include "audio/id3_tag.h"

#include <cstdint>

namespace reef::audio {
namespace {

// ID3v2.4 sizes are "syncsafe": 7 bits per byte, so no size can look like an MPEG sync word.
void append_syncsafe(std::string& out, uint32_t n) {
    for (int shift = 21; shift >= 0; shift -= 7) out += char((n >> shift) & 0x7F);
}

void append_frame(std::string& out, const char id[5], const std::string& body) {
    out.append(id, 4);
    append_syncsafe(out, uint32_t(body.size()));
    out += '\0';   // no frame flags
    out += '\0';
    out += body;
}

constexpr char kUtf8 = 3;

}  // namespace

std::string id3v2_tag(const AudioMetadata& meta) {
    std::string frames;
    const std::pair<const char*, const std::string*> texts[] = {
        {"TIT2", &meta.title}, {"TPE1", &meta.artist}, {"TALB", &meta.album},
        {"TDRC", &meta.date},  {"TSSE", &meta.software},
    };
    for (const auto& [id, value] : texts)
        if (!value->empty()) append_frame(frames, id, std::string(1, kUtf8) + *value);
    if (!meta.comment.empty()) {
        // encoding, language, an empty description (its terminator), then the text
        append_frame(frames, "COMM", std::string(1, kUtf8) + "eng" + std::string(1, '\0') + meta.comment);
    }
    if (frames.empty()) return {};
    std::string tag = "ID3";
    tag += char(4);   // version 2.4.0
    tag += char(0);
    tag += char(0);   // no unsynchronisation, no extended header, no footer
    append_syncsafe(tag, uint32_t(frames.size()));
    return tag + frames;
}

}  // namespace reef::audio
