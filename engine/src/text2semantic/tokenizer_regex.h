// PCRE2 (UTF + UCP, JIT when available) for the tokenizers' pre-tokenizer patterns. Invalid UTF-8
// in the subject never matches (PCRE2_MATCH_INVALID_UTF), so it ends up in a gap, never an error.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace reef {

class Pcre2Regex {
public:
    // Throws ReefError(CorruptModel) naming `origin` (the file the pattern came from) when the
    // pattern does not compile.
    Pcre2Regex(const std::string& pattern, const std::string& origin);
    ~Pcre2Regex();
    Pcre2Regex(const Pcre2Regex&) = delete;
    Pcre2Regex& operator=(const Pcre2Regex&) = delete;

    // Calls on_match(begin, end) for every non-overlapping match, left to right (Python
    // re.finditer / Rust find_iter semantics; an empty match advances by one character).
    void for_each_match(std::string_view text, const std::function<void(size_t, size_t)>& on_match) const;

    // "Isolated" split (HF Split behaviour): matches and the gaps between them, in order, as
    // [begin, end) ranges; empty ranges are skipped.
    void split_isolated(std::string_view text, const std::function<void(size_t, size_t)>& on_piece) const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace reef
