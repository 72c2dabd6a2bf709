// The dual-AR model: RoPE convention, RMSNorm, KV-cached decode == full recompute (S2 and S1
// layouts, slow and fast stacks), ActivePrefix == Full attention, embedding rules, load errors.
#include <ATen/ATen.h>

#include <cmath>

#include "check.h"
#include "t2s_fixtures.h"
#include "text2semantic/layers.h"
#include "text2semantic/rope.h"

using namespace reef;
using namespace t2s_test;
using reef::t2s::apply_rotary_emb;
using reef::t2s::precompute_freqs_cis;
using reef::t2s::rms_norm;

namespace {

double max_abs_diff(const at::Tensor& a, const at::Tensor& b) {
    return (a.to(at::kDouble) - b.to(at::kDouble)).abs().max().item<double>();
}

// Logits of the last position after a fresh prefill over all of `seq` ([N+1, L]).
ForwardResult full_forward(const DualArModel& m, const at::Tensor& seq, KvMode mode) {
    KvCache cache = m.make_slow_cache(seq.size(1));
    return m.forward_generate(seq.unsqueeze(0), 0, cache, mode);
}

void check_cached_equals_recompute(ModelLayout layout, KvMode mode) {
    c10::InferenceMode guard;
    auto m = small_model(layout);
    const auto& c = m->config();
    const at::Tensor seq = make_prompt(c, 6, 8, 11);  // 14 positions: text then semantic frames
    const int64_t T = 5;
    KvCache cache = m->make_slow_cache(seq.size(1) + 3);  // capacity larger than used
    ForwardResult r = m->forward_generate(seq.narrow(1, 0, T).unsqueeze(0), 0, cache, mode);
    double worst = max_abs_diff(r.logits, full_forward(*m, seq.narrow(1, 0, T), mode).logits);
    for (int64_t t = T; t < seq.size(1); ++t) {
        r = m->forward_generate(seq.narrow(1, t, 1).unsqueeze(0), t, cache, mode);
        const ForwardResult full = full_forward(*m, seq.narrow(1, 0, t + 1), mode);
        worst = std::max(worst, max_abs_diff(r.logits, full.logits));
        worst = std::max(worst, max_abs_diff(r.hidden_states, full.hidden_states));
    }
    CHECK(worst < 1e-4);
    std::printf("  %s %s: max |cached - recompute| = %.3g\n", layout == ModelLayout::S2 ? "s2" : "s1",
                mode == KvMode::Full ? "full" : "active", worst);
}

}  // namespace

TEST_CASE(rope_is_interleaved_pairs) {
    const at::Tensor f = precompute_freqs_cis(5, 4, 100.0);  // [5, 2, 2]
    CHECK_EQ(f.size(0), 5);
    // position 3, pair 1: θ = 3 / 100^(2/4) = 0.3; bf16-rounded cos/sin
    const double th = 3.0 / std::pow(100.0, 0.5);
    const float cos_bf = at::scalar_tensor(std::cos(th), at::kFloat).to(at::kBFloat16).item<float>();
    const float sin_bf = at::scalar_tensor(std::sin(th), at::kFloat).to(at::kBFloat16).item<float>();
    CHECK_NEAR(f[3][1][0].item<float>(), cos_bf, 0);
    CHECK_NEAR(f[3][1][1].item<float>(), sin_bf, 0);
    CHECK(std::fabs(cos_bf - std::cos(th)) > 0);  // the table really is rounded

    // x [1, S=1, H=1, D=4] at position 3: pairs (x0, x1), (x2, x3)
    const at::Tensor x = at::tensor(std::vector<float>{1, 2, 3, 4}).view({1, 1, 1, 4});
    const at::Tensor y = apply_rotary_emb(x, f.narrow(0, 3, 1)).view({4});
    const float c0 = f[3][0][0].item<float>(), s0 = f[3][0][1].item<float>();
    CHECK_NEAR(y[0].item<float>(), 1 * c0 - 2 * s0, 1e-6);
    CHECK_NEAR(y[1].item<float>(), 2 * c0 + 1 * s0, 1e-6);
    CHECK_NEAR(y[2].item<float>(), 3 * cos_bf - 4 * sin_bf, 1e-6);
    CHECK_NEAR(y[3].item<float>(), 4 * cos_bf + 3 * sin_bf, 1e-6);
    // position 0 is the identity
    CHECK(max_abs_diff(apply_rotary_emb(x, f.narrow(0, 0, 1)), x) == 0);
}

