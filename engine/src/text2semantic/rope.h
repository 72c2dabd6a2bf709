// Rotary position embedding of the text2semantic model fish-speech's interleaved-pair (GPT-J / Meta-Llama) convention
// (fish-speech llama.py: precompute_freqs_cis, apply_rotary_emb), NOT HF/NeoX rotate_half.
#pragma once
#include <ATen/ATen.h>

#include "nn/llama_ops.h"

namespace reef::t2s {

// port of llama.py: precompute_freqs_cis
// -> [seq_len, n_elem/2, 2] float32 holding (cos, sin), rounded through bf16 as fish-speech stores
// the table in bf16; callers convert to the run dtype.
at::Tensor precompute_freqs_cis(int64_t seq_len, int64_t n_elem, double base);

using reef::apply_rotary_emb;  // nn/llama_ops.h, shared with the codec

}  // namespace reef::t2s
