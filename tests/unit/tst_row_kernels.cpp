// nn/row_kernels against the ATen formulas they replace (written out here with ATen ops, as
// fish-speech writes them): same values up to one unit in the last place of the dtype, on the
// layouts decode hands them (slices of the merged qkv row, several rows, every dtype); every case
// once on the CPU's best SIMD target, then again on each lower one, forced.
#include <c10/core/InferenceMode.h>

#include "check.h"
#include "nn/row_kernels.h"
#ifdef REEF_HAVE_KERNELS
#include "kernels/cpu_target.h"
#endif

using namespace reef;

namespace {

at::Tensor randn(std::vector<int64_t> sizes, at::ScalarType dtype, uint64_t seed) {
    auto g = at::make_generator<at::CPUGeneratorImpl>(seed);
    return at::randn(sizes, g, at::TensorOptions(at::kFloat)).to(dtype);
}

// How far apart a and b are, in units of the dtype's spacing at |b| (1 = one rounding step).
double max_ulps(const at::Tensor& a, const at::Tensor& b) {
    const at::Tensor af = a.to(at::kFloat), bf = b.to(at::kFloat);
    const double eps = b.scalar_type() == at::kBFloat16 ? 1.0 / 128 : b.scalar_type() == at::kHalf ? 1.0 / 1024 : 1.0 / 8388608;
    const at::Tensor spacing = at::clamp_min(bf.abs(), 1e-6) * eps;
    return ((af - bf).abs() / spacing).max().item<double>();
}

// In fp32 the mean of 1024 squares summed in another order moves the scale by a few ulps; in
// bf16/fp16 that vanishes in the one rounding, except at a tie.
double ulp_tolerance(at::ScalarType dt) { return dt == at::kFloat ? 4.01 : 1.01; }

// Share of elements that differ at all.
double mismatch(const at::Tensor& a, const at::Tensor& b) {
    return a.ne(b).to(at::kFloat).mean().item<double>();
}

at::Tensor llama_rms_norm(const at::Tensor& x, const at::Tensor& w, double eps) {
    const at::Tensor xf = x.to(at::kFloat);
    return (xf * at::rsqrt(xf.pow(2).mean(-1, true) + eps)).to(x.scalar_type()) * w;
}

at::Tensor llama_rotary(const at::Tensor& x, const at::Tensor& f) {
    // x: [B, S, H, D], f: [S, D/2, 2]
    const at::Tensor xs = x.to(at::kFloat).reshape({x.size(0), x.size(1), x.size(2), -1, 2});
    const at::Tensor ff = f.to(at::kFloat).view({1, f.size(0), 1, f.size(1), 2});
    const at::Tensor a = xs.select(-1, 0), b = xs.select(-1, 1), c = ff.select(-1, 0), s = ff.select(-1, 1);
    return at::stack({a * c - b * s, b * c + a * s}, -1).flatten(3).to(x.scalar_type());
}

}  // namespace

TEST_CASE(rms_norm_matches_llama_and_torch_rmsnorm) {
    c10::InferenceMode guard;
    for (at::ScalarType dt : {at::kFloat, at::kBFloat16, at::kHalf}) {
        const at::Tensor x = randn({3, 1, 1024}, dt, 1) * 3, w = randn({1024}, dt, 2);
        const at::Tensor y = rms_norm_rows(x, w, 1e-6, true);
        CHECK(y.scalar_type() == dt && y.sizes() == x.sizes());
        const double ulps = ulp_tolerance(dt);
        CHECK(max_ulps(y, llama_rms_norm(x, w, 1e-6)) <= ulps);
        if (dt != at::kFloat) CHECK(mismatch(y, llama_rms_norm(x, w, 1e-6)) < 0.02);
        // torch.nn.RMSNorm: weight in fp32, one rounding — not the same numbers as llama's in bf16
        const at::Tensor t = rms_norm_rows(x, w, 1e-6, false);
        CHECK(max_ulps(t, at::rms_norm(x, {1024}, w, 1e-6)) <= ulps);
        if (dt == at::kBFloat16) CHECK(mismatch(y, t) > 0.05);  // the two roundings really differ
    }
}

