// tokenizer.json (S2, HF byte-level BPE): vocab, merges, added tokens, the normalizer and the
// Split pre-tokenizer's regex, through HfBpeTokenizer::load_file on a file holding the fuzzer's
// bytes; a tokenizer that loads then encodes and decodes a fixed sample text.
#include "fuzz_common.h"
#include "text2semantic/tokenizer_hf.h"
#include "tokenizer_sample.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = reef::fuzz::write_scratch("tokenizer.json", data, size);
    reef::fuzz::expect_clean([&] {
        const auto tok = reef::HfBpeTokenizer::load_file(path);
        const std::vector<int32_t> ids = tok->encode(reef::fuzz::kTokenizerSample);
        for (int32_t id : ids)
            if (id < 0 || id >= tok->vocab_size()) reef::fuzz::finding("encode returned an id outside the vocab", std::to_string(id));
        (void)tok->decode(ids);
        (void)tok->decode({-1, 0, int32_t(tok->vocab_size()), 2147483647});
    });
    return 0;
}
