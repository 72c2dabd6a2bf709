// port of tools/llama/quantize.py: group_quantize_tensor(w, n_bit=4, groupsize), the group-wise
// affine int4 quantization of one linear weight, in Reef's packed layout (kernels/gemv_int4.h)
// instead of _convert_weight_to_int4pack's CUDA tiles.
#pragma once
#include <ATen/ATen.h>

namespace reef {

struct Int4Weight {
    at::Tensor weight;  // [N, K/2] uint8: weight 2j in byte j's low nibble, 2j+1 in its high one
    at::Tensor scales;  // [N, K/group] bf16
    at::Tensor zeros;   // [N, K/group] bf16: w ≈ (q − 8)·scale + zero
};

// w [N, K] -> int4, quantize.py's arithmetic on the bf16 weight, in bf16 as it runs: per group,
// scale = max(max − min, 1e-6) / 15, zero = min + 8·scale, q = clamp(round((w − (zero − 8·scale)) /
// scale), 0, 15). Throws ReefError(InvalidArgument) when `group` is not 32/64/128/256 or does not
// divide K, and ReefError(CorruptModel) for a weight that is not finite (quantize.py asserts).
Int4Weight quantize_group_int4(const at::Tensor& w, int64_t group);

}  // namespace reef