TEST_CASE(rms_norm_matches_the_formula) {
    const at::Tensor x = at::tensor(std::vector<float>{1, -2, 3, 0.5f}).view({1, 4});
    const at::Tensor w = at::tensor(std::vector<float>{1, 2, 0.5f, 1});
    const at::Tensor y = rms_norm(x, w, 1e-6);
    const double rms = std::sqrt((1 + 4 + 9 + 0.25) / 4 + 1e-6);
    CHECK_NEAR(y[0][1].item<float>(), -2 / rms * 2, 1e-5);
    CHECK_NEAR(y[0][2].item<float>(), 3 / rms * 0.5, 1e-5);
}

TEST_CASE(kv_cached_decode_equals_full_recompute_s2) {
    check_cached_equals_recompute(ModelLayout::S2, KvMode::ActivePrefix);
    check_cached_equals_recompute(ModelLayout::S2, KvMode::Full);
}

TEST_CASE(kv_cached_decode_equals_full_recompute_s1) {
    check_cached_equals_recompute(ModelLayout::S1, KvMode::ActivePrefix);
    check_cached_equals_recompute(ModelLayout::S1, KvMode::Full);
}

TEST_CASE(project_in_and_bias_paths) {
    // fast_dim != dim (fast_project_in with bias), qkv / o biases, MQA in the fast stack.
    c10::InferenceMode guard;
    DualArConfig c = small_config(ModelLayout::S1);
    c.attention_qkv_bias = c.attention_o_bias = c.fast_attention_qkv_bias = c.fast_attention_o_bias = true;
    c.fast_dim = 16, c.fast_n_head = 2, c.fast_n_local_heads = 1, c.fast_head_dim = 8, c.fast_intermediate_size = 32;
    const ExpectedShapes shapes = expected_shapes(c);
    CHECK((shapes.at("fast_project_in.weight") == std::vector<int64_t>{16, 32}));
    CHECK(shapes.count("layers.0.attention.wqkv.bias") == 1 && shapes.count("fast_layers.0.attention.wo.bias") == 1);
    TensorMap w = random_weights(c, 4);
    for (auto& [k, t] : w)
        if (k.find("bias") != std::string::npos) t = 0.1 * at::randn(t.sizes());
    auto m = make_dual_ar_model(c, w, at::kCPU, at::kFloat);
    const at::Tensor seq = make_prompt(c, 5, 3, 12);
    KvCache cache = m->make_slow_cache(16);
    ForwardResult r = m->forward_generate(seq.narrow(1, 0, 6).unsqueeze(0), 0, cache, KvMode::ActivePrefix);
    for (int64_t t = 6; t < seq.size(1); ++t) r = m->forward_generate(seq.narrow(1, t, 1).unsqueeze(0), t, cache, KvMode::ActivePrefix);
    const ForwardResult full = full_forward(*m, seq, KvMode::Full);
    CHECK_EQ(r.hidden_states.size(2), 16);
    CHECK(max_abs_diff(r.logits, full.logits) < 1e-4);
    CHECK(max_abs_diff(r.hidden_states, full.hidden_states) < 1e-4);
    KvCache fast = m->make_fast_cache();
    CHECK_EQ(m->forward_generate_fast(r.hidden_states, 0, fast, KvMode::ActivePrefix).size(2), c.codebook_size);
}

