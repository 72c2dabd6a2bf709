// A projection's weights as the model holds them: a bf16/fp32/fp16 matrix as stored, or weight-only
// int8 (issue #44) as fish-speech's tools/llama/quantize.py writes it, WeightOnlyInt8Linear:
// int8 [N, K] with one scale per output row, applied as linear(x, w)·scales. Every projection of
// the text2semantic model goes through project(x, Linear), so the format is decided in one place.
#pragma once
#include <ATen/ATen.h>

namespace reef {

struct Linear {
    at::Tensor weight;  // [N, K]: the model's float dtype, or int8
    at::Tensor scales;  // [N] fp32 (read from bf16: exact), defined iff weight is int8
    at::Tensor bias;    // [N] in the model's dtype, or undefined

    bool int8() const { return scales.defined(); }
    bool defined() const { return weight.defined(); }
    // what a decode step reads of it: weight, scales and bias
    int64_t nbytes() const;
};

// Checks the pair: an int8 weight needs [N] scales, a float one none. Throws ReefError(ShapeMismatch)
// naming `what` (the checkpoint key).
Linear make_linear(at::Tensor weight, at::Tensor scales, at::Tensor bias, const std::string& what);

// x [..., K] -> [..., N] in x's dtype. Float weights: project(x, w, b) (nn/gemv.h). int8 on the CPU
// (a few rows: decode) through the int8 GEMV kernel, one rounding at the end: fp32 products for an
// fp32 x, an int16-quantized x for bf16/fp16 (nn/gemv.h gemv_int8);
// otherwise (prefill, CUDA, a GemvPause) fish-speech's own arithmetic: linear(x, w.to(x.dtype))·s.
at::Tensor project(const at::Tensor& x, const Linear& l);
// Batched decode x [M, 1, K] -> [M, 1, N], each row bit-identical to project() on that row alone.
at::Tensor project_rows(const at::Tensor& x, const Linear& l);

// The matrix in `dtype`, int8 dequantized (w·s rounded once): for consumers without int8 paths.
at::Tensor dequantized(const Linear& l, at::ScalarType dtype);

}  // namespace reef
