// Writes small but real tokenizer folders for demo models and tests: the S2 layout (HF
// tokenizer.json + tokenizer_config.json + special_tokens_map.json, loadable by HF
// AutoTokenizer) or the S1 layout (tokenizer.tiktoken + special_tokens.json).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace reef {

struct DemoTokenizerInfo {
    int64_t vocab_size;  // the model's embedding rows: covers every id, plus 2 padding rows
    int32_t semantic_begin, semantic_end, im_end;
};

// layout "s2": specials in model.vocab AND added_tokens at their ids (tokenizer_hf.cpp,
//   "Added tokens"), S2-Pro's relative layout: <|endoftext|> = F, <|im_start|> F+1, <|im_end|> F+2,
//   <|pad|> F+26 ... <|audio_pad|> F+34, <|semantic:i|> F+35+i.
// layout "s1": tokenizer.tiktoken (dense ranks; filler ranks up to F) + special_tokens.json in the
//   S1-era order (15 control tokens, then <|semantic:i|>), ids F + position.
// preset "tiny": F = 512 (a byte-level BPE of 256 bytes + 256 merges learned deterministically
//   from a built-in sample text); "s1-mini" / "s2-pro": F = 151643, vocab_size 155776.
// Files are written atomically (temp + rename). Throws ReefError(InvalidArgument) on an unknown
// layout or preset, ReefError(Io) when a file cannot be written.
DemoTokenizerInfo write_demo_tokenizer(const std::string& dir, const std::string& layout, const std::string& preset);

// The demo BPE itself: raw byte strings, id = index (bytes 0..255, then one token per merge), and
// the merges as (left, right) raw byte strings. Exposed for tests.
struct DemoBpe {
    std::vector<std::string> tokens;
    std::vector<std::pair<std::string, std::string>> merges;
};
DemoBpe train_demo_bpe(int num_merges);

}  // namespace reef
