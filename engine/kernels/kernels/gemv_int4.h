// Weight-only int4 GEMV rows (issue #44): group-wise affine 4-bit weights, the quantization of
// fish-speech's tools/llama/quantize.py --mode int4 (group_quantize_tensor: per group of `group`
// weights of a row, q = round((w − min) / scale) in 0..15, w ≈ (q − 8)·scale + zero with
// zero = min + 8·scale), stored as Reef lays it out for a CPU (quantize.py's own file holds the
// tiles of one CUDA kernel): a row's K weights in K/2 bytes, byte j holding weight 2j in its low
// nibble and weight 2j+1 in its high one; scale and zero per group as bf16, [N, K/group] each.
// A quarter of bf16's bytes for the weights, plus 4 bytes per group: decode reads ~3.8x fewer
// bytes than bf16 at group 128.
//
// The input is quantized to int8 per group (xs_g = max|x| of the group / 127, xq = round(x / xs_g)
// in −127..127) and split into its even and its odd elements, so a vector of packed bytes splits
// into its low and its high nibbles by masks and shifts, which meet the inputs in order: on x86
// (AVX2, AVX-512) one vpmaddubsw multiplies 32 or 64 nibble·input pairs and adds pairs into int16
// (at most 2·15·127 each, and at most eight of those are added before the widening: 30 480 <
// 2^15), then vpmaddwd with ones widens to int32; other targets widen to int16 first. Either way
// each group's integer dot Σ q·xq is exact; then, per lane, the group's sum goes to fp32 and is
// multiplied by scale_g·xs_g, and the zeros come in once per row with the exact input sums:
//   y = Σ_g scale_g·xs_g·Σ_{i∈g} q_i·xq_i + Σ_g (zero_g − 8·scale_g)·Σ_{i∈g} x_i (+ b).
// The per-lane fp32 sums make the bits depend on the target's vector width (unlike the int8 rows):
// every target is tested against an fp64 reference instead, and m inputs at once give each input
// the bits it gets alone on the same target. An int8 input per group of weights is the activation
// quantization of llama.cpp's q4 kernels (q8 blocks): its rounding (max|x_g| / 254 per element) is
// far below the 4-bit weights' own.
#pragma once
#include <cstdint>

namespace reef::kernels {

// The group sizes the rows take (quantize.py's WeightOnlyInt4QuantHandler allows the same).
inline bool int4_group_supported(int64_t group) { return group == 32 || group == 64 || group == 128 || group == 256; }

// The most groups a row may have in the GEMV rows (their per-group factors live on the stack):
// K up to 32768 at group 32, far beyond any fish-speech width; wider rows take the dequantized path.
inline constexpr int64_t kInt4MaxGroups = 1024;

// x [k] -> xq [k] as [the k/2 even elements | the k/2 odd ones] quantized per group (zeros for a
// group that is all zero or not finite), xs [k/group] the groups' scales (0 for an all-zero group;
// NaN where x is not finite, so every output is NaN as a float product would be) and gsum [k/group]
// the groups' sums of x (input_stats' order, in double, rounded once): the same bits on every
// target. k % group == 0.
void prepare_row_q8_i4(const float* x, int64_t k, int64_t group, int8_t* xq, float* xs, float* gsum);

// w [N, k/2] packed as above, s and z [N, k/group] bf16 bits, xq [m, k], xs and gsum [m, k/group]
// from prepare_row_q8_i4 (rows contiguous), b [N] or nullptr, y [m, N] with row stride ldy: rows
// r0 <= r < r1 of each of the m outputs are written, the block read as two streams (the int8
// rows' order). k % group == 0, int4_group_supported(group), k / group <= kInt4MaxGroups.
void gemv_rows_i4_q8(const uint8_t* w, const uint16_t* s, const uint16_t* z, int64_t group, const int8_t* xq,
                     const float* xs, const float* gsum, int64_t m, const float* b, int64_t k, int64_t r0, int64_t r1,
                     float* y, int64_t ldy);

// Rows r0 <= r < r1 of the matrix dequantized to bf16 bits, w = (q − 8)·scale + zero in fp32 and
// rounded once to nearest even, out [N, k] row-major: a long prompt's prefill multiplies the whole
// matrix, and a GEMM on it beats reading the packed weights once per few rows. Per group the 16
// possible values are computed once and the nibbles looked up (pshufb, tbl), so a weight costs a
// few byte shuffles.
void dequantize_rows_i4_bf16(const uint8_t* w, const uint16_t* s, const uint16_t* z, int64_t group, int64_t k,
                             int64_t r0, int64_t r1, uint16_t* out);

}  // namespace reef::kernels
