// The decode step's small element-wise ops, each one pass over a few CPU rows. A decode frame of
// s1-mini runs ~200 RMSNorms, ~140 RoPEs and ~70 SiLU·gates on single rows of 128-3072 values;
// through ATen each is 5-15 dispatched ops (dtype round trips, pow, mean, rsqrt, complex views),
// and on two cores those ~15k dispatches per frame cost a third of the frame beside the GEMVs
// that must read the weights (bench/results/cpu/s1mini-bf16-profile.md). Here each is one loop.
//
// Same arithmetic as the ATen formulas they replace: fp32 throughout, rounded to the tensor dtype
// where the original rounds. Only the order of the mean's sum and libm's sqrt differ, so an output
// can differ from ATen's by one unit in the last place of its dtype (tst_row_kernels).
#pragma once
#include <ATen/ATen.h>

namespace reef {

// The shapes these kernels take: a CPU tensor of fp32, bf16 or fp16 whose last dim is contiguous
// and that holds at most kRowKernelMaxRows rows of it (decode: one token). Prefill stays with
// ATen; REEF_ROW_KERNELS=0 sends everything there.
constexpr int64_t kRowKernelMaxRows = 64;
bool row_kernels_apply(const at::Tensor& x);

// x·rsqrt(mean(x²) + eps) in fp32, then × weight:
//  - round_before_weight (llama.py RMSNorm): rounded to x's dtype, multiplied by the weight in that dtype
//  - otherwise (torch.nn.RMSNorm, Qwen3's qk norm): the weight applied in fp32, rounded once
// x: [..., C] (last dim contiguous, rows at any stride), weight [C] -> [..., C] contiguous
at::Tensor rms_norm_rows(const at::Tensor& x, const at::Tensor& weight, double eps, bool round_before_weight);

// rotary_rows takes x and freqs_cis (row_kernels_apply(x), and the shapes below, freqs on the CPU)
bool rotary_rows_apply(const at::Tensor& x, const at::Tensor& freqs_cis);

// Interleaved-pair RoPE in fp32 (llama.py apply_rotary_emb):
//   out[2j] = x[2j]·cos − x[2j+1]·sin,  out[2j+1] = x[2j+1]·cos + x[2j]·sin
// x: [B, S, H, D] with [H, D] packed, freqs_cis: [S, D/2, 2] (cos, sin) -> [B, S, H, D] contiguous
at::Tensor rotary_rows(const at::Tensor& x, const at::Tensor& freqs_cis);

// The SwiGLU gate on merged w1|w3 output: silu(h[..., :I]) · h[..., I:], rounded as ATen rounds
// (silu to the dtype, then the product); the silu itself is ATen's vectorised one.
// h: [..., 2I] -> [..., I] contiguous
at::Tensor silu_mul_rows(const at::Tensor& h);

// Decode's merged qkv row taken apart in one pass (one sequence, one position): q and k through
// the weighted RMSNorm over D where qk-norm weights are given (undefined: none, as fish-speech's
// fast stack), then RoPE; k and v written to row `pos` of the layer's caches; q returned. The same
// kernels and roundings as split + rms_norm_rows + rotary_rows + KvCache::update op by op, which
// dispatch ~40 ops a layer: on two cores the engine thread's share of a frame outside the GEMVs
// was ~10 % (perf, fp32 frame, Zen 5 VM), the other thread idle meanwhile.
// qkv: [1, 1, (H + 2·Hkv)·D] contiguous, freqs_cis: [1, D/2, 2], k_cache / v_cache: [1, Hkv, L, D]
// contiguous, pos < L -> q [1, H, 1, D]
struct QkvHeads {
    int64_t n_head = 0, n_kv_head = 0, head_dim = 0;
};
bool qkv_to_cache_apply(const at::Tensor& qkv, const QkvHeads& heads, const at::Tensor& q_norm,
                        const at::Tensor& freqs_cis, const at::Tensor& k_cache, const at::Tensor& v_cache);
at::Tensor qkv_to_cache(const at::Tensor& qkv, const QkvHeads& heads, const at::Tensor& q_norm,
                        const at::Tensor& k_norm, double eps, const at::Tensor& freqs_cis, const at::Tensor& k_cache,
                        const at::Tensor& v_cache, int64_t pos);
// The same, q written into q (H·D contiguous values of qkv's dtype) instead of a new tensor
void qkv_to_cache_into(const at::Tensor& qkv, const QkvHeads& heads, const at::Tensor& q_norm,
                       const at::Tensor& k_norm, double eps, const at::Tensor& freqs_cis, const at::Tensor& k_cache,
                       const at::Tensor& v_cache, int64_t pos, at::Tensor& q);

}  // namespace reef
