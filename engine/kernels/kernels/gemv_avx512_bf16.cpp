// The bf16 GEMV rows on AVX-512 BF16 CPUs (Cooper Lake, Sapphire Rapids and later Xeons, Zen 4/5),
// kept hand-written beside the Highway kernel (gemv_simd.cpp) because Highway 1.0.3, Debian 12's,
// has no target with the bf16 dot product: vdpbf16ps multiplies 32 bf16 pairs and accumulates in
// fp32 in one instruction, where the portable kernel widens by shifts. Highway >= 1.2 (AVX3_ZEN4/SPR
// targets) could replace this file once Debian 12 is no longer the floor. fp32 weights have no use
// for the bf16 dot product: on these CPUs they go through Highway's AVX-512 kernel.
//
// The rows are read as the portable kernel reads them (gemv_simd.cpp: a thread's block of rows as
// two sequential streams, its first and second half), not four rows at a time with the next four
// prefetched as this kernel first did: on a Zen 5 EPYC VM that version decoded s1-mini bf16 at
// 18.7 frames/s where the portable kernel forced to AVX2 did 24.1, in one interleaved run
// (bench/results/cpu/targets-zen5-before-bf16.md; docs/cpu-kernels.md has the whole story, which
// also involves where the weights lie in memory).
#include <cstddef>

#include "kernels/bf16.h"
#include "kernels/cpu_target.h"
#include "kernels/gemv_rows.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include "kernels/avx512_bf16.h"

namespace reef::kernels {
namespace {

using avx512_bf16::lane_sum;
using avx512_bf16::load;

constexpr int64_t kStep = 32;  // bf16 values per vdpbf16ps: one 64-byte line

// Rows a and b against x: two accumulators per row over 64-value steps (two lines of each row in
// flight), a last 32-value step when K % 64 == 32. Every caller goes through this one function, so
// a row's value against an input is the same bits in a batch as alone.
REEF_AVX512_BF16 inline void dot_two(const uint16_t* wa, const uint16_t* wb, const uint16_t* x, int64_t k, float& va,
                                     float& vb) {
    __m512 a0 = _mm512_setzero_ps(), a1 = a0, b0 = a0, b1 = a0;
    int64_t i = 0;
    for (; i + 2 * kStep <= k; i += 2 * kStep) {
        const __m512bh x0 = load(x + i), x1 = load(x + i + kStep);
        a0 = _mm512_dpbf16_ps(a0, load(wa + i), x0);
        b0 = _mm512_dpbf16_ps(b0, load(wb + i), x0);
        a1 = _mm512_dpbf16_ps(a1, load(wa + i + kStep), x1);
        b1 = _mm512_dpbf16_ps(b1, load(wb + i + kStep), x1);
    }
    if (i < k) {
        const __m512bh x0 = load(x + i);
        a0 = _mm512_dpbf16_ps(a0, load(wa + i), x0);
        b0 = _mm512_dpbf16_ps(b0, load(wb + i), x0);
    }
    va = lane_sum(_mm512_add_ps(a0, a1));
    vb = lane_sum(_mm512_add_ps(b0, b1));
}

REEF_AVX512_BF16 inline float dot_one(const uint16_t* wa, const uint16_t* x, int64_t k) {
    __m512 a0 = _mm512_setzero_ps(), a1 = a0;
    int64_t i = 0;
    for (; i + 2 * kStep <= k; i += 2 * kStep) {
        a0 = _mm512_dpbf16_ps(a0, load(wa + i), load(x + i));
        a1 = _mm512_dpbf16_ps(a1, load(wa + i + kStep), load(x + i + kStep));
    }
    if (i < k) a0 = _mm512_dpbf16_ps(a0, load(wa + i), load(x + i));
    return lane_sum(_mm512_add_ps(a0, a1));
}

// Rows r0..r1 against m inputs: each pass takes one row of each half and runs it against every
// input in turn, the first from memory and the others from cache, so the weights cross the memory
// bus once per call whatever m is.
REEF_AVX512_BF16 void rows(const uint16_t* w, const uint16_t* x, int64_t ldx, int64_t m, const uint16_t* b, int64_t k,
                           int64_t r0, int64_t r1, uint16_t* y, int64_t ldy) {
    const int64_t half = (r1 - r0) / 2;
    for (int64_t r = r0; r < r0 + half; ++r) {
        for (int64_t j = 0; j < m; ++j) {
            float va = 0, vb = 0;
            dot_two(w + r * k, w + (r + half) * k, x + j * ldx, k, va, vb);
            y[j * ldy + r] = bf16_output(va, b, r);
            y[j * ldy + r + half] = bf16_output(vb, b, r + half);
        }
    }
    if ((r1 - r0) % 2)
        for (int64_t j = 0; j < m; ++j) y[j * ldy + r1 - 1] = bf16_output(dot_one(w + (r1 - 1) * k, x + j * ldx, k), b, r1 - 1);
    note_ran(kRanAvx512Bf16);
}

}  // namespace

void gemv_rows_bf16_avx512_bf16(const uint16_t* w, const uint16_t* x, const uint16_t* b, int64_t k, int64_t r0,
                                int64_t r1, uint16_t* y) {
    rows(w, x, 0, 1, b, k, r0, r1, y, 0);
}

void gemv_rows_bf16_batch_avx512_bf16(const uint16_t* w, const uint16_t* x, int64_t ldx, int64_t m, const uint16_t* b,
                                      int64_t k, int64_t r0, int64_t r1, uint16_t* y, int64_t ldy) {
    rows(w, x, ldx, m, b, k, r0, r1, y, ldy);
}

}  // namespace reef::kernels

#else  // not x86-64: never selected (use_avx512_bf16_gemv() is false), defined for the linker

namespace reef::kernels {
void gemv_rows_bf16_avx512_bf16(const uint16_t*, const uint16_t*, const uint16_t*, int64_t, int64_t, int64_t,
                                uint16_t*) {}
void gemv_rows_bf16_batch_avx512_bf16(const uint16_t*, const uint16_t*, int64_t, int64_t, const uint16_t*, int64_t,
                                      int64_t, int64_t, uint16_t*, int64_t) {}
}  // namespace reef::kernels

#endif
