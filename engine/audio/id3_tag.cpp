#include "audio/id3_tag.h"

#include <algorithm>
#include <cmath>
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

void append_u32(std::string& out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out += char((v >> shift) & 0xFF);
}

uint32_t to_ms(double seconds) { return uint32_t(std::llround(std::clamp(seconds, 0.0, 4.0e6) * 1000.0)); }

// CHAP per chapter and one CTOC (top level, ordered) naming them, after the text frames.
void append_chapters(std::string& frames, const std::vector<ChapterMark>& chapters, double duration_seconds) {
    if (chapters.empty() || chapters.size() > 255) return;   // CTOC counts its entries in one byte
    std::string toc;
    toc += "toc";
    toc += '\0';
    toc += char(0x03);   // top-level, ordered
    toc += char(chapters.size());
    for (size_t k = 0; k < chapters.size(); ++k) {
        const std::string id = "ch" + std::to_string(k + 1);
        const double end = k + 1 < chapters.size() ? chapters[k + 1].start_seconds : duration_seconds;
        std::string body = id;
        body += '\0';
        append_u32(body, to_ms(chapters[k].start_seconds));
        append_u32(body, to_ms(std::max(end, chapters[k].start_seconds)));
        append_u32(body, 0xFFFFFFFFu);   // byte offsets: not given
        append_u32(body, 0xFFFFFFFFu);
        std::string title;
        append_frame(title, "TIT2", std::string(1, kUtf8) + chapters[k].title);
        append_frame(frames, "CHAP", body + title);
        toc += id;
        toc += '\0';
    }
    append_frame(frames, "CTOC", toc);
}

}  // namespace

std::string id3v2_tag(const AudioMetadata& meta, double duration_seconds) {
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
    append_chapters(frames, meta.chapters, duration_seconds);
    if (frames.empty()) return {};
    std::string tag = "ID3";
    tag += char(4);   // version 2.4.0
    tag += char(0);
    tag += char(0);   // no unsynchronisation, no extended header, no footer
    append_syncsafe(tag, uint32_t(frames.size()));
    return tag + frames;
}

}  // namespace reef::audio
