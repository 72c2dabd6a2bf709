#include "text2semantic/tokenizer_nfc.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "text2semantic/tokenizer_utf8.h"

namespace reef {

namespace {

struct CccRange {
    uint32_t first, last;
    uint8_t ccc;
};
struct Decomposition {
    uint32_t cp, first, second;  // second = 0: a singleton
};
struct Composition {
    uint32_t first, second, composite;
};
#include "text2semantic/tokenizer_nfc_data.inc"

// Hangul syllable arithmetic (Unicode §3.12).
constexpr char32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr int kLCount = 19, kVCount = 21, kTCount = 28, kNCount = kVCount * kTCount, kSCount = kLCount * kNCount;

struct Tables {
    std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> decomp;
    std::unordered_map<uint64_t, uint32_t> compose;
    Tables() {
        for (const auto& d : kDecompositions) decomp[d.cp] = {d.first, d.second};
        for (const auto& c : kCompositions) compose[(uint64_t(c.first) << 32) | c.second] = c.composite;
    }
};
const Tables& tables() {
    static const Tables t;
    return t;
}

uint8_t ccc_of(char32_t cp) {
    if (cp < 0x300) return 0;
    const auto* end = std::end(kCccRanges);
    const auto* it = std::upper_bound(std::begin(kCccRanges), end, uint32_t(cp),
                                      [](uint32_t v, const CccRange& r) { return v < r.first; });
    if (it == std::begin(kCccRanges)) return 0;
    --it;
    return cp <= it->last ? it->ccc : 0;
}

void decompose(char32_t cp, std::vector<char32_t>& out) {
    if (cp >= kSBase && cp < kSBase + kSCount) {
        const int s = static_cast<int>(cp - kSBase);
        out.push_back(kLBase + s / kNCount);
        out.push_back(kVBase + (s % kNCount) / kTCount);
        if (s % kTCount) out.push_back(kTBase + s % kTCount);
        return;
    }
    const auto& d = tables().decomp;
    auto it = cp < 0xC0 ? d.end() : d.find(cp);
    if (it == d.end()) {
        out.push_back(cp);
        return;
    }
    decompose(it->second.first, out);
    if (it->second.second) decompose(it->second.second, out);
}

char32_t compose_pair(char32_t a, char32_t b) {
    if (a >= kLBase && a < kLBase + kLCount && b >= kVBase && b < kVBase + kVCount)
        return kSBase + ((a - kLBase) * kVCount + (b - kVBase)) * kTCount;
    if (a >= kSBase && a < kSBase + kSCount && (a - kSBase) % kTCount == 0 && b > kTBase && b < kTBase + kTCount)
        return a + (b - kTBase);
    const auto& c = tables().compose;
    auto it = c.find((uint64_t(a) << 32) | b);
    return it == c.end() ? 0 : it->second;
}

}  // namespace

std::string nfc_normalize(std::string_view text) {
    // Quick check: below U+0300 there are no combining marks and nothing that composes.
    bool simple = true;
    for (unsigned char c : text)
        if (c >= 0xCC) {  // lead bytes of U+0300 and above
            simple = false;
            break;
        }
    if (simple || !utf8::is_valid(text)) return std::string(text);

    std::vector<char32_t> cps;
    cps.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        const int len = utf8::valid_sequence_length(text, i);
        decompose(utf8::decode_at(text, i, len), cps);
        i += len;
    }
    // Canonical ordering: stable sort of each run of non-starters by combining class.
    for (size_t i = 0; i < cps.size();) {
        if (ccc_of(cps[i]) == 0) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < cps.size() && ccc_of(cps[j]) != 0) ++j;
        std::stable_sort(cps.begin() + i, cps.begin() + j, [](char32_t a, char32_t b) { return ccc_of(a) < ccc_of(b); });
        i = j;
    }
    // Canonical composition: a char joins the last starter unless a char in between blocks it
    // (a starter, or a class >= its own; the run is ordered, so the last class appended decides).
    std::vector<char32_t> out;
    out.reserve(cps.size());
    int starter = -1;   // index in out of the last starter
    int last_ccc = -1;  // class of the last char appended after that starter; -1: none yet
    for (char32_t cp : cps) {
        const int ccc = ccc_of(cp);
        if (starter >= 0 && (last_ccc == -1 || last_ccc < ccc)) {
            if (char32_t comp = compose_pair(out[starter], cp)) {
                out[starter] = comp;
                continue;
            }
        }
        if (ccc == 0) {
            starter = static_cast<int>(out.size());
            last_ccc = -1;
        } else {
            last_ccc = ccc;
        }
        out.push_back(cp);
    }
    std::string result;
    result.reserve(text.size());
    for (char32_t cp : out) utf8::append(result, cp);
    return result;
}

}  // namespace reef
