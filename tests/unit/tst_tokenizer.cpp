// Tokenizer tests on demo tokenizer folders written on the fly (no model files): exact ids
// against HF tokenizers / tiktoken, round trips, inline specials, NFC, errors, speed.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "check.h"
#include "text2semantic/demo_tokenizer.h"
#include "text2semantic/tokenizer.h"
#include "text2semantic/tokenizer_nfc.h"

namespace fs = std::filesystem;
using Ids = std::vector<int32_t>;

namespace {

std::string ids_str(const Ids& ids) {
    std::string s = "[";
    for (size_t i = 0; i < ids.size(); ++i) s += (i ? "," : "") + std::to_string(ids[i]);
    return s + "]";
}

#define CHECK_IDS(a, b) ::reef_test::report((a) == (b), #a " == " #b, __FILE__, __LINE__, ids_str(a) + " vs " + ids_str(b))

std::unique_ptr<reef::Tokenizer> demo(const std::string& layout, const std::string& preset) {
    const fs::path dir = reef_test::temp_dir("tok_" + layout + "_" + preset);
    reef::write_demo_tokenizer(dir.string(), layout, preset);
    return reef::Tokenizer::load(dir.string());
}

template <class F>
reef::ErrorCode error_code_of(F&& f, std::string* message = nullptr) {
    try {
        f();
    } catch (const reef::ReefError& e) {
        if (message) *message = e.what();
        return e.error().code;
    }
    return reef::ErrorCode::Internal;  // "did not throw" (no test expects Internal)
}

void write_text(const fs::path& p, const std::string& s) { std::ofstream(p, std::ios::binary) << s; }

const std::vector<std::string> kGoldenTexts = {
    "Hello, world! It's a test.",
    "今天天气很好，我们一起去公园散步吧。",
    "<|im_start|>user\nthe speech<|im_end|>\n<|semantic:7|>",
    "multiple   spaces\n\n  end",
    "Emoji 🙂🎙️ ok",
    "A\u0301 e\u0301",
};

const std::vector<std::string> kRoundTrip = {
    "hello world", "  leading and trailing  ", "tabs\t\tand\r\nCRLF\n\n\nnewlines", "It's we'll I'M",
    "今天天气很好，我们一起去公园散步吧。", "こんにちは、今日はいい天気ですね。カタカナ", "안녕하세요 세계",
    "Emoji 🙂🎙️🐟 👩‍👩‍👧 🇫🇷", "Ünïcödé façade naïve café", "Голос звучит", "2024 3.14 100%",
    "<|im_start|>user\n[whisper] hi<|im_end|>\n<|voice|><|semantic:0|><|semantic:4095|>", "", " ", "\n",
};

}  // namespace

// Expected ids produced once with HF tokenizers 0.23.3:
//   Tokenizer.from_file("<dir>/tokenizer.json").encode(s, add_special_tokens=False).ids
// on the folder write_demo_tokenizer(dir, "s2", "tiny") writes (dev check, not run in CI).
TEST_CASE(s2_tiny_ids_match_hf_tokenizers) {
    auto tok = demo("s2", "tiny");
    const std::vector<Ids> expected = {
        {72, 354, 108, 111, 44, 275, 294, 439, 33, 478, 116, 39, 115, 258, 256, 291, 46},
        {465, 372, 470, 148, 467, 229, 165, 189, 239, 188, 140, 373, 145, 370, 172, 228, 184, 449, 181,
         183, 229, 142, 187, 229, 133, 172, 229, 155, 173, 471, 163, 230, 173, 165, 371, 167, 325},
        {513, 117, 115, 266, 10, 116, 257, 412, 99, 104, 514, 10, 554},
        {109, 117, 108, 116, 105, 112, 318, 32, 32, 309, 97, 99, 268, 10, 10, 32, 395},
        {69, 109, 111, 106, 105, 350, 153, 130, 240, 159, 142, 153, 239, 184, 143, 329, 107},
        {195, 129, 32, 195, 169},  // NFC composes A+U+0301 and e+U+0301 first
    };
    for (size_t i = 0; i < kGoldenTexts.size(); ++i) CHECK_IDS(tok->encode(kGoldenTexts[i]), expected[i]);
}

