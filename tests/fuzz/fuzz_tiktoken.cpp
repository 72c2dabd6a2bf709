// tokenizer.tiktoken + special_tokens.json (S1): base64 ranks, the special list and the ids
// derived from both, through TiktokenTokenizer::load_files. One input holds both files: the part
// before the first kSeparator line is tokenizer.tiktoken, the rest special_tokens.json; without
// the separator there is no special_tokens.json and the built-in list is used, as in a folder
// that lacks it. A tokenizer that loads then encodes and decodes a fixed sample text.
#include <string_view>

#include "fuzz_common.h"
#include "text2semantic/tokenizer_tiktoken.h"
#include "tokenizer_sample.h"

namespace {
constexpr std::string_view kSeparator = "\n#special_tokens.json\n";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view in(reinterpret_cast<const char*>(data), size);
    const size_t cut = in.find(kSeparator);
    const std::string_view ranks = in.substr(0, cut);
    const std::string ranks_path =
        reef::fuzz::write_scratch("tokenizer.tiktoken", reinterpret_cast<const uint8_t*>(ranks.data()), ranks.size());
    const std::string special_path = (reef::fuzz::scratch_dir() / "special_tokens.json").string();
    if (cut == std::string_view::npos) {
        std::filesystem::remove(special_path);
    } else {
        const std::string_view special = in.substr(cut + kSeparator.size());
        reef::fuzz::write_scratch("special_tokens.json", reinterpret_cast<const uint8_t*>(special.data()), special.size());
    }
    reef::fuzz::expect_clean([&] {
        const auto tok = reef::TiktokenTokenizer::load_files(ranks_path, special_path);
        const std::vector<int32_t> ids = tok->encode(reef::fuzz::kTokenizerSample);
        for (int32_t id : ids)
            if (id < 0 || id >= tok->vocab_size()) reef::fuzz::finding("encode returned an id outside the vocab", std::to_string(id));
        (void)tok->decode(ids);
        (void)tok->decode({-1, 0, int32_t(tok->vocab_size()), 2147483647});
    });
    return 0;
}
