// The prompt text path: split_text_batches (speaker tags <|speaker:N|>, turn stripping, batching
// by turns and UTF-8 bytes), then every batch through the demo S2 tokenizer (encode with inline
// special tokens, decode) and the whole text through build_s1_prompt with the demo S1 tokenizer.
// Input: the first byte picks chunk_length (0..1020 bytes, in steps of 4), the rest is the text.
#include "fuzz_common.h"
#include "text2semantic/demo_tokenizer.h"
#include "text2semantic/prompt_builder.h"
#include "text2semantic/tokenizer.h"

namespace {

// The demo tokenizers are written and loaded once per process; the harness fuzzes the text only.
const reef::Tokenizer& demo_tokenizer(const char* layout) {
    auto make = [](const char* l) {
        const std::string dir = (reef::fuzz::scratch_dir() / l).string();
        reef::write_demo_tokenizer(dir, l, "tiny");
        return reef::Tokenizer::load(dir);
    };
    static const std::unique_ptr<reef::Tokenizer> s2 = make("s2");
    static const std::unique_ptr<reef::Tokenizer> s1 = make("s1");
    return std::string_view(layout) == "s2" ? *s2 : *s1;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const int chunk_length = int(data[0]) * 4;
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    const reef::Tokenizer& s2 = demo_tokenizer("s2");
    const reef::Tokenizer& s1 = demo_tokenizer("s1");
    reef::fuzz::expect_clean([&] {
        for (const std::string& batch : reef::split_text_batches(text, chunk_length)) {
            const std::vector<int32_t> ids = s2.encode(batch);
            (void)s2.decode(ids);
        }
        const at::Tensor prompt = reef::build_s1_prompt(s1, 2, {}, text);
        if (prompt.dim() != 2 || prompt.size(0) != 3) reef::fuzz::finding("S1 prompt has the wrong shape", c10::str(prompt.sizes()));
    });
    return 0;
}