// Expected ids produced once with tiktoken 0.14.0: Encoding(pat_str=FISH_TIKTOKEN_PATTERN,
// mergeable_ranks=<tokenizer.tiktoken>, special_tokens={t: len(ranks)+i for i, t in
// enumerate(special_tokens.json)}).encode(s, allowed_special="all") on write_demo_tokenizer(dir, "s1", "tiny").
TEST_CASE(s1_tiny_ids_match_tiktoken) {
    auto tok = demo("s1", "tiny");
    const std::vector<Ids> expected = {
        {72, 354, 108, 111, 44, 275, 294, 439, 33, 478, 116, 39, 115, 258, 256, 291, 46},
        {465, 372, 470, 148, 467, 229, 165, 189, 239, 188, 140, 373, 145, 370, 172, 228, 184, 449, 181,
         183, 229, 142, 187, 229, 133, 172, 229, 155, 173, 471, 163, 230, 173, 165, 371, 167, 325},
        {515, 117, 115, 266, 10, 116, 257, 412, 99, 104, 516, 10, 534},
        // the S1 regex's literal "(\?!\S)" makes a run of spaces one piece: "   " then "spaces"
        {109, 117, 108, 116, 105, 112, 318, 32, 32, 32, 115, 112, 97, 99, 268, 10, 10, 32, 32, 101, 263},
        {69, 109, 111, 106, 105, 350, 153, 130, 240, 159, 142, 153, 239, 184, 143, 329, 107},
        {65, 204, 129, 280, 204, 129},  // no normalizer in S1
    };
    for (size_t i = 0; i < kGoldenTexts.size(); ++i) CHECK_IDS(tok->encode(kGoldenTexts[i]), expected[i]);
}

// Same sources: HF tokenizers on the "s2-pro" preset, tiktoken on the "s1-mini" preset.
TEST_CASE(full_size_presets_use_s2_pro_ids) {
    auto s2 = demo("s2", "s2-pro");
    CHECK_IDS(s2->encode("<|im_start|>user\nthe speech<|im_end|>\n<|semantic:7|>"),
              (Ids{151644, 117, 115, 266, 10, 116, 257, 412, 99, 104, 151645, 10, 151685}));
    CHECK_EQ(s2->token_id("<|voice|>"), 151673);
    CHECK_EQ(s2->token_id("<|pad|>"), 151669);
    CHECK_EQ(s2->token_id("<|audio_pad|>"), 151677);
    CHECK_EQ(s2->semantic_begin_id(), 151678);
    CHECK_EQ(s2->semantic_end_id(), 155773);
    CHECK_EQ(s2->im_end_id(), 151645);
    CHECK_EQ(s2->vocab_size(), 155774);  // max id + 1
    CHECK(s2->decode({151650}).empty());  // a gap id decodes to nothing, as HF
    auto s1 = demo("s1", "s1-mini");
    CHECK_IDS(s1->encode("<|interleave|><|speaker:0|>hi<|semantic:0|><|im_end|>"),
              (Ids{151654, 60, 124, 115, 112, 101, 97, 107, 266, 58, 48, 124, 62, 104, 105, 151658, 151647}));
    CHECK_EQ(s1->semantic_begin_id(), 151658);
    CHECK_EQ(s1->semantic_end_id(), 151658 + 4095);
    CHECK_EQ(s1->im_end_id(), 151647);
}

