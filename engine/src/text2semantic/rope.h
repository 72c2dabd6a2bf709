// Rotary position embedding of the text2semantic model (namespace t2s: the codec has its own), fish-speech's interleaved-pair (GPT-J / Meta-Llama) convention
// (fish-speech-spec §2.6), NOT HF/NeoX rotate_half.
#pragma once
#include <ATen/ATen.h>

namespace reef::t2s {

// port of llama.py: precompute_freqs_cis
// -> [seq_len, n_elem/2, 2] float32 holding (cos, sin), rounded through bf16 as fish-speech stores
// the table in bf16; callers convert to the run dtype.
at::Tensor precompute_freqs_cis(int64_t seq_len, int64_t n_elem, double base);

// port of llama.py: apply_rotary_emb
// x: [B, S, H, D], freqs_cis: [S, D/2, 2] -> [B, S, H, D] in x's dtype; computed in fp32:
//   out[2j] = x[2j]·cos − x[2j+1]·sin,  out[2j+1] = x[2j+1]·cos + x[2j]·sin
at::Tensor apply_rotary_emb(const at::Tensor& x, const at::Tensor& freqs_cis);

}  // namespace reef::t2s
