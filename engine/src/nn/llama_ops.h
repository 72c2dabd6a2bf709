// The llama.py building blocks that fish-speech's text2semantic model and its codec transformer
// (modded_dac.py) share: interleaved-pair RoPE, RMSNorm and the SwiGLU gate. One implementation
// serves both; a few CPU rows (decode) go through nn/row_kernels, everything else through ATen.
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

// torch.nn.RMSNorm (Qwen3's qk norm): the weight applied in fp32 before the one rounding.
// x: [..., C] -> [..., C]
at::Tensor rms_norm_weighted(const at::Tensor& x, const at::Tensor& weight, double eps);

// llama.py FeedForward's gate on the merged w1|w3 output: silu(h[..., :I]) · h[..., I:].
// h: [..., 2I] -> [..., I]
at::Tensor silu_mul(const at::Tensor& h);

}  // namespace reef