TEST_CASE(demo_info_matches_loaded_ids) {
    for (auto [layout, preset] : {std::pair{"s2", "tiny"}, {"s1", "tiny"}, {"s2", "s2-pro"}, {"s1", "s1-mini"}}) {
        const fs::path dir = reef_test::temp_dir(std::string("info_") + layout + preset);
        const auto info = reef::write_demo_tokenizer(dir.string(), layout, preset);
        auto tok = reef::Tokenizer::load(dir.string());
        CHECK_EQ(tok->semantic_begin_id(), info.semantic_begin);
        CHECK_EQ(tok->semantic_end_id(), info.semantic_end);
        CHECK_EQ(tok->im_end_id(), info.im_end);
        CHECK(info.vocab_size >= tok->vocab_size() + 2);
        if (std::string(preset) != "tiny") CHECK_EQ(info.vocab_size, 155776);
        if (std::string(layout) == "s2") CHECK(fs::file_size(dir / "tokenizer.json") < 1000000);
    }
    const fs::path dir = reef_test::temp_dir("info_tiny_s2");
    const auto tiny = reef::write_demo_tokenizer(dir.string(), "s2", "tiny");
    CHECK_EQ(tiny.semantic_begin, 512 + 35);
    CHECK_EQ(tiny.vocab_size, 512 + 35 + 4096 + 2);
    CHECK(error_code_of([&] { reef::write_demo_tokenizer(dir.string(), "s3", "tiny"); }) == reef::ErrorCode::InvalidArgument);
    CHECK(error_code_of([&] { reef::write_demo_tokenizer(dir.string(), "s2", "huge"); }) == reef::ErrorCode::InvalidArgument);
    // The demo BPE is deterministic: 256 bytes + 256 merges.
    const auto bpe = reef::train_demo_bpe(256);
    CHECK_EQ(bpe.tokens.size(), size_t(512));
    CHECK(bpe.tokens[256] == bpe.merges[0].first + bpe.merges[0].second);
}

TEST_CASE(round_trips) {
    for (auto [layout, preset] : {std::pair{"s2", "tiny"}, {"s1", "tiny"}}) {
        auto tok = demo(layout, preset);
        for (const auto& s : kRoundTrip) {
            const std::string back = tok->decode(tok->encode(s));
            reef_test::report(back == s, "round trip", __FILE__, __LINE__, std::string(layout) + ": '" + s + "' -> '" + back + "'");
        }
    }
}

TEST_CASE(special_tokens_inline) {
    auto tok = demo("s2", "tiny");
    const int32_t im_end = tok->im_end_id();
    CHECK_EQ(im_end, 514);
    CHECK_IDS(tok->encode("<|im_end|><|im_end|>"), (Ids{514, 514}));
    const Ids a = tok->encode("a<|im_end|>b");
    CHECK_EQ(a.size(), size_t(3));
    CHECK_EQ(a[1], im_end);
    // Not specials: a cut-off token and an unknown one are plain text.
    for (const char* s : {"<|im_end", "<|unknown|>", "<|speaker:0|>"})
        for (int32_t id : tok->encode(s)) CHECK(id < 512);
    CHECK_EQ(tok->token_id("<|semantic:12|>"), 547 + 12);
    CHECK_EQ(tok->token_id("no such token"), -1);
    CHECK_EQ(tok->token_id("a"), 97);
}

TEST_CASE(decode_is_lossy_utf8) {
    auto tok = demo("s2", "tiny");
    // Byte 0xE4 alone (the first byte of a CJK char) is invalid UTF-8 -> U+FFFD, as HF's decoder.
    CHECK(tok->decode({0xE4}) == "\xEF\xBF\xBD");
    CHECK(tok->decode({0xE4, 0xBB, 0x8A}) == "今");
    CHECK(tok->decode({-5, 1000000}).empty());
}

TEST_CASE(nfc_normalize_cases) {
    CHECK(reef::nfc_normalize("plain ascii") == "plain ascii");
    CHECK(reef::nfc_normalize("A\u0301") == "\u00C1");
    CHECK(reef::nfc_normalize("e\u0302\u0323") == "\u1EC7");  // reordered (dot below first), then composed
    CHECK(reef::nfc_normalize("e\u0323\u0302") == "\u1EC7");
    CHECK(reef::nfc_normalize("\u212B") == "\u00C5");           // Angstrom sign: singleton
    CHECK(reef::nfc_normalize("\u1112\u1161\u11AB") == "\uD55C");  // Hangul L V T -> 한
    CHECK(reef::nfc_normalize("\u304B\u3099") == "\u304C");      // か + voiced mark -> が
    CHECK(reef::nfc_normalize("\u0301a") == "\u0301a");          // leading mark stays
    CHECK(reef::nfc_normalize("\xFF\xFE") == "\xFF\xFE");        // invalid UTF-8: unchanged
}

