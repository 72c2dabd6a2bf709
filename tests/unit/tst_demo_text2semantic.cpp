// Demo model writer round trip: tiny in both layouts loads through the real loader, and a missing
// key or a wrong shape in the written file gives ShapeMismatch naming the key.
#include <ATen/ATen.h>

#include <filesystem>

#include "check.h"
#include "checkpoint/pth_reader.h"
#include "checkpoint/safetensors.h"
#include "text2semantic/demo_text2semantic.h"
#include "text2semantic/dual_ar_model.h"
#include "text2semantic/generator.h"
#include "text2semantic/model_weights.h"

using namespace reef;

namespace {

constexpr int64_t kVocab = 4700;

std::string expect_shape_error(const std::string& dir) {
    try {
        load_dual_ar_model(dir, at::kCPU, at::kFloat);
    } catch (const ReefError& e) {
        CHECK(e.error().code == ErrorCode::ShapeMismatch);
        return e.what();
    }
    CHECK(false);
    return {};
}

void check_round_trip(const std::string& layout) {
    c10::InferenceMode guard;
    const auto dir = reef_test::temp_dir("demo_t2s_" + layout);
    write_demo_text2semantic(dir.string(), "tiny", layout, kVocab, 5);
    CHECK(std::filesystem::exists(dir / "config.json"));
    CHECK(std::filesystem::exists(dir / (layout == "s2" ? "model.safetensors" : "model.pth")));
    const auto model = load_dual_ar_model(dir.string(), at::kCPU, at::kFloat);
    const DualArConfig& c = model->config();
    CHECK(c.layout == (layout == "s2" ? ModelLayout::S2 : ModelLayout::S1));
    CHECK_EQ(c.vocab_size, kVocab);
    CHECK_EQ(c.dim, 64);
    CHECK_EQ(c.num_codebooks, 10);
    CHECK_EQ(c.codebook_size, 4096);
    if (layout == "s2") CHECK_EQ(c.semantic_begin_id, kVocab - 4098);  // S1: set from the tokenizer at load
    CHECK(c.tie_word_embeddings == (layout == "s2"));
    int64_t expected = 0;
    for (const auto& [k, s] : expected_shapes(c)) {
        int64_t n = 1;
        for (auto d : s) n *= d;
        expected += n;
    }
    CHECK_EQ(model->n_parameters(), expected);

    // The same seed writes the same weights; the model runs and its logits are not degenerate.
    const auto dir2 = reef_test::temp_dir("demo_t2s_again_" + layout);
    write_demo_text2semantic(dir2.string(), "tiny", layout, kVocab, 5);
    const auto again = load_dual_ar_model(dir2.string(), at::kCPU, at::kFloat);
    at::Tensor prompt = at::zeros({1, 11, 6}, at::kLong);
    prompt.select(1, 0).copy_(at::arange(100, 106, at::kLong).view({1, 6}));
    KvCache a = model->make_slow_cache(8), b = again->make_slow_cache(8);
    const at::Tensor la = model->forward_generate(prompt, 0, a, KvMode::ActivePrefix).logits;
    const at::Tensor lb = again->forward_generate(prompt, 0, b, KvMode::ActivePrefix).logits;
    CHECK(at::equal(la, lb));
    CHECK(at::isfinite(la).all().item<bool>());
    const double sd = la.std().item<double>();
    std::printf("  %s tiny logits std %.3f\n", layout.c_str(), sd);
    CHECK(sd > 0.05 && sd < 50);

    // Greedy frames generate from the loaded model.
    Text2SemanticCaches caches;
    GenerateOptions o;
    o.knobs = SampleKnobs{0.0, 0.8, 30};
    o.max_new_tokens = 3;
    o.suppress_im_end = true;
    GenerateStats stats;
    at::Generator gen = make_request_generator(at::kCPU, 1);
    const at::Tensor codes = generate(*model, caches, prompt.squeeze(0), {c.semantic_begin_id, c.semantic_end_id, 5},
                                      o, gen, stats);
    CHECK_EQ(codes.size(0), 10);
    CHECK_EQ(codes.size(1), 3);
}

}  // namespace

TEST_CASE(tiny_s2_round_trips) { check_round_trip("s2"); }
TEST_CASE(tiny_s1_round_trips) { check_round_trip("s1"); }

TEST_CASE(missing_key_and_wrong_shape_name_the_key) {
    const auto dir = reef_test::temp_dir("demo_t2s_broken");
    write_demo_text2semantic(dir.string(), "tiny", "s2", kVocab, 3);
    const std::string file = (dir / "model.safetensors").string();
    TensorMap hf;
    for (auto& [k, v] : load_safetensors(file)) hf[k] = v.clone();
    TensorMap missing = hf;
    missing.erase("text_model.model.layers.1.feed_forward.w2.weight");
    save_safetensors(file, missing);
    std::string msg = expect_shape_error(dir.string());
    CHECK(msg.find("layers.1.feed_forward.w2.weight") != std::string::npos);

    TensorMap wrong = hf;
    wrong["audio_decoder.output.weight"] = at::zeros({4095, 64});
    save_safetensors(file, wrong);
    msg = expect_shape_error(dir.string());
    CHECK(msg.find("fast_output.weight") != std::string::npos);

    // S1 layout: model.pth with a key missing
    const auto d1 = reef_test::temp_dir("demo_t2s_broken_s1");
    write_demo_text2semantic(d1.string(), "tiny", "s1", kVocab, 3);
    TensorMap flat = load_pth((d1 / "model.pth").string());
    flat.erase("output.weight");
    save_pth((d1 / "model.pth").string(), flat);
    msg = expect_shape_error(d1.string());
    CHECK(msg.find("output.weight") != std::string::npos);

    // no weights at all
    std::filesystem::remove(d1 / "model.pth");
    try {
        load_dual_ar_model(d1.string(), at::kCPU, at::kFloat);
        CHECK(false);
    } catch (const ReefError& e) {
        CHECK(e.error().code == ErrorCode::ModelNotFound);
    }
}

TEST_MAIN()
