// The GEMV rows on AVX-512 BF16 CPUs (Cooper Lake, Sapphire Rapids and later Xeons, Zen 4/5), kept
// hand-written beside the Highway kernel (gemv_simd.cpp) because Highway 1.0.3, Debian 12's, has
// no target with the bf16 dot product: vdpbf16ps multiplies 32 bf16 pairs and accumulates in fp32
// in one instruction, where the portable kernel widens by shifts. Highway >= 1.2 (AVX3_ZEN4/SPR
// targets) could replace this file once Debian 12 is no longer the floor. The fp32 rows use the
// same row loop so an AVX-512 BF16 CPU runs exactly the code it always did (77-93 % of the
// roofline, bench/results/cpu/s1mini-bf16.md).
#include <cstddef>

#include "kernels/bf16.h"
#include "kernels/cpu_target.h"
#include "kernels/gemv_rows.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

namespace reef::kernels {
namespace {

constexpr int64_t kStep = 32;  // weights per step (bf16: one 64-byte line, fp32: two)

#define REEF_AVX512_BF16 __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16")))

REEF_AVX512_BF16 inline float lane_sum(__m512 acc) {
    alignas(64) float lanes[16];
    _mm512_store_ps(lanes, acc);
    float v = 0;
    for (float lane : lanes) v += lane;
    return v;
}

inline void store(float v, float* y, int64_t r, const float* b) { y[r] = b ? v + b[r] : v; }
inline void store(float v, uint16_t* y, int64_t r, const uint16_t* b) {
    y[r] = float_to_bf16(b ? v + bf16_to_float(b[r]) : v);  // round to nearest even, once
}

// acc += 32 bf16 weights · 32 bf16 inputs, in pairs, accumulated in fp32.
REEF_AVX512_BF16 inline __m512 mac(__m512 acc, const uint16_t* w, const uint16_t* x) {
    return _mm512_dpbf16_ps(acc, (__m512bh)_mm512_loadu_si512(w), (__m512bh)_mm512_loadu_si512(x));
}

// fp32: acc += 32 weights · 32 inputs as two fused multiply-adds, so one step reads 128 bytes of a
// row (two cache lines) and the row loop below is the same for both types.
REEF_AVX512_BF16 inline __m512 mac(__m512 acc, const float* w, const float* x) {
    acc = _mm512_fmadd_ps(_mm512_loadu_ps(w), _mm512_loadu_ps(x), acc);
    return _mm512_fmadd_ps(_mm512_loadu_ps(w + 16), _mm512_loadu_ps(x + 16), acc);
}

// Four rows at a time keep four independent streams in flight while the next four are
// prefetched; every row is read once, front to back.
template <typename T>
REEF_AVX512_BF16 void gemv_rows(const T* w, const T* x, const T* b, int64_t k, int64_t r0, int64_t r1, T* y) {
    int64_t r = r0;
    for (; r + 4 <= r1; r += 4) {
        const T* w0 = w + r * k;
        __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps(), a2 = _mm512_setzero_ps(), a3 = _mm512_setzero_ps();
        for (int64_t i = 0; i < k; i += kStep) {
            for (int64_t ahead = 4; ahead < 8; ++ahead) {  // the next four rows (a prefetch past the end is harmless)
                const char* line = reinterpret_cast<const char*>(w0 + ahead * k + i);
                _mm_prefetch(line, _MM_HINT_T0);
                if constexpr (sizeof(T) == 4) _mm_prefetch(line + 64, _MM_HINT_T0);  // fp32: a step is two lines
            }
            a0 = mac(a0, w0 + i, x + i);
            a1 = mac(a1, w0 + k + i, x + i);
            a2 = mac(a2, w0 + 2 * k + i, x + i);
            a3 = mac(a3, w0 + 3 * k + i, x + i);
        }
        store(lane_sum(a0), y, r, b), store(lane_sum(a1), y, r + 1, b);
        store(lane_sum(a2), y, r + 2, b), store(lane_sum(a3), y, r + 3, b);
    }
    for (; r < r1; ++r) {
        __m512 a = _mm512_setzero_ps();
        for (int64_t i = 0; i < k; i += kStep) a = mac(a, w + r * k + i, x + i);
        store(lane_sum(a), y, r, b);
    }
    note_ran(kRanAvx512Bf16);
}

}  // namespace

void gemv_rows_f32_avx512_bf16(const float* w, const float* x, const float* b, int64_t k, int64_t r0, int64_t r1,
                               float* y) {
    gemv_rows(w, x, b, k, r0, r1, y);
}

void gemv_rows_bf16_avx512_bf16(const uint16_t* w, const uint16_t* x, const uint16_t* b, int64_t k, int64_t r0,
                                int64_t r1, uint16_t* y) {
    gemv_rows(w, x, b, k, r0, r1, y);
}

}  // namespace reef::kernels

#else  // not x86-64: never selected (use_avx512_bf16_gemv() is false), defined for the linker

namespace reef::kernels {
void gemv_rows_f32_avx512_bf16(const float*, const float*, const float*, int64_t, int64_t, int64_t, float*) {}
void gemv_rows_bf16_avx512_bf16(const uint16_t*, const uint16_t*, const uint16_t*, int64_t, int64_t, int64_t,
                                uint16_t*) {}
}  // namespace reef::kernels

#endif
