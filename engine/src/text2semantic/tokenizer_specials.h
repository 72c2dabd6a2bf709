// Inline special/added-token matching: the text is cut at every occurrence of a special token,
// leftmost first and longest at a position (HF AddedVocabulary's LeftmostLongest Aho-Corasick;
// tiktoken's special regex gives the same for fish's "<|...|>" tokens, none a prefix of another).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace reef {

class SpecialMatcher {
public:
    void add(const std::string& token, int32_t id);
    bool empty() const { return m_ids.empty(); }
    // Calls on_text(begin, end) for each ordinary stretch and on_special(id) for each special, in order.
    void split(std::string_view text, const std::function<void(size_t, size_t)>& on_text,
               const std::function<void(int32_t)>& on_special) const;

private:
    std::unordered_map<std::string, int32_t> m_ids;
    std::vector<size_t> m_lengths;  // distinct token lengths, longest first
    bool m_first[256] = {};         // bytes that start some token
};

}  // namespace reef
