#include "text2semantic/tokenizer.h"

#include <algorithm>
#include <filesystem>

#include "check.h"
#include "text2semantic/tokenizer_hf.h"
#include "text2semantic/tokenizer_tiktoken.h"

namespace reef {

namespace fs = std::filesystem;

std::unique_ptr<Tokenizer> Tokenizer::load(const std::string& model_dir) {
    const fs::path dir(model_dir);
    if (!fs::is_directory(dir)) throw ReefError(ErrorCode::ModelNotFound, "model folder not found: " + model_dir);
    if (fs::exists(dir / "tokenizer.json")) return HfBpeTokenizer::load_file((dir / "tokenizer.json").string());
    if (fs::exists(dir / "tokenizer.tiktoken"))
        return TiktokenTokenizer::load_files((dir / "tokenizer.tiktoken").string(), (dir / "special_tokens.json").string());
    throw ReefError(ErrorCode::ModelNotFound,
                    "no tokenizer in " + model_dir + ": expected tokenizer.json (S2) or tokenizer.tiktoken (S1)",
                    "copy the tokenizer files of the checkpoint into the model folder");
}

void Tokenizer::init_special_ids() {
    // Semantic range = min/max id over <|semantic:0..4095|> present (fish-speech llama.py: from_pretrained). VQ parts
    // are written as code + semantic_begin, so the present ids must be contiguous and in code order.
    int32_t lo = -1, hi = -1, first_code = -1;
    for (int i = 0; i < 4096; ++i) {
        const int32_t id = token_id("<|semantic:" + std::to_string(i) + "|>");
        if (id < 0) continue;
        if (first_code < 0) {
            first_code = i;
            lo = hi = id;
        }
        const int32_t expected = lo + (i - first_code);
        if (id != expected)
            throw ReefError(ErrorCode::CorruptModel, "tokenizer: <|semantic:" + std::to_string(i) + "|> has id " +
                                                         std::to_string(id) + ", expected " + std::to_string(expected) +
                                                         " (semantic ids must be contiguous and in code order)");
        hi = id;
    }
    m_semantic_begin = lo;
    m_semantic_end = hi;
    m_im_end = token_id("<|im_end|>");
}

}  // namespace reef
