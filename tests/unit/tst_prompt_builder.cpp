// Prompt builder tests (fish-speech conversation.py, content_sequence.py) on the tiny demo tokenizers: the exact part
// sequence (each part tokenized on its own), VQ placement, and text batching.
#include <filesystem>

#include "check.h"
#include "text2semantic/demo_tokenizer.h"
#include "text2semantic/prompt_builder.h"

namespace fs = std::filesystem;
using reef::PromptReference;

namespace {

constexpr int kN = 3;  // codebooks in these tests

std::unique_ptr<reef::Tokenizer> demo(const std::string& layout) {
    const fs::path dir = reef_test::temp_dir("prompt_" + layout);
    reef::write_demo_tokenizer(dir.string(), layout, "tiny");
    return reef::Tokenizer::load(dir.string());
}

// Expected row 0, part by part: text parts encoded on their own, VQ parts as codes[0] + begin.
struct Expect {
    const reef::Tokenizer& tok;
    std::vector<int64_t> row0;
    std::vector<std::pair<int64_t, at::Tensor>> vq;  // (start position, codes (N, T))
    Expect& text(const std::string& s) {
        for (int32_t id : tok.encode(s)) row0.push_back(id);
        return *this;
    }
    Expect& codes(const at::Tensor& c) {
        vq.emplace_back(static_cast<int64_t>(row0.size()), c);
        for (int64_t t = 0; t < c.size(1); ++t) row0.push_back(c[0][t].item<int64_t>() + tok.semantic_begin_id());
        return *this;
    }
    void check(const at::Tensor& values, int line) const {
        const auto L = static_cast<int64_t>(row0.size());
        const bool shape_ok = values.dim() == 2 && values.size(0) == kN + 1 && values.size(1) == L &&
                              values.scalar_type() == at::kLong;
        reef_test::report(shape_ok, "prompt shape (N+1, L) int64", __FILE__, line,
                          "got " + c10::str(values.sizes()) + " expected L=" + std::to_string(L));
        if (!shape_ok) return;
        reef_test::report(at::equal(values[0], at::tensor(row0, at::kLong)), "row 0 tokens", __FILE__, line);
        at::Tensor rest = at::zeros({kN, L}, at::kLong);
        for (const auto& [start, c] : vq) rest.slice(1, start, start + c.size(1)).copy_(c);
        reef_test::report(at::equal(values.slice(0, 1), rest), "rows 1..N = codes at VQ positions, 0 elsewhere",
                          __FILE__, line);
    }
};

at::Tensor codes(int64_t T, int64_t seed) {  // (N, T) in [0, 4096)
    return (at::arange(kN * T, at::kLong).reshape({kN, T}) * 37 + seed * 101) % 4096;
}

}  // namespace

TEST_CASE(s2_no_reference_layout) {
    auto tok = demo("s2");
    reef::S2Conversation conv(*tok, kN, {});
    conv.add_user("<|speaker:0|>Hello there.");
    const at::Tensor v = conv.encode_for_inference();
    Expect e{*tok, {}, {}};
    e.text("<|im_start|>system\n").text("convert the provided text to speech").text("<|im_end|>\n");
    e.text("<|im_start|>user\n").text("<|speaker:0|>Hello there.").text("<|im_end|>\n");
    e.text("<|im_start|>assistant\n<|voice|>");
    e.check(v, __LINE__);
    // Ends in the open assistant header: ... im_start, "assistant", "\n", <|voice|>.
    CHECK_EQ(v[0][0].item<int64_t>(), int64_t(tok->token_id("<|im_start|>")));
    CHECK_EQ(v[0][-1].item<int64_t>(), int64_t(tok->token_id("<|voice|>")));
    CHECK_EQ(v[0][-1].item<int64_t>(), int64_t(512 + 30));
}

TEST_CASE(s2_references_tagged_and_one_vq_block) {
    auto tok = demo("s2");
    const at::Tensor c0 = codes(2, 1), c1 = codes(3, 2);
    reef::S2Conversation conv(*tok, kN, {PromptReference{"first voice", c0}, PromptReference{"<|speaker:5|>second", c1}});
    conv.add_user("target text");
    const at::Tensor v = conv.encode_for_inference();
    Expect e{*tok, {}, {}};
    e.text("<|im_start|>system\n")
        .text("convert the provided text to speech reference to the following:\n\nText:\n")
        .text("<|speaker:0|>first voice\n<|speaker:5|>second")  // untagged texts get <|speaker:i|>
        .text("\n\nSpeech:\n")
        .codes(at::cat({c0, c1}, 1))  // all reference codes: one VQ block after all the texts
        .text("<|im_end|>\n");
    e.text("<|im_start|>user\n").text("target text").text("<|im_end|>\n").text("<|im_start|>assistant\n<|voice|>");
    e.check(v, __LINE__);
    // Exactly 5 positions carry codes, all in the semantic range.
    const at::Tensor row0 = v[0];
    const auto in_range = row0.ge(tok->semantic_begin_id()).logical_and(row0.le(tok->semantic_end_id()));
    CHECK_EQ(in_range.sum().item<int64_t>(), int64_t(5));
}