TEST_CASE(rms_norm_reads_heads_out_of_the_merged_qkv_row) {
    c10::InferenceMode guard;
    // qkv row [1, 1, (4 + 2 + 2) · 16], q = the first 4 heads viewed as [1, 1, 4, 16]: strided rows
    const at::Tensor qkv = randn({1, 1, 128}, at::kBFloat16, 3), w = randn({16}, at::kBFloat16, 4);
    const at::Tensor q = qkv.narrow(-1, 0, 64).view({1, 1, 4, 16});
    const at::Tensor k = qkv.narrow(-1, 64, 32).view({1, 1, 2, 16});
    CHECK(max_ulps(rms_norm_rows(q, w, 1e-6, false), at::rms_norm(q.contiguous(), {16}, w, 1e-6)) <= 1.01);
    CHECK(max_ulps(rms_norm_rows(k, w, 1e-6, false), at::rms_norm(k.contiguous(), {16}, w, 1e-6)) <= 1.01);
    // rows at a stride that is not one block: [2, 3, C] sliced on the middle dim
    const at::Tensor x = randn({2, 5, 32}, at::kFloat, 5).narrow(1, 1, 3);
    const at::Tensor wf = randn({32}, at::kFloat, 6);
    CHECK(max_ulps(rms_norm_rows(x, wf, 1e-5, true), llama_rms_norm(x, wf, 1e-5)) <= ulp_tolerance(at::kFloat));
}

TEST_CASE(rotary_matches_the_pairwise_formula) {
    c10::InferenceMode guard;
    for (at::ScalarType dt : {at::kFloat, at::kBFloat16}) {
        // two positions, freqs as the model holds them (fp32 table or converted to the run dtype)
        const at::Tensor f = randn({2, 8, 2}, at::kFloat, 7);
        const at::Tensor x = randn({1, 2, 3, 16}, dt, 8);
        for (const at::Tensor& table : {f, f.to(dt)})
            CHECK(max_ulps(rotary_rows(x, table), llama_rotary(x, table)) <= 1.01);
        // a strided q out of the merged row, one position
        const at::Tensor qkv = randn({1, 1, 80}, dt, 9);
        const at::Tensor q = qkv.narrow(-1, 0, 48).view({1, 1, 3, 16});
        const at::Tensor y = rotary_rows(q, f.narrow(0, 1, 1));
        CHECK(y.is_contiguous());
        CHECK(max_ulps(y, llama_rotary(q.contiguous(), f.narrow(0, 1, 1))) <= 1.01);
    }
    // position 0 (cos 1, sin 0) is the identity
    const at::Tensor id = at::stack({at::ones({1, 8}), at::zeros({1, 8})}, -1);
    const at::Tensor x = randn({1, 1, 2, 16}, at::kBFloat16, 10);
    CHECK(rotary_rows(x, id).equal(x));
}

TEST_CASE(silu_mul_matches_aten) {
    c10::InferenceMode guard;
    for (at::ScalarType dt : {at::kFloat, at::kBFloat16}) {
        const at::Tensor h = randn({1, 2, 96}, dt, 11) * 4;
        const auto parts = h.chunk(2, -1);
        const at::Tensor ref = at::silu(parts[0]) * parts[1];
        const at::Tensor y = silu_mul_rows(h);
        CHECK(y.sizes() == ref.sizes());
        CHECK(max_ulps(y, ref) <= 1.01);
    }
}

TEST_CASE(only_a_few_cpu_rows_take_the_kernels) {
    CHECK(row_kernels_apply(at::zeros({1, 1, 64}, at::kBFloat16)));
    CHECK(row_kernels_apply(at::zeros({kRowKernelMaxRows, 8})));
    CHECK(!row_kernels_apply(at::zeros({kRowKernelMaxRows + 1, 8})));  // prefill: ATen
    CHECK(!row_kernels_apply(at::zeros({4, 8}, at::kDouble)));
    CHECK(!row_kernels_apply(at::zeros({8, 4}).t()));                   // last dim not contiguous
    CHECK_THROWS(rms_norm_rows(at::zeros({2, 8}), at::zeros({4}), 1e-6, true));
    // RoPE: only x [B, S, H, D] with a table of S positions; anything else stays with ATen
    CHECK(rotary_rows_apply(at::zeros({1, 2, 3, 8}), at::zeros({2, 4, 2})));
    CHECK(!rotary_rows_apply(at::zeros({1, 2, 3, 8}), at::zeros({3, 4, 2})));
    CHECK(!rotary_rows_apply(at::zeros({2, 3, 8}), at::zeros({2, 4, 2})));
    CHECK_THROWS(rotary_rows(at::zeros({1, 2, 3, 8}), at::zeros({1, 4, 2})));
}