// The roofline's weight bytes per decode frame, counted from the config's dimensions (not from
// the model's tensors): slow layers once, `rows` head rows, the fast stack once per codebook;
// and one fast-stack pass, the roofline's re-read part.
TEST_CASE(decode_weight_bytes_match_the_config_dimensions) {
    for (bool project_in : {false, true}) {
        DualArConfig c = small_config(ModelLayout::S1);
        c.attention_qkv_bias = project_in;
        if (project_in) c.fast_dim = 16, c.fast_n_head = 2, c.fast_n_local_heads = 1, c.fast_head_dim = 8;
        auto m = make_dual_ar_model(c, random_weights(c, 4), at::kCPU, at::kBFloat16);
        const int64_t C = c.dim, D = c.head_dim, Cf = c.fast_dim, Df = c.fast_head_dim, N = c.num_codebooks;
        const int64_t qkv = (c.n_head + 2 * c.n_local_heads) * D;
        const int64_t slow_layer = qkv * C + (c.attention_qkv_bias ? qkv : 0) + C * c.n_head * D + 2 * D /* qk norm */ +
                                   2 * C + 3 * c.intermediate_size * C;
        const int64_t fast_layer = (c.fast_n_head + 2 * c.fast_n_local_heads) * Df * Cf + Cf * c.fast_n_head * Df +
                                   2 * Cf + 3 * c.fast_intermediate_size * Cf;
        const int64_t rows = 129;
        const int64_t elems = c.n_layer * slow_layer + C /* norm */ + rows * C + (1 + N) * C +
                              (project_in ? Cf * C + Cf : 0) +
                              N * (c.n_fast_layer * fast_layer + Cf + c.codebook_size * Cf + Cf);
        CHECK_EQ(m->decode_weight_bytes(rows), 2 * elems);
        CHECK_EQ(m->fast_pass_bytes(), 2 * (c.n_fast_layer * fast_layer + Cf + c.codebook_size * Cf + Cf));
    }
}

TEST_CASE(active_prefix_equals_full_mode_per_step) {
    c10::InferenceMode guard;
    auto m = small_model(ModelLayout::S2);
    const at::Tensor seq = make_prompt(m->config(), 5, 6, 3);
    KvCache a = m->make_slow_cache(64), f = m->make_slow_cache(64);
    double worst = max_abs_diff(m->forward_generate(seq.narrow(1, 0, 4).unsqueeze(0), 0, a, KvMode::ActivePrefix).logits,
                                m->forward_generate(seq.narrow(1, 0, 4).unsqueeze(0), 0, f, KvMode::Full).logits);
    for (int64_t t = 4; t < seq.size(1); ++t) {
        const at::Tensor x = seq.narrow(1, t, 1).unsqueeze(0);
        worst = std::max(worst, max_abs_diff(m->forward_generate(x, t, a, KvMode::ActivePrefix).logits,
                                             m->forward_generate(x, t, f, KvMode::Full).logits));
    }
    CHECK(worst < 1e-5);
}

TEST_CASE(fast_transformer_cached_equals_recompute) {
    // Position k of the fast stack after steps 0..k equals a fresh cache that sees the same inputs.
    c10::InferenceMode guard;
    auto m = small_model(ModelLayout::S2);
    const auto& c = m->config();
    const at::Tensor h0 = at::randn({1, 1, c.fast_dim});
    std::vector<at::Tensor> inputs{h0};
    for (int64_t k = 1; k < c.num_codebooks; ++k) inputs.push_back(m->embed_fast(at::full({1}, 3 * k, at::kLong)));
    KvCache active = m->make_fast_cache(), full = m->make_fast_cache();
    full.update(0, 0, at::full({1, c.fast_n_local_heads, c.num_codebooks, c.fast_head_dim}, 7.0),
                at::full({1, c.fast_n_local_heads, c.num_codebooks, c.fast_head_dim}, -7.0));  // stale rows
    double worst = 0;
    for (int64_t k = 0; k < c.num_codebooks; ++k) {
        const at::Tensor la = m->forward_generate_fast(inputs[size_t(k)], k, active, KvMode::ActivePrefix);
        const at::Tensor lf = m->forward_generate_fast(inputs[size_t(k)], k, full, KvMode::Full);
        worst = std::max(worst, max_abs_diff(la, lf));
        CHECK_EQ(la.size(2), c.codebook_size);
    }
    CHECK(worst < 1e-5);
}

