// Conversation / ContentSequence port (fish-speech conversation.py, content_sequence.py): text and reference codes ->
// the prompt tensor (N+1, L) int64 on the CPU. Row 0 = token ids; rows 1..N = codes at VQ positions.
#pragma once
#include <ATen/ATen.h>

#include <string>
#include <vector>

#include "text2semantic/tokenizer.h"

namespace reef {

struct PromptReference {
    std::string text;   // transcript
    at::Tensor codes;   // (N, T) int64
};

// split_text_by_speaker + group_turns_into_batches: turns are "<|speaker:N|>..." segments; text
// before the first tag is dropped; no tag at all = one batch; a batch closes at 5 turns or when
// adding a turn would exceed chunk_length UTF-8 bytes. Turns are joined with "\n".
std::vector<std::string> split_text_batches(const std::string& text, int chunk_length);

// The S2 iterative conversation: system (+ references), then per batch user + open assistant;
// after a batch is generated its codes are appended as the assistant's VQ message.
class S2Conversation {
public:
    S2Conversation(const Tokenizer& tokenizer, int num_codebooks, std::vector<PromptReference> references);
    void add_user(const std::string& batch_text);
    void add_assistant_codes(const at::Tensor& codes);  // (N, T) int64
    // The whole history + an open "<|im_start|>assistant\n<|voice|>" header: (N+1, L) int64.
    at::Tensor encode_for_inference() const;
    // Tokens of the system message when it holds references (the voice prefix every prompt of this
    // conversation starts with, text2semantic/prefix_kv_store.h); 0 without references.
    int64_t voice_prefix_tokens() const;

private:
    struct Part {
        bool is_vq = false;
        std::string text;
        at::Tensor codes;
    };
    void add_text(std::string text);
    void add_codes(at::Tensor codes);  // (N, T) int64
    const Tokenizer& m_tokenizer;
    int m_num_codebooks;
    std::vector<Part> m_parts;
    size_t m_voice_parts = 0;  // the system message's parts, when it holds references
};

// S1 interleave format: <|interleave|>, per reference <|speaker:0|>text VQ <|im_end|>, then
// <|speaker:0|>text with no end token. (N+1, L) int64.
at::Tensor build_s1_prompt(const Tokenizer& tokenizer, int num_codebooks, const std::vector<PromptReference>& references,
                           const std::string& text);
// Tokens of build_s1_prompt's references part (<|interleave|> up to the last reference's
// <|im_end|>): the voice prefix of every S1 prompt with these references; 0 without references.
int64_t s1_voice_prefix_tokens(const Tokenizer& tokenizer, int num_codebooks, const std::vector<PromptReference>& references);

}  // namespace reef
