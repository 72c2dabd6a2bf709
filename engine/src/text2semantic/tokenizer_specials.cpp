#include "text2semantic/tokenizer_specials.h"

#include <algorithm>

namespace reef {

void SpecialMatcher::add(const std::string& token, int32_t id) {
    if (token.empty()) return;
    m_ids[token] = id;
    m_first[static_cast<unsigned char>(token[0])] = true;
    if (std::find(m_lengths.begin(), m_lengths.end(), token.size()) == m_lengths.end()) {
        m_lengths.push_back(token.size());
        std::sort(m_lengths.rbegin(), m_lengths.rend());
    }
}

void SpecialMatcher::split(std::string_view text, const std::function<void(size_t, size_t)>& on_text,
                           const std::function<void(int32_t)>& on_special) const {
    size_t start = 0;  // start of the pending ordinary stretch
    size_t i = 0;
    while (i < text.size()) {
        if (m_first[static_cast<unsigned char>(text[i])]) {
            bool hit = false;
            for (size_t len : m_lengths) {
                if (i + len > text.size()) continue;
                auto it = m_ids.find(std::string(text.substr(i, len)));
                if (it == m_ids.end()) continue;
                if (i > start) on_text(start, i);
                on_special(it->second);
                i += len;
                start = i;
                hit = true;
                break;
            }
            if (hit) continue;
        }
        ++i;
    }
    if (start < text.size()) on_text(start, text.size());
}

}  // namespace reef
