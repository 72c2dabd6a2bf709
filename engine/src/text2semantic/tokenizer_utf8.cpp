#include "text2semantic/tokenizer_utf8.h"

namespace reef::utf8 {

int valid_sequence_length(std::string_view s, size_t i) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) return 1;
    int len = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte (excludes overlongs/surrogates)
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        len = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        len = 3;
        if (b0 == 0xE0) lo = 0xA0;
        if (b0 == 0xED) hi = 0x9F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        len = 4;
        if (b0 == 0xF0) lo = 0x90;
        if (b0 == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (i + len > s.size()) return 0;
    const auto b1 = static_cast<unsigned char>(s[i + 1]);
    if (b1 < lo || b1 > hi) return 0;
    for (int k = 2; k < len; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if (b < 0x80 || b > 0xBF) return 0;
    }
    return len;
}

char32_t decode_at(std::string_view s, size_t i, int len) {
    const auto b = [&](int k) { return static_cast<char32_t>(static_cast<unsigned char>(s[i + k])); };
    switch (len) {
        case 1: return b(0);
        case 2: return ((b(0) & 0x1F) << 6) | (b(1) & 0x3F);
        case 3: return ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
        default: return ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
    }
}

void append(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

bool is_valid(std::string_view s) {
    for (size_t i = 0; i < s.size();) {
        const int len = valid_sequence_length(s, i);
        if (len == 0) return false;
        i += len;
    }
    return true;
}

// Length of the longest prefix at s[i] that could still start a valid sequence (at least 1): the
// "maximal subpart" that the Unicode substitution practice replaces by a single U+FFFD.
static size_t invalid_prefix_length(std::string_view s, size_t i) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    int need = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC2 ? 2 : 1;
    if (b0 > 0xF4) need = 1;
    size_t n = 1;
    while (n < static_cast<size_t>(need) && i + n < s.size()) {
        const auto b = static_cast<unsigned char>(s[i + n]);
        unsigned char lo = 0x80, hi = 0xBF;
        if (n == 1) {
            if (b0 == 0xE0) lo = 0xA0;
            if (b0 == 0xED) hi = 0x9F;
            if (b0 == 0xF0) lo = 0x90;
            if (b0 == 0xF4) hi = 0x8F;
        }
        if (b < lo || b > hi) break;
        ++n;
    }
    return n;
}

std::string make_valid(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        const int len = valid_sequence_length(s, i);
        if (len > 0) {
            out.append(s.substr(i, len));
            i += len;
        } else {
            out += "\xEF\xBF\xBD";
            i += invalid_prefix_length(s, i);
        }
    }
    return out;
}

bool is_python_space(char32_t cp) {
    if (cp >= 0x09 && cp <= 0x0D) return true;
    if (cp >= 0x1C && cp <= 0x20) return true;
    switch (cp) {
        case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000:
            return true;
        default:
            return cp >= 0x2000 && cp <= 0x200A;
    }
}

std::string python_strip(std::string_view s) {
    size_t begin = 0, end = 0;  // [begin, end) of the kept part
    bool seen = false;
    for (size_t i = 0; i < s.size();) {
        int len = valid_sequence_length(s, i);
        const bool space = len > 0 && is_python_space(decode_at(s, i, len));
        if (len == 0) len = 1;
        if (!space) {
            if (!seen) begin = i;
            seen = true;
            end = i + len;
        }
        i += len;
    }
    return seen ? std::string(s.substr(begin, end - begin)) : std::string();
}

}  // namespace reef::utf8
