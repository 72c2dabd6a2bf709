// The two llama.py building blocks that fish-speech's text2semantic model and its codec
// transformer (modded_dac.py) share: interleaved-pair RoPE and RMSNorm. One implementation serves both.
#pragma once
#include <ATen/ATen.h>

namespace reef {

// port of llama.py: apply_rotary_emb — fish-speech's interleaved-pair (GPT-J / Meta-Llama)
// convention, NOT HF/NeoX rotate_half. Computed in fp32, returned in x's dtype:
//   out[2j] = x[2j]·cos − x[2j+1]·sin,  out[2j+1] = x[2j+1]·cos + x[2j]·sin
// x: [B, S, H, D], freqs_cis: [S, D/2, 2] (cos, sin) -> [B, S, H, D]
at::Tensor apply_rotary_emb(const at::Tensor& x, const at::Tensor& freqs_cis);

// port of llama.py: RMSNorm.forward — x·rsqrt(mean(x²) + eps) in fp32, cast back, then × weight.
// x: [..., C] -> [..., C]
at::Tensor rms_norm(const at::Tensor& x, const at::Tensor& weight, double eps);

}  // namespace reef
