// The one-row GEMV decode runs for every projection: y[r] = Σ_k w[r, k]·x[k] (+ b[r]) for rows
// r0..r1 of a row-major [N, K] weight, fp32 accumulation, bf16 outputs rounded once (nearest even).
// Decode is bound by reading the weights, so the kernel's job is to keep the memory system busy:
// rows r0..r1 (one contiguous block) are read as two sequential streams, the block's first half
// and its second half, on every target. Callers split the rows between threads (nn/gemv.cpp, on
// libtorch's pool). Any K works (the AVX-512 BF16 kernel: K % 32 == 0); multiples of the vector
// width (32 covers every x86 target) take no scalar tail.
#pragma once
#include <cstdint>

namespace reef::kernels {

// w [N, K], x [K], b [N] or nullptr, y [N]: rows r0 <= r < r1 are written.
void gemv_rows_f32(const float* w, const float* x, const float* b, int64_t k, int64_t r0, int64_t r1, float* y);
// bf16 as uint16_t bits (kernels/bf16.h)
void gemv_rows_bf16(const uint16_t* w, const uint16_t* x, const uint16_t* b, int64_t k, int64_t r0, int64_t r1,
                    uint16_t* y);

// A small batch: the same rows against m inputs (m sequences decoding together, issue #27):
// x [m, K] with row stride ldx, y [m, N] with row stride ldy, rows r0 <= r < r1 of each written.
// Each weight row is read from memory once per call and reused from cache for every input, and
// every output is bit-identical to gemv_rows_*'s for the same input and the same r0..r1 (the same
// arithmetic in the same order): a sequence's result does not depend on what else is in the batch.
// m is meant to be small (<= 8: the inputs stay in L1/L2 beside the two rows being read).
void gemv_rows_f32_batch(const float* w, const float* x, int64_t ldx, int64_t m, const float* b, int64_t k, int64_t r0,
                         int64_t r1, float* y, int64_t ldy);
void gemv_rows_bf16_batch(const uint16_t* w, const uint16_t* x, int64_t ldx, int64_t m, const uint16_t* b, int64_t k,
                          int64_t r0, int64_t r1, uint16_t* y, int64_t ldy);

// The hand-written AVX-512 BF16 bf16 rows (vdpbf16ps), used while use_avx512_bf16_gemv(); K % 32
// == 0. The batched form's outputs are bit-identical to the one-row form's, as above.
void gemv_rows_bf16_avx512_bf16(const uint16_t* w, const uint16_t* x, const uint16_t* b, int64_t k, int64_t r0,
                                int64_t r1, uint16_t* y);
void gemv_rows_bf16_batch_avx512_bf16(const uint16_t* w, const uint16_t* x, int64_t ldx, int64_t m, const uint16_t* b,
                                      int64_t k, int64_t r0, int64_t r1, uint16_t* y, int64_t ldy);

// The AMX bf16 rows (gemv_amx_bf16.cpp), used for one input and for batches alike while
// use_amx_bf16_gemv(); K % 32 == 0, 1 <= m <= 16. Outputs are bit-identical whatever m and r0..r1.
bool amx_bf16_permitted();  // the CPU has AMX-BF16 and Linux granted this process the tile state
void gemv_rows_bf16_amx(const uint16_t* w, const uint16_t* x, int64_t ldx, int64_t m, const uint16_t* b, int64_t k,
                        int64_t r0, int64_t r1, uint16_t* y, int64_t ldy);

}  // namespace reef::kernels