TEST_CASE(s1_without_special_tokens_json_uses_builtin_list) {
    const fs::path dir = reef_test::temp_dir("tok_s1_nospecial");
    reef::write_demo_tokenizer(dir.string(), "s1", "tiny");
    fs::remove(dir / "special_tokens.json");
    auto tok = reef::Tokenizer::load(dir.string());
    CHECK_EQ(tok->token_id("<|begin_of_text|>"), 512);
    CHECK_EQ(tok->token_id("<|audio|>"), 512 + 14);
    CHECK_EQ(tok->semantic_begin_id(), 512 + 15);
}

TEST_CASE(hf_added_tokens_outside_vocab_get_appended_ids) {
    // HF ignores added_tokens[].id: a special missing from model.vocab gets vocab.len() + k.
    const fs::path dir = reef_test::temp_dir("tok_addedonly");
    reef::write_demo_tokenizer(dir.string(), "s2", "tiny");
    nlohmann::json j;
    std::ifstream(dir / "tokenizer.json") >> j;
    auto& vocab = j["model"]["vocab"];
    for (auto it = vocab.begin(); it != vocab.end();) it = it.value().get<int>() >= 512 ? vocab.erase(it) : std::next(it);
    write_text(dir / "tokenizer.json", j.dump());
    auto tok = reef::Tokenizer::load(dir.string());
    CHECK_EQ(tok->token_id("<|endoftext|>"), 512);
    CHECK_EQ(tok->im_end_id(), 514);
    CHECK_EQ(tok->token_id("<|voice|>"), 512 + 7);
    CHECK_EQ(tok->semantic_begin_id(), 512 + 12);
}

TEST_CASE(missing_and_corrupt_files_are_specific_errors) {
    std::string msg;
    CHECK(error_code_of([] { reef::Tokenizer::load("/nonexistent/reef/model"); }) == reef::ErrorCode::ModelNotFound);
    const fs::path empty = reef_test::temp_dir("tok_empty");
    CHECK(error_code_of([&] { reef::Tokenizer::load(empty.string()); }, &msg) == reef::ErrorCode::ModelNotFound);
    CHECK(msg.find("tokenizer.json") != std::string::npos);

    const fs::path dir = reef_test::temp_dir("tok_corrupt");
    reef::write_demo_tokenizer(dir.string(), "s2", "tiny");
    std::string text;
    {
        std::ifstream in(dir / "tokenizer.json");
        text.assign(std::istreambuf_iterator<char>(in), {});
    }
    write_text(dir / "tokenizer.json", text.substr(0, text.size() / 2));  // truncated
    CHECK(error_code_of([&] { reef::Tokenizer::load(dir.string()); }, &msg) == reef::ErrorCode::CorruptModel);
    CHECK(msg.find("tokenizer.json") != std::string::npos);

    nlohmann::json j = nlohmann::json::parse(text);
    j["normalizer"] = {{"type", "Lowercase"}};
    write_text(dir / "tokenizer.json", j.dump());
    CHECK(error_code_of([&] { reef::Tokenizer::load(dir.string()); }, &msg) == reef::ErrorCode::CorruptModel);
    CHECK(msg.find("Lowercase") != std::string::npos);

    j = nlohmann::json::parse(text);
    j["model"]["vocab"]["<|semantic:3|>"] = 9000;  // breaks contiguity
    for (auto& a : j["added_tokens"]) if (a["content"] == "<|semantic:3|>") a["id"] = 9000;
    write_text(dir / "tokenizer.json", j.dump());
    CHECK(error_code_of([&] { reef::Tokenizer::load(dir.string()); }, &msg) == reef::ErrorCode::CorruptModel);
    CHECK(msg.find("<|semantic:3|>") != std::string::npos);

    j = nlohmann::json::parse(text);
    j["model"]["merges"][0] = "nosuch token";
    write_text(dir / "tokenizer.json", j.dump());
    CHECK(error_code_of([&] { reef::Tokenizer::load(dir.string()); }, &msg) == reef::ErrorCode::CorruptModel);
    CHECK(msg.find("merges[0]") != std::string::npos);

    const fs::path s1 = reef_test::temp_dir("tok_corrupt_s1");
    reef::write_demo_tokenizer(s1.string(), "s1", "tiny");
    write_text(s1 / "tokenizer.tiktoken", "QQ== 0\n!!!notbase64 1\n");
    CHECK(error_code_of([&] { reef::Tokenizer::load(s1.string()); }, &msg) == reef::ErrorCode::CorruptModel);
    CHECK(msg.find("tokenizer.tiktoken:2") != std::string::npos);
    write_text(s1 / "tokenizer.tiktoken", "QQ== 0\n");  // only "A": the other 255 bytes lack ranks
    CHECK(error_code_of([&] { reef::Tokenizer::load(s1.string()); }, &msg) == reef::ErrorCode::CorruptModel);
    CHECK(msg.find("single byte") != std::string::npos);
}

