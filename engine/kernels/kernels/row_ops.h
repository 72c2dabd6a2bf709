// Decode's small per-row ops (RMSNorm, interleaved RoPE, the SwiGLU product) as SIMD loops over
// one row, for fp32 and bf16 (uint16_t bits). fp32 arithmetic throughout with the rounding points
// of the ATen formulas they replace (nn/row_kernels.h): products and sums are never fused into an
// FMA (the library is built with -ffp-contract=off), so every target gives the same bits except
// for the order of the RMSNorm's sum of squares.
#pragma once
#include <cstdint>

namespace reef::kernels {

// y = x·rsqrt(mean(x²) + eps) × w; round_first: the normalised x is rounded to the dtype before
// the weight multiplies it (llama.py), otherwise one rounding at the end. x, w, y: [c]
void rms_norm_row(const float* x, int64_t c, const float* w, float eps, bool round_first, float* y);
void rms_norm_row(const uint16_t* x, int64_t c, const uint16_t* w, float eps, bool round_first, uint16_t* y);

// out[2j] = x[2j]·cos_j − x[2j+1]·sin_j, out[2j+1] = x[2j+1]·cos_j + x[2j]·sin_j for each of
// `heads` packed heads of length d (even): x, y [heads, d], f [d/2, 2] (cos, sin) shared by them.
void rotary_row(const float* x, int64_t heads, int64_t d, const float* f, float* y);
void rotary_row(const uint16_t* x, int64_t heads, int64_t d, const float* f, uint16_t* y);
void rotary_row(const float* x, int64_t heads, int64_t d, const uint16_t* f, float* y);
void rotary_row(const uint16_t* x, int64_t heads, int64_t d, const uint16_t* f, uint16_t* y);

// y = silu · up, each already rounded to the dtype: [n]
void gate_mul_row(const float* silu, const float* up, int64_t n, float* y);
void gate_mul_row(const uint16_t* silu, const uint16_t* up, int64_t n, uint16_t* y);

// y = a + b: one sum of two dtype values, rounded once to the dtype, as ATen adds two tensors
// (a decode block's residual adds): [n]
void add_row(const float* a, const float* b, int64_t n, float* y);
void add_row(const uint16_t* a, const uint16_t* b, int64_t n, uint16_t* y);

// The index of the first largest x[i], or x[i] / q[i] (IEEE division) where q is given: a NaN
// counts as the largest (the first NaN wins) and −0 equals +0, as at::argmax answers for one fp32
// row (greedy decoding, and the sampler's race of probabilities over exponential draws). n >= 1.
int64_t argmax_row(const float* x, const float* q, int64_t n);

// bf16 bits to fp32 (exact) and fp32 to bf16 bits, rounded to nearest even with NaN as 0x7FC0
// (float_to_bf16's bits, which are c10::BFloat16's): [n]
void widen_row(const uint16_t* x, int64_t n, float* y);
void round_row(const float* x, int64_t n, uint16_t* y);

// The codec's Snake activation over one channel's samples (DAC): y = x + inv_alpha·sin(alpha·x)²,
// inv_alpha = 1 / (alpha + 1e-9), in fp32 with one rounding at the store: one pass where ATen's
// formula makes five tensors. x, y: [n]
void snake_row(const float* x, int64_t n, float alpha, float inv_alpha, float* y);
void snake_row(const uint16_t* x, int64_t n, float alpha, float inv_alpha, uint16_t* y);
// The same for `rows` samples of c channels each, channels adjacent (channels-last): sample r's
// channels at x + r·ldx, written packed to y + r·c; alpha and inv_alpha per channel [c]. Each
// value is the bits snake_row gives it.
void snake_rows_channels_last(const float* x, int64_t rows, int64_t c, int64_t ldx, const float* alpha,
                              const float* inv_alpha, float* y);
void snake_rows_channels_last(const uint16_t* x, int64_t rows, int64_t c, int64_t ldx, const float* alpha,
                              const float* inv_alpha, uint16_t* y);

}  // namespace reef::kernels
