#include "text2semantic/prompt_builder.h"

#include "check.h"
#include "text2semantic/tokenizer_regex.h"
#include "text2semantic/tokenizer_utf8.h"

namespace reef {

namespace {

const Pcre2Regex& speaker_tag_regex() {
    // Python's \d on str is any Unicode decimal digit; PCRE2 UCP gives the same.
    static const Pcre2Regex re(R"(<\|speaker:\d+\|>)", "speaker tag pattern");
    return re;
}

// One independently tokenized part: a text, or a VQ block of codes (N, T).
struct EncodedParts {
    std::vector<int64_t> tokens;
    std::vector<int64_t> vq_positions;  // positions of the VQ tokens, in order
    std::vector<at::Tensor> vq_codes;   // each (N, T_i)
};

void append_text(const Tokenizer& tok, const std::string& text, EncodedParts& out) {
    for (int32_t id : tok.encode(text)) out.tokens.push_back(id);
}

void append_vq(const Tokenizer& tok, int num_codebooks, const at::Tensor& codes, EncodedParts& out) {
    REEF_CHECK(codes.defined(), "VQ part without codes");
    if (codes.dim() != 2 || codes.size(0) != num_codebooks)
        throw ReefError(ErrorCode::ShapeMismatch, "prompt codes have shape " + c10::str(codes.sizes()) + ", expected (" +
                                                      std::to_string(num_codebooks) + ", T)");
    if (tok.semantic_begin_id() < 0)
        throw ReefError(ErrorCode::CorruptModel, "tokenizer has no <|semantic:i|> tokens; cannot encode reference codes");
    const at::Tensor c = codes.to(at::kCPU, at::kLong).contiguous();  // (N, T)
    if (c.numel() > 0) {
        const int64_t lo = c.min().item<int64_t>(), hi = c.max().item<int64_t>();
        const int64_t span = tok.semantic_end_id() - tok.semantic_begin_id();
        if (lo < 0 || hi > span)
            throw ReefError(ErrorCode::InvalidArgument, "prompt codes out of range [0, " + std::to_string(span) +
                                                            "]: min " + std::to_string(lo) + ", max " + std::to_string(hi));
    }
    // VQ tokens = codes[0] + semantic_begin (fish assumes contiguous semantic ids).
    const auto row0 = c[0];
    const int64_t* p = row0.data_ptr<int64_t>();
    for (int64_t t = 0; t < c.size(1); ++t) {
        out.vq_positions.push_back(static_cast<int64_t>(out.tokens.size()));
        out.tokens.push_back(p[t] + tok.semantic_begin_id());
    }
    out.vq_codes.push_back(c);
}

// encode_for_inference: (N+1, L) int64; row 0 = tokens, rows 1..N = codes at VQ positions, else 0.
at::Tensor to_values(const EncodedParts& parts, int num_codebooks) {
    const auto L = static_cast<int64_t>(parts.tokens.size());
    at::Tensor values = at::zeros({num_codebooks + 1, L}, at::kLong);
    if (L > 0) values[0].copy_(at::tensor(parts.tokens, at::kLong));
    if (!parts.vq_codes.empty()) {
        const at::Tensor codes = at::cat(parts.vq_codes, 1);                   // (N, sum T)
        const at::Tensor pos = at::tensor(parts.vq_positions, at::kLong);     // (sum T)
        values.slice(0, 1).index_copy_(1, pos, codes);
    }
    return values;
}

}  // namespace

std::vector<std::string> split_text_batches(const std::string& text, int chunk_length) {
    // split_text_by_speaker: each turn = tag + the text up to the next tag, stripped; text before
    // the first tag is dropped.
    std::vector<std::pair<size_t, size_t>> tags;
    speaker_tag_regex().for_each_match(text, [&](size_t b, size_t e) { tags.emplace_back(b, e); });
    if (tags.empty()) return {text};  // no tag: the whole text is one batch, no length split
    std::vector<std::string> turns;
    for (size_t k = 0; k < tags.size(); ++k) {
        const size_t end = k + 1 < tags.size() ? tags[k + 1].first : text.size();
        turns.push_back(utf8::python_strip(std::string_view(text).substr(tags[k].first, end - tags[k].first)));
    }
    // group_turns_into_batches(max_speakers=5, max_bytes=chunk_length): joined with "\n".
    constexpr size_t kMaxTurns = 5;
    std::vector<std::string> batches;
    std::vector<std::string> current;
    size_t current_bytes = 0;
    auto flush = [&] {
        std::string joined;
        for (size_t i = 0; i < current.size(); ++i) joined += (i ? "\n" : "") + current[i];
        batches.push_back(std::move(joined));
    };
    for (const std::string& turn : turns) {
        const bool too_many = current.size() >= kMaxTurns;
        // chunk_length 0: no length limit, turns are grouped by count alone
        const bool too_long = chunk_length > 0 && !current.empty() &&
                              static_cast<int64_t>(current_bytes + turn.size()) > chunk_length;
        if (too_many || too_long) {
            flush();
            current = {turn};
            current_bytes = turn.size();
        } else {
            current.push_back(turn);
            current_bytes += turn.size();
        }
    }
    if (!current.empty()) flush();
    return batches;
}

S2Conversation::S2Conversation(const Tokenizer& tokenizer, int num_codebooks, std::vector<PromptReference> references)
    : m_tokenizer(tokenizer), m_num_codebooks(num_codebooks) {
    REEF_CHECK(num_codebooks > 0, "num_codebooks must be positive");
    add_text("<|im_start|>system\n");
    if (references.empty()) {
        add_text("convert the provided text to speech");
    } else {
        // References: untagged transcripts get <|speaker:i|>; all codes form one VQ block.
        std::string joined;
        std::vector<at::Tensor> codes;
        for (size_t i = 0; i < references.size(); ++i) {
            const std::string& t = references[i].text;
            bool tagged = false;
            speaker_tag_regex().for_each_match(t, [&](size_t, size_t) { tagged = true; });
            joined += (i ? "\n" : "") + (tagged ? t : "<|speaker:" + std::to_string(i) + "|>" + t);
            if (!references[i].codes.defined() || references[i].codes.dim() != 2 ||
                references[i].codes.size(0) != num_codebooks)
                throw ReefError(ErrorCode::ShapeMismatch,
                                "reference " + std::to_string(i) + " codes must be (" + std::to_string(num_codebooks) + ", T)");
            codes.push_back(references[i].codes.to(at::kCPU, at::kLong));
        }
        add_text("convert the provided text to speech reference to the following:\n\nText:\n");
        add_text(joined);
        add_text("\n\nSpeech:\n");
        add_codes(at::cat(codes, 1));
    }
    add_text("<|im_end|>\n");
    if (!references.empty()) m_voice_parts = m_parts.size();
}

int64_t S2Conversation::voice_prefix_tokens() const {
    EncodedParts enc;
    for (size_t i = 0; i < m_voice_parts; ++i) {
        if (m_parts[i].is_vq)
            append_vq(m_tokenizer, m_num_codebooks, m_parts[i].codes, enc);
        else
            append_text(m_tokenizer, m_parts[i].text, enc);
    }
    return int64_t(enc.tokens.size());
}

void S2Conversation::add_user(const std::string& batch_text) {
    add_text("<|im_start|>user\n");
    add_text(batch_text);
    add_text("<|im_end|>\n");
}

void S2Conversation::add_assistant_codes(const at::Tensor& codes) {
    add_text("<|im_start|>assistant\n<|voice|>");
    add_codes(codes.to(at::kCPU, at::kLong));
    add_text("<|im_end|>\n");
}

// A part is built in place and then filled: GCC 12 warns (-Warray-bounds, a false positive) when
// an aggregate Part holding a heap-allocated string is moved into the vector.
void S2Conversation::add_text(std::string text) {
    m_parts.emplace_back().text = std::move(text);
}

void S2Conversation::add_codes(at::Tensor codes) {
    Part& part = m_parts.emplace_back();
    part.is_vq = true;
    part.codes = std::move(codes);
}

at::Tensor S2Conversation::encode_for_inference() const {
    EncodedParts enc;
    for (const Part& p : m_parts) {
        if (p.is_vq)
            append_vq(m_tokenizer, m_num_codebooks, p.codes, enc);
        else
            append_text(m_tokenizer, p.text, enc);
    }
    append_text(m_tokenizer, "<|im_start|>assistant\n<|voice|>", enc);  // the open assistant header
    return to_values(enc, m_num_codebooks);
}

at::Tensor build_s1_prompt(const Tokenizer& tokenizer, int num_codebooks, const std::vector<PromptReference>& references,
                           const std::string& text) {
    REEF_CHECK(num_codebooks > 0, "num_codebooks must be positive");
    EncodedParts enc;
    append_text(tokenizer, "<|interleave|>", enc);
    for (const PromptReference& ref : references) {
        append_text(tokenizer, "<|speaker:0|>", enc);
        append_text(tokenizer, ref.text, enc);
        append_vq(tokenizer, num_codebooks, ref.codes, enc);
        append_text(tokenizer, "<|im_end|>", enc);
    }
    append_text(tokenizer, "<|speaker:0|>", enc);
    append_text(tokenizer, text, enc);
    return to_values(enc, num_codebooks);
}

int64_t s1_voice_prefix_tokens(const Tokenizer& tokenizer, int num_codebooks, const std::vector<PromptReference>& references) {
    if (references.empty()) return 0;
    const at::Tensor with_empty_text = build_s1_prompt(tokenizer, num_codebooks, references, "");
    EncodedParts tag;
    append_text(tokenizer, "<|speaker:0|>", tag);
    return with_empty_text.size(1) - int64_t(tag.tokens.size());
}

}  // namespace reef
