// HF tokenizers' byte-level BPE from tokenizer.json (the Qwen2/Qwen3 layout S2-Pro ships):
// added tokens matched inline on the raw text -> NFC -> Split(regex, Isolated) -> ByteLevel ->
// BPE by merge rank -> ids. Decode: ByteLevel back to bytes, lossy UTF-8.
#pragma once
#include <array>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "text2semantic/tokenizer.h"
#include "text2semantic/tokenizer_bpe_core.h"
#include "text2semantic/tokenizer_regex.h"
#include "text2semantic/tokenizer_specials.h"

namespace reef {

// GPT-2's byte <-> printable code point table (byte-level BPE alphabet).
const std::array<char32_t, 256>& byte_level_alphabet();

class HfBpeTokenizer final : public Tokenizer {
public:
    // Throws ReefError(ModelNotFound) when the file is missing, CorruptModel when it is not a
    // byte-level BPE tokenizer.json this port understands (the message names the field).
    static std::unique_ptr<HfBpeTokenizer> load_file(const std::string& path);

    std::vector<int32_t> encode(const std::string& text) const override;
    std::string decode(const std::vector<int32_t>& ids) const override;
    int32_t token_id(const std::string& token) const override;
    int64_t vocab_size() const override { return static_cast<int64_t>(m_id_to_token.size()); }

private:
    HfBpeTokenizer() = default;
    void encode_word(std::string_view piece, std::vector<int32_t>& out) const;

    std::string m_path;
    std::unordered_map<std::string, int32_t> m_vocab;   // model.vocab
    std::unordered_map<std::string, int32_t> m_added;   // added_tokens (content -> id)
    std::unordered_map<uint64_t, BpeMerge> m_merges;   // (left id, right id) -> rank, merged id
    std::vector<std::string> m_id_to_token;             // "" for gaps
    std::vector<char> m_id_is_added;
    std::array<int32_t, 256> m_byte_id{};               // vocab id of each byte's alphabet char, -1 if absent
    std::array<int16_t, 512> m_char_to_byte{};          // alphabet code point -> byte, -1 otherwise
    std::unique_ptr<Pcre2Regex> m_split;                // null: no Split pre-tokenizer
    bool m_nfc = false;
    bool m_ignore_merges = false;
    SpecialMatcher m_specials;

    mutable std::mutex m_cache_mutex;
    mutable std::unordered_map<std::string, std::vector<int32_t>> m_cache;
};

}  // namespace reef
