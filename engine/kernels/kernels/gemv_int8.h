// Weight-only int8 GEMV rows (issue #44): fish-speech's WeightOnlyInt8Linear (tools/llama/quantize.py),
// y = (x·wᵀ)·s (+ b), w an int8 [N, K] matrix with one fp32 scale per row. Decode reads every
// weight once per step, so a weight of one byte instead of bf16's two is half the memory traffic,
// the whole of a memory-bound step's cost. Activations stay fp32 (the caller widens a bf16 row
// once: K values against N·K weight bytes), fp32 accumulation, the scale applied once per row.
#pragma once
#include <cstdint>

namespace reef::kernels {

// w [N, K] int8 row-major, s [N], b [N] or nullptr, x [m, K] with row stride ldx, y [m, N] with
// row stride ldy: rows r0 <= r < r1 of each of the m outputs are written. Rows r0..r1 are read as
// two sequential streams (the block's halves), as the bf16/fp32 rows are (kernels/gemv_rows.h);
// each pass runs its two rows against every input, so m inputs read the weights from memory once,
// and every output is bit-identical to the m = 1 call's over the same r0..r1.
void gemv_rows_i8(const int8_t* w, const float* s, const float* x, int64_t ldx, int64_t m, const float* b, int64_t k,
                  int64_t r0, int64_t r1, float* y, int64_t ldy);

// The same rows with the input quantized too, for speed where bf16 already rounds the input (a bf16
// model's decode): x as int16 (quantize_row_q16: xq = round(x / sx), |xq| <= 16383, so sx is
// max|x| / 16383 and each element moves by at most sx / 2, i.e. max|x| / 32766: below a bf16
// input's own rounding for every element within 2^-6 of the largest). Then each row is an integer
// dot product, exact (int32 lanes over chunks of 1024 weights per lane, summed in int64), converted
// once: y = float(double(Σ w·xq) · sx · s[r]) (+ b[r]). Half the instructions per weight of the fp32
// rows (one int8 -> int16 widening and one multiply-add of int16 pairs per vector), and the same
// bits on every target, since integer sums do not depend on the order they are added in.
// xq [m, K] with row stride ldx, sx [m] (one scale per input), the rest as gemv_rows_i8.
void gemv_rows_i8_q16(const int8_t* w, const float* s, const int16_t* xq, const float* sx, int64_t ldx, int64_t m,
                      const float* b, int64_t k, int64_t r0, int64_t r1, float* y, int64_t ldy);

// x [k] -> xq [k] and the returned scale sx (0 for an all-zero x, then xq is all zero). NaN or
// infinite inputs make sx NaN, so every output of the row is NaN, as a float product would be.
float quantize_row_q16(const float* x, int64_t k, int16_t* xq);
inline constexpr int kQ16Max = 16383;

}  // namespace reef::kernels