TEST_CASE(qkv_to_cache_is_the_op_by_op_decode_path) {
    c10::InferenceMode guard;
#ifndef REEF_HAVE_KERNELS
    return reef_test::skip("built without the SIMD kernels");
#endif
    // H = 4 query heads, Hkv = 2, D = 16; a cache of 6 rows written at row 3
    const QkvHeads heads{4, 2, 16};
    for (at::ScalarType dt : {at::kFloat, at::kBFloat16}) {
        for (bool qk_norm : {false, true}) {
            const at::Tensor qkv = randn({1, 1, 128}, dt, 12) * 2;
            const at::Tensor qn = qk_norm ? randn({16}, dt, 13) : at::Tensor();
            const at::Tensor kn = qk_norm ? randn({16}, dt, 14) : at::Tensor();
            const at::Tensor f = randn({6, 8, 2}, at::kFloat, 15).narrow(0, 3, 1);  // position 3's row of the table
            const at::Tensor kc = at::zeros({1, 2, 6, 16}, dt), vc = at::zeros({1, 2, 6, 16}, dt);
            CHECK(qkv_to_cache_apply(qkv, heads, qn, f, kc, vc));
            const at::Tensor q = qkv_to_cache(qkv, heads, qn, kn, 1e-6, f, kc, vc, 3);
            // what decode ran op by op: split, qk norm (torch.nn.RMSNorm), RoPE, transpose, cache write
            at::Tensor q_ref = qkv.narrow(-1, 0, 64).view({1, 1, 4, 16});
            at::Tensor k_ref = qkv.narrow(-1, 64, 32).view({1, 1, 2, 16});
            const at::Tensor v_ref = qkv.narrow(-1, 96, 32).view({1, 1, 2, 16}).transpose(1, 2);
            if (qk_norm) q_ref = rms_norm_rows(q_ref, qn, 1e-6, false), k_ref = rms_norm_rows(k_ref, kn, 1e-6, false);
            q_ref = rotary_rows(q_ref, f).transpose(1, 2);
            k_ref = rotary_rows(k_ref, f).transpose(1, 2);
            CHECK(q.sizes() == q_ref.sizes() && q.equal(q_ref));
            CHECK(kc.narrow(2, 3, 1).equal(k_ref) && vc.narrow(2, 3, 1).equal(v_ref));
            // no other row
            CHECK(kc.narrow(2, 0, 3).eq(0).all().item<bool>() && vc.narrow(2, 4, 2).eq(0).all().item<bool>());
            // and the formulas fish-speech writes (fp32: a few ulps of the norm's sum order)
            if (dt == at::kFloat) {
                at::Tensor q_formula = qkv.narrow(-1, 0, 64).view({1, 1, 4, 16});
                if (qk_norm) q_formula = at::rms_norm(q_formula, {16}, qn, 1e-6);
                CHECK(max_ulps(q, llama_rotary(q_formula, f).transpose(1, 2)) <= 16);
            }
        }
    }
    // what it does not take: the static step's device rows, prefill, a cache of another dtype
    const at::Tensor kc = at::zeros({1, 2, 6, 16}), f = at::zeros({1, 8, 2});
    CHECK(!qkv_to_cache_apply(at::zeros({1, 2, 128}), heads, {}, f, kc, kc));                // two positions
    CHECK(!qkv_to_cache_apply(at::zeros({1, 1, 128}), heads, {}, f, kc.to(at::kBFloat16), kc));
    CHECK(!qkv_to_cache_apply(at::zeros({1, 1, 120}), heads, {}, f, kc, kc));               // wrong width
    CHECK(!qkv_to_cache_apply(at::zeros({1, 1, 128}, at::kHalf), heads, {}, f, kc.to(at::kHalf), kc.to(at::kHalf)));
    CHECK_THROWS(qkv_to_cache(at::zeros({1, 1, 128}), heads, {}, {}, 1e-6, f, kc, kc, 6));  // row 6 of 6
}

TEST_CASE(every_case_again_on_each_lower_target) {
#ifdef REEF_HAVE_KERNELS
    const std::vector<std::string> targets = reef::kernels::runnable_targets();
    if (targets.size() < 2) return reef_test::skip("this CPU runs one SIMD target only");
    for (size_t i = 1; i < targets.size(); ++i) {
        CHECK(reef::kernels::force_target(targets[i]).empty());
        std::printf("target %s\n", targets[i].c_str());
        rms_norm_matches_llama_and_torch_rmsnorm();
        rms_norm_reads_heads_out_of_the_merged_qkv_row();
        rotary_matches_the_pairwise_formula();
        silu_mul_matches_aten();
        qkv_to_cache_is_the_op_by_op_decode_path();
    }
    CHECK(reef::kernels::force_target("best").empty());
#else
    reef_test::skip("built without the SIMD kernels");
#endif
}

TEST_MAIN()