TEST_CASE(semantic_positions_are_scaled_and_text_positions_ignore_codes) {
    c10::InferenceMode guard;
    auto m = small_model(ModelLayout::S2);
    const auto& c = m->config();
    // A text position with non-zero code rows gives the same logits as with zero rows.
    at::Tensor p = make_prompt(c, 4, 0, 5);
    at::Tensor q = p.clone();
    q.narrow(0, 1, c.num_codebooks).fill_(17);
    CHECK(max_abs_diff(full_forward(*m, p, KvMode::ActivePrefix).logits,
                       full_forward(*m, q, KvMode::ActivePrefix).logits) == 0);
    // At a semantic position the codes matter.
    at::Tensor s = make_prompt(c, 3, 2, 6);
    at::Tensor s2 = s.clone();
    s2[2][4] = (s2[2][4].item<int64_t>() + 1) % c.codebook_size;
    CHECK(max_abs_diff(full_forward(*m, s, KvMode::ActivePrefix).logits,
                       full_forward(*m, s2, KvMode::ActivePrefix).logits) > 1e-6);
}

TEST_CASE(s1_hidden_is_unnormed_s2_hidden_is_normed) {
    c10::InferenceMode guard;
    auto s2 = small_model(ModelLayout::S2), s1 = small_model(ModelLayout::S1);
    const at::Tensor p = make_prompt(s2->config(), 5, 2, 9);
    const ForwardResult a = full_forward(*s2, p, KvMode::ActivePrefix);
    const ForwardResult b = full_forward(*s1, p, KvMode::ActivePrefix);
    CHECK_EQ(a.logits.size(2), s2->config().vocab_size);
    CHECK_EQ(b.logits.size(2), s1->config().vocab_size);
    // normed hidden: rms ≈ the mean of the perturbed norm weights, not the residual stream's scale
    const double rms_normed = a.hidden_states.pow(2).mean().sqrt().item<double>();
    const double rms_raw = b.hidden_states.pow(2).mean().sqrt().item<double>();
    CHECK(std::fabs(rms_normed - rms_raw) > 1e-3);
}

TEST_CASE(missing_or_misshaped_weights_name_the_key) {
    const auto c = small_config(ModelLayout::S2);
    TensorMap w = random_weights(c, 1);
    w.erase("layers.1.attention.k_norm.weight");
    try {
        make_dual_ar_model(c, w, at::kCPU, at::kFloat);
        CHECK(false);
    } catch (const ReefError& e) {
        CHECK(e.error().code == ErrorCode::ShapeMismatch);
        CHECK(std::string(e.what()).find("layers.1.attention.k_norm.weight") != std::string::npos);
    }
    w = random_weights(c, 1);
    w["fast_output.weight"] = at::zeros({c.codebook_size + 1, c.fast_dim});
    try {
        make_dual_ar_model(c, w, at::kCPU, at::kFloat);
        CHECK(false);
    } catch (const ReefError& e) {
        CHECK(e.error().code == ErrorCode::ShapeMismatch);
        CHECK(std::string(e.what()).find("fast_output.weight") != std::string::npos);
    }
}

TEST_CASE(bf16_model_runs_and_stays_close) {
    c10::InferenceMode guard;
    auto f32 = small_model(ModelLayout::S2, 7, at::kFloat), bf = small_model(ModelLayout::S2, 7, at::kBFloat16);
    const at::Tensor p = make_prompt(f32->config(), 6, 3, 2);
    const at::Tensor a = full_forward(*f32, p, KvMode::ActivePrefix).logits;
    const at::Tensor b = full_forward(*bf, p, KvMode::ActivePrefix).logits;
    CHECK(b.scalar_type() == at::kBFloat16);
    CHECK(at::isfinite(b).all().item<bool>());
    CHECK(max_abs_diff(a, b) < 0.15 * a.abs().max().item<double>() + 0.05);
}

TEST_MAIN()