TEST_CASE(s2_multi_batch_keeps_history) {
    auto tok = demo("s2");
    reef::S2Conversation conv(*tok, kN, {});
    const at::Tensor g0 = codes(4, 3);
    conv.add_user("<|speaker:0|>one");
    const at::Tensor first = conv.encode_for_inference();
    conv.add_assistant_codes(g0);
    conv.add_user("<|speaker:1|>two");
    const at::Tensor v = conv.encode_for_inference();
    Expect e{*tok, {}, {}};
    e.text("<|im_start|>system\n").text("convert the provided text to speech").text("<|im_end|>\n");
    e.text("<|im_start|>user\n").text("<|speaker:0|>one").text("<|im_end|>\n");
    e.text("<|im_start|>assistant\n<|voice|>").codes(g0).text("<|im_end|>\n");
    e.text("<|im_start|>user\n").text("<|speaker:1|>two").text("<|im_end|>\n");
    e.text("<|im_start|>assistant\n<|voice|>");
    e.check(v, __LINE__);
    // The first prompt is a prefix of the second (the history is never rewritten).
    CHECK(at::equal(v[0].slice(0, 0, first.size(1) - 4), first[0].slice(0, 0, first.size(1) - 4)));
}

TEST_CASE(s1_interleave_layout) {
    auto tok = demo("s1");
    const at::Tensor c = codes(3, 4);
    const at::Tensor v = reef::build_s1_prompt(*tok, kN, {PromptReference{"ref words", c}}, "target");
    Expect e{*tok, {}, {}};
    e.text("<|interleave|>").text("<|speaker:0|>").text("ref words").codes(c).text("<|im_end|>");
    e.text("<|speaker:0|>").text("target");
    e.check(v, __LINE__);
    CHECK_EQ(v[0][0].item<int64_t>(), int64_t(512 + 11));  // <|interleave|> in the S1 order
    CHECK_EQ(v[0][-1].item<int64_t>(), int64_t(tok->encode("target").back()));  // no end token
    const at::Tensor none = reef::build_s1_prompt(*tok, kN, {}, "x");
    Expect e2{*tok, {}, {}};
    e2.text("<|interleave|>").text("<|speaker:0|>").text("x");
    e2.check(none, __LINE__);
}

TEST_CASE(bad_codes_are_errors) {
    auto tok = demo("s2");
    auto code_of = [](auto&& f) {
        try {
            f();
        } catch (const reef::ReefError& e) {
            return e.error().code;
        }
        return reef::ErrorCode::Internal;
    };
    CHECK(code_of([&] { reef::S2Conversation(*tok, kN, {PromptReference{"t", at::zeros({kN + 1, 2}, at::kLong)}}); }) ==
          reef::ErrorCode::ShapeMismatch);
    CHECK(code_of([&] {
              reef::S2Conversation conv(*tok, kN, {PromptReference{"t", at::full({kN, 2}, 4096, at::kLong)}});
              conv.encode_for_inference();
          }) == reef::ErrorCode::InvalidArgument);
    CHECK(code_of([&] { reef::build_s1_prompt(*tok, kN, {PromptReference{"t", at::full({kN, 1}, -1, at::kLong)}}, "x"); }) ==
          reef::ErrorCode::InvalidArgument);
}

TEST_CASE(split_text_batches_cases) {
    using V = std::vector<std::string>;
    // No tag: the whole text is one batch, untouched, however long.
    const std::string longtext(2000, 'a');
    CHECK(reef::split_text_batches(longtext, 100) == V{longtext});
    CHECK(reef::split_text_batches("  plain text \n", 300) == V{"  plain text \n"});
    // Tags: each turn = tag + text, stripped; joined with "\n".
    CHECK(reef::split_text_batches("<|speaker:0|> Hi there. \n<|speaker:1|>\tHello!  ", 300) ==
          (V{"<|speaker:0|> Hi there.\n<|speaker:1|>\tHello!"}));
    // Text before the first tag is dropped.
    CHECK(reef::split_text_batches("intro words <|speaker:0|>a", 300) == V{"<|speaker:0|>a"});
    // A tag with no text is a turn of its own.
    CHECK(reef::split_text_batches("<|speaker:0|><|speaker:1|>b", 300) == (V{"<|speaker:0|>\n<|speaker:1|>b"}));
    // At most 5 turns per batch.
    std::string six;
    for (int i = 0; i < 6; ++i) six += "<|speaker:" + std::to_string(i % 2) + "|>t" + std::to_string(i);
    const V b6 = reef::split_text_batches(six, 10000);
    CHECK_EQ(b6.size(), size_t(2));
    CHECK(b6[0] == "<|speaker:0|>t0\n<|speaker:1|>t1\n<|speaker:0|>t2\n<|speaker:1|>t3\n<|speaker:0|>t4");
    CHECK(b6[1] == "<|speaker:1|>t5");
    // Byte limit: a new batch when adding a turn would exceed chunk_length UTF-8 bytes (the "\n"
    // joins are not counted); a single turn may exceed it.
    const std::string t1 = "<|speaker:0|>" + std::string(10, 'x');  // 23 bytes
    const std::string t2 = "<|speaker:1|>你好";                      // 13 + 6 = 19 bytes
    CHECK(reef::split_text_batches(t1 + t2, 42) == V{t1 + "\n" + t2});
    CHECK(reef::split_text_batches(t1 + t2, 41) == (V{t1, t2}));
    CHECK(reef::split_text_batches(t1 + t2, 5) == (V{t1, t2}));
}

TEST_MAIN()
