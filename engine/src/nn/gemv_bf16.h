// Decode multiplies one activation row by every weight matrix, so a bf16 decode step is a chain
// of GEMVs whose speed is the weights' read bandwidth. libtorch's bf16 matmul reaches about 60 % of
// that on an AVX-512 BF16 CPU for one row; this kernel streams each weight row once with the
// CPU's bf16 dot-product instruction (vdpbf16ps: bf16 pairs multiplied, fp32 accumulated).
#pragma once
#include <ATen/ATen.h>

namespace reef {

// The CPU has AVX-512 BF16 (checked once at run time; the rest of the binary stays portable).
bool gemv_bf16_supported();

// y = x·wᵀ (+ b): x [..., K] bf16 holding a single row, w [N, K] bf16 contiguous, K % 32 == 0,
// b [N] bf16 or undefined. fp32 accumulation, one rounding to bf16 at the end (as a bf16 GEMM).
// -> [..., N] bf16. Requires gemv_bf16_supported().
at::Tensor gemv_bf16(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b = {});

// at::linear (x·wᵀ + b), through gemv_bf16 where it applies (CPU, bf16, one row, K % 32 == 0, a CPU that
// has the instruction), so the model calls one function for every projection.
at::Tensor project(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b = {});

}  // namespace reef
