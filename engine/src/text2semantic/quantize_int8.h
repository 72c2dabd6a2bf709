// port of tools/llama/quantize.py: dynamically_quantize_per_channel(x, -128, 127, torch.int8), the
// symmetric per-output-row int8 quantization of one linear weight.
#pragma once
#include <ATen/ATen.h>

namespace reef {

struct Int8Weight {
    at::Tensor weight;  // [N, K] int8
    at::Tensor scales;  // [N] in `scale_dtype` (quantize.py: the model's, bf16)
};

// w [N, K] (as quantize.py sees it: the bf16 model's weight, .float()) -> int8 rows and their
// scales: scale = max(|min|, |max|) / 127.5 clamped to fp32's eps, q = clamp(round(w / scale)).
Int8Weight quantize_per_channel_int8(const at::Tensor& w, at::ScalarType scale_dtype = at::kBFloat16);

}  // namespace reef
