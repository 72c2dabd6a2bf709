// Small dual-AR models built in memory for the text2semantic tests: a config shaped like the
// real ones (GQA, qk-norm on the slow stack only, tied or untied head) but a few hundred vocab
// rows, so every test binary runs in seconds.
#pragma once
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "checkpoint/verify.h"
#include "text2semantic/dual_ar_model.h"
#include "text2semantic/generator.h"
#include "text2semantic/model_weights.h"

namespace t2s_test {

constexpr int64_t kImEnd = 5;

inline reef::DualArConfig small_config(reef::ModelLayout layout) {
    reef::DualArConfig c;
    c.layout = layout;
    c.model_type = layout == reef::ModelLayout::S2 ? "fish_qwen3_omni" : "dual_ar";
    c.vocab_size = 400;
    c.n_layer = 2, c.n_head = 4, c.n_local_heads = 2, c.head_dim = 8, c.dim = 32, c.intermediate_size = 64;
    c.rope_base = 1e6, c.norm_eps = 1e-6, c.max_seq_len = 256;
    c.tie_word_embeddings = layout == reef::ModelLayout::S2;
    c.attention_qk_norm = true;
    c.codebook_size = 128, c.num_codebooks = 4;
    c.semantic_begin_id = 200, c.semantic_end_id = 327;
    c.scale_codebook_embeddings = true;
    c.norm_fastlayer_input = layout == reef::ModelLayout::S2;
    c.n_fast_layer = 2, c.fast_dim = 32, c.fast_n_head = 4, c.fast_n_local_heads = 2, c.fast_head_dim = 8;
    c.fast_intermediate_size = 64;
    c.fast_attention_qk_norm = false;
    return c;
}

// make_random_weights with the norm scales perturbed: all-ones norms would hide a missing × weight.
inline reef::TensorMap random_weights(const reef::DualArConfig& c, uint64_t seed) {
    reef::TensorMap w = reef::make_random_weights(reef::expected_shapes(c), seed);
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed + 1);
    for (auto& [k, t] : w)
        if (k.find("norm") != std::string::npos) t = 1.0 + 0.2 * at::randn(t.sizes(), gen, at::kFloat);
    return w;
}

inline std::unique_ptr<reef::DualArModel> small_model(reef::ModelLayout layout, uint64_t seed = 7,
                                                      at::ScalarType dtype = at::kFloat) {
    const auto c = small_config(layout);
    return reef::make_dual_ar_model(c, random_weights(c, seed), at::kCPU, dtype);
}

inline reef::TokenIds token_ids(const reef::DualArModel& m) {
    return {m.config().semantic_begin_id, m.config().semantic_end_id, kImEnd};
}

// A prompt [N+1, T]: text tokens, then `n_vq` semantic frames with codes in rows 1..N.
inline at::Tensor make_prompt(const reef::DualArConfig& c, int64_t n_text, int64_t n_vq, uint64_t seed) {
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed);
    const int64_t T = n_text + n_vq;
    at::Tensor p = at::zeros({c.num_codebooks + 1, T}, at::kLong);
    p.select(0, 0).narrow(0, 0, n_text).copy_(at::randint(10, 190, {n_text}, gen, at::kLong));
    if (n_vq > 0) {
        const at::Tensor codes = at::randint(0, c.codebook_size, {c.num_codebooks, n_vq}, gen, at::kLong);
        p.narrow(0, 1, c.num_codebooks).narrow(1, n_text, n_vq).copy_(codes);
        p.select(0, 0).narrow(0, n_text, n_vq).copy_(codes.select(0, 0) + c.semantic_begin_id);
    }
    return p;
}

// The largest |Δ| between two runs' captured logits, frame by frame; infinity when they captured
// different numbers of frames.
inline double worst_logit_diff(const reef::GenerateStats& a, const reef::GenerateStats& b) {
    if (a.captured_logits.size() != b.captured_logits.size()) return INFINITY;
    double worst = 0;
    for (size_t i = 0; i < a.captured_logits.size(); ++i)
        worst = std::max(worst, (a.captured_logits[i] - b.captured_logits[i]).abs().max().item<double>());
    return worst;
}

}  // namespace t2s_test
