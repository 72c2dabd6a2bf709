// Decode multiplies one activation row by every weight matrix, so a decode step is a chain of
// GEMVs whose speed is the weights' read bandwidth. libtorch's one-row bf16 matmul reaches about
// half of that on an AVX-512 BF16 CPU; this kernel streams each weight row once with the CPU's bf16
// dot product (vdpbf16ps: bf16 pairs multiplied, fp32 accumulated), four rows per pass with the
// next four prefetched, one block of rows per libtorch intra-op thread. fp32 weights go through
// the same row loop with fused multiply-adds (libtorch's one-row fp32 linear streamed at ~85 % of
// the probe's bandwidth here).
#pragma once
#include <ATen/ATen.h>

namespace reef {

// dtype is bf16 or fp32, the CPU has AVX-512 BF16 (checked once at run time; the rest of the
// binary stays portable) and REEF_GEMV=0 is not set.
bool gemv_supported(at::ScalarType dtype);

// y = x·wᵀ (+ b): x [..., K] holding a single row, w [N, K] contiguous, b [N] or undefined, all
// bf16 or all fp32, K a multiple of 32. fp32 accumulation; bf16 rounded once at the end (as a bf16
// GEMM). -> [..., N]. Requires gemv_supported(dtype).
at::Tensor gemv(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b = {});

// at::linear (x·wᵀ + b), through gemv where it applies (CPU, one bf16/fp32 row, K % 32 == 0),
// so the model calls one function for every projection.
at::Tensor project(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b = {});

}  // namespace reef
