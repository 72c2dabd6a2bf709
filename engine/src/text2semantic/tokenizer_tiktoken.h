// The S1-era tiktoken tokenizer (fish-speech d3df505 FishTokenizer): tokenizer.tiktoken ranks,
// special_tokens.json (ids = number of ranks + position; the file's ids are ignored), the
// FISH_TIKTOKEN_PATTERN pre-tokenizer, and tiktoken's byte-pair merge (a pair merges when the
// concatenated bytes are a token; lowest rank first).
#pragma once
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "text2semantic/tokenizer.h"
#include "text2semantic/tokenizer_regex.h"
#include "text2semantic/tokenizer_specials.h"

namespace reef {

// fish-speech's S1 pre-tokenizer regex, verbatim: the 7th alternative `\s+(\?!\S)` is a literal
// "?!" (not a lookahead), so runs of spaces fall through to `\s+`.
extern const char* const kFishTiktokenPattern;
// The built-in special list (used when special_tokens.json is absent): 15 control tokens, then
// <|semantic:0..4095|>.
std::vector<std::string> fish_s1_default_special_tokens();

class TiktokenTokenizer final : public Tokenizer {
public:
    // special_tokens_path may name a missing file (then the built-in list is used).
    static std::unique_ptr<TiktokenTokenizer> load_files(const std::string& ranks_path,
                                                         const std::string& special_tokens_path);

    std::vector<int32_t> encode(const std::string& text) const override;
    std::string decode(const std::vector<int32_t>& ids) const override;
    int32_t token_id(const std::string& token) const override;
    int64_t vocab_size() const override { return static_cast<int64_t>(m_id_to_bytes.size()); }

private:
    TiktokenTokenizer() = default;
    void encode_piece(std::string_view piece, std::vector<int32_t>& out) const;

    std::unordered_map<std::string, int32_t> m_ranks;    // token bytes -> rank (= id)
    std::unordered_map<std::string, int32_t> m_special;  // special token -> id
    std::vector<std::string> m_id_to_bytes;
    std::unique_ptr<Pcre2Regex> m_regex;
    SpecialMatcher m_specials;
    mutable std::mutex m_cache_mutex;
    mutable std::unordered_map<std::string, std::vector<int32_t>> m_cache;
};

}  // namespace reef
