// FishTokenizer port: HF tokenizer.json byte-level BPE (S2) or tiktoken + special_tokens.json (S1).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace reef {

class Tokenizer {
public:
    virtual ~Tokenizer() = default;
    // Picks tokenizer.json, else tokenizer.tiktoken (+ special_tokens.json), in model_dir.
    // Throws ReefError(ModelNotFound / CorruptModel) naming the file.
    static std::unique_ptr<Tokenizer> load(const std::string& model_dir);

    // add_special_tokens=False semantics; special tokens written inline are recognised. Thread-safe.
    virtual std::vector<int32_t> encode(const std::string& text) const = 0;
    // Unknown / gap ids are skipped; invalid UTF-8 becomes U+FFFD (as HF and tiktoken decode).
    virtual std::string decode(const std::vector<int32_t>& ids) const = 0;
    // Id of a token string (special or regular); -1 when absent.
    virtual int32_t token_id(const std::string& token) const = 0;
    // Highest id + 1 (ids may have gaps: S2 specials sit at fixed high ids). The model's embedding
    // table (config vocab_size) must be at least this large.
    virtual int64_t vocab_size() const = 0;

    // Min/max id over <|semantic:0..4095|> present in the vocab (fish-speech llama.py: from_pretrained).
    int32_t semantic_begin_id() const { return m_semantic_begin; }
    int32_t semantic_end_id() const { return m_semantic_end; }
    int32_t im_end_id() const { return m_im_end; }

protected:
    void init_special_ids();  // call at the end of a subclass's load
    int32_t m_semantic_begin = -1, m_semantic_end = -1, m_im_end = -1;
};

}  // namespace reef