// Encoding 10 KB scales with the text, measured as a ratio in this run rather than against a clock
// figure: the cost per byte of 10 KB against that of an eighth of it, each the fastest of a few
// runs (a busy moment on the machine does not count), every run on a text of its own so that the
// tokenizer's word cache does not answer for the merges. Linear (or n log n) encoding gives about
// 1-1.5; a quadratic merge loop over the one 10 KB pre-token about 8; the bound, 4, lies between.
TEST_CASE(encode_10kb_is_fast) {
    auto s2 = demo("s2", "tiny");
    auto s1 = demo("s1", "tiny");
    auto words_of = [](size_t bytes, int variant) {
        std::string text;
        for (int k = 0; text.size() < bytes; ++k)
            text += kRoundTrip[k % kRoundTrip.size()] + " word" + std::to_string(k + 100000 * variant) + "\n";
        return text;
    };
    auto run_of = [](size_t bytes, int variant) {  // one long run of letters: a single pre-token of ~bytes
        const std::string phrase = "今天天气很好我们一起去公园散步吧";  // 16 letters of 3 bytes
        const size_t at = size_t(3 * (variant % 16));
        const std::string rotated = phrase.substr(at) + phrase.substr(0, at);
        std::string cjk;
        while (cjk.size() < bytes) cjk += rotated;
        return cjk;
    };
    constexpr int kRuns = 5;
    for (auto* tok : {s2.get(), s1.get()}) {
        for (auto make : {+words_of, +run_of}) {
            // the fastest of kRuns encodes, each of another text of `bytes`; `first` is checked
            auto fastest_ms = [&](size_t bytes, int variant0, std::string* first, Ids* first_ids) {
                double best = 1e300;
                for (int i = 0; i < kRuns; ++i) {
                    const std::string t = make(bytes, variant0 + i);
                    const auto t0 = std::chrono::steady_clock::now();
                    Ids ids = tok->encode(t);
                    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
                    if (i == 0) {
                        *first = t;
                        *first_ids = std::move(ids);
                    }
                }
                return best;
            };
            std::string whole, eighth;
            Ids ids, small_ids;
            const double ms = fastest_ms(10240, 0, &whole, &ids);
            const double small_ms = std::max(1e-6, fastest_ms(1280, kRuns, &eighth, &small_ids));
            const double per_byte_ratio = (ms / double(whole.size())) / (small_ms / double(eighth.size()));
            std::printf("  encode %zu bytes -> %zu ids in %.2f ms, %zu bytes in %.3f ms: %.2fx the cost per byte\n",
                        whole.size(), ids.size(), ms, eighth.size(), small_ms, per_byte_ratio);
            CHECK(per_byte_ratio < 4.0);
            CHECK(tok->decode(ids) == whole);
            CHECK(tok->decode(small_ids) == eighth);
        }
    }
}

TEST_MAIN()
