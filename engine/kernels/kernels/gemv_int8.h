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

}  // namespace reef::kernels
