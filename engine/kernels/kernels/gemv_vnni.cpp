// The quantized GEMV rows on AVX-512 VNNI CPUs (kernels/gemv_vnni.h): hand-written beside the
// Highway rows (gemv_int4_simd.cpp, gemv_int8_simd.cpp) because Highway 1.0.3, Debian 12's, has no
// byte or int16 dot-product instruction on its AVX-512 target. The arithmetic is the Highway rows':
//
// - int4: per group, the exact integer dot Σ q·xq, now one vpdpbusd per 32 bytes of each nibble
//   half (unsigned nibble · signed int8 input, four pairs summed into each int32 lane) where the
//   AVX2 rows spend vpmaddubsw, an int16 add and, per group, vpmaddwd; then per lane the group's
//   sum to fp32 times the group's factor, as before. 256-bit steps (32 packed bytes, 64 weights) at
//   group 64; 512-bit ones from group 128, whose 16 lanes are folded to the 256-bit steps' 8 in
//   integers, so both give the same bits (checked against the 256-bit rows when they were added:
//   every output of groups 64-256, K 512-3072, 1-8 inputs, identical).
// - int8 against int16 inputs: one vpdpwssd per 32 weights (pairs of int16 products summed into
//   each int32 lane) where the Highway rows spend vpmaddwd and an add. Integer sums: the same bits
//   as every other target's rows.
//
// Rows are read in the Highway rows' order (two_stream_rows-inl.h: a block's two halves as two
// streams, each pass's two rows against every input), so each input gets the bits it gets alone.
#include "kernels/gemv_vnni.h"

#include <algorithm>
#include <cstddef>
#include <utility>

#include "kernels/bf16.h"
#include "kernels/gemv_int4.h"
#include "kernels/lane_sum.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>

#include <cstring>

namespace reef::kernels {

bool cpu_has_avx512_vnni() {
    static const bool has = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
    }();
    return has;
}

bool vnni_int8_rows_pay() {
    static const bool pay = [] {
        // AMD family 19h with AVX-512 is Zen 4, which runs a 512-bit operation as two 256-bit
        // halves. There the VNNI int8 rows lost to Highway's AVX-512 ones (vpmaddwd and an add per
        // 32 weights), one process switching targets between rounds (s1-mini shapes, K = 1024,
        // 4 rounds): one thread in L2 25-30 against 28-38 GB/s, two threads over 14 MB in L3 44-50
        // against 54-58, over 200 MB from memory 23-30 against 27-33. On the AMX Xeon the VNNI
        // rows, with the prefetch that came in beside them, took s1-mini int8 frames from 18.6 to
        // 23.4 a second (README, "int8 and int4 weights"): other CPUs keep them.
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return true;
        char vendor[13] = {};
        std::memcpy(vendor, &ebx, 4), std::memcpy(vendor + 4, &edx, 4), std::memcpy(vendor + 8, &ecx, 4);
        if (std::strcmp(vendor, "AuthenticAMD") != 0 || !__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return true;
        const unsigned base = (eax >> 8) & 0xF, family = base == 0xF ? base + ((eax >> 20) & 0xFF) : base;
        return family != 0x19;
    }();
    return pay;
}

namespace {

#define REEF_AVX512_VNNI __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,fma")))

REEF_AVX512_VNNI inline __m256i bytes(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }

// 16 int32 lanes -> 8: lane l + lane l + 8 (exact)
REEF_AVX512_VNNI inline __m256i fold(__m512i v) {
    return _mm256_add_epi32(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
}

REEF_AVX512_VNNI inline float lane_sum(__m256 v) {
    const __m128 h = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    const __m128 q = _mm_add_ps(h, _mm_movehl_ps(h, h));
    return _mm_cvtss_f32(_mm_add_ss(q, _mm_movehdup_ps(q)));
}

// Both streams' line kPrefetch bytes ahead, into L1. An int4 row pair costs ~4x the instructions
// per byte of a bf16 one, so fewer loads are in flight and the hardware prefetcher alone left the
// int4 rows at ~16 GB/s from DRAM where the bf16 rows read ~24 (2 threads, 512 MB of weights, this
// Xeon); 2 KiB ahead reads ~23 (2-8 KiB within 3 % of that, 1 KiB 10 % less). The line after a row's end is
// the next row of the same stream.
constexpr int64_t kPrefetch = 2048;
REEF_AVX512_VNNI inline void prefetch(const void* a, const void* b) {
    _mm_prefetch(static_cast<const char*>(a) + kPrefetch, _MM_HINT_T0);
    _mm_prefetch(static_cast<const char*>(b) + kPrefetch, _MM_HINT_T0);
}

// Int4Rows::prepare of gemv_int4_simd.cpp, 8 groups a step (a masked last one): f[g] = scale_g ·
// xs_g, and the returned Σ_g (zero_g − 8·scale_g)·gsum_g, products and sums kept apart. 256-bit
// and reduced by shuffles: a row of S1's 1024 weights has only 8 groups, so this runs once a row
// and its fixed cost matters as much as the groups' loop.
REEF_AVX512_VNNI inline __m256 widen_bf16(__mmask8 mask, const uint16_t* p) {
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_maskz_loadu_epi16(mask, p)), 16));
}

REEF_AVX512_VNNI float prepare(const uint16_t* s, const uint16_t* z, const float* xs, const float* gs, int64_t n,
                               float* f) {
    __m256 zacc = _mm256_setzero_ps();
    const __m256 eight = _mm256_set1_ps(8.0f);
    for (int64_t g = 0; g < n; g += 8) {
        const __mmask8 mask = n - g >= 8 ? __mmask8(0xFF) : __mmask8((1u << (n - g)) - 1);
        const __m256 sv = widen_bf16(mask, s + g);
        _mm256_mask_storeu_ps(f + g, mask, _mm256_mul_ps(sv, _mm256_maskz_loadu_ps(mask, xs + g)));
        const __m256 lo = _mm256_sub_ps(widen_bf16(mask, z + g), _mm256_mul_ps(sv, eight));
        zacc = _mm256_add_ps(zacc, _mm256_mul_ps(lo, _mm256_maskz_loadu_ps(mask, gs + g)));
    }
    return lane_sum(zacc);
}

template <int64_t kStep>  // packed bytes a group: group / 2
struct Int4 {
    const uint8_t* w;   // [N, k/2]
    const uint16_t* s;  // [N, k/group] bf16
    const uint16_t* z;
    const int8_t* xq;   // [m, k]: evens | odds
    const float* xs;    // [m, k/group]
    const float* gsum;  // [m, k/group]
    int64_t k;

    // rows a and b against input j: two fp32 accumulators per row, even and odd groups. The group's
    // size is a constant here, so its steps unroll: as a loop of one or two steps its branches and
    // the pointers the compiler kept on the stack cost ~15 % of an in-cache row.
    REEF_AVX512_VNNI std::pair<float, float> two(int64_t ra, int64_t rb, int64_t j) const {
        const int64_t half = k / 2, n = k / (2 * kStep);
        const uint8_t *wa = w + ra * half, *wb = w + rb * half;
        const int8_t* xe = xq + j * k;
        const int8_t* xo = xe + half;
        alignas(64) float ka[kInt4MaxGroups], kb[kInt4MaxGroups];
        const float za = prepare(s + ra * n, z + ra * n, xs + j * n, gsum + j * n, n, ka);
        const float zb = prepare(s + rb * n, z + rb * n, xs + j * n, gsum + j * n, n, kb);
        // group g's integer dots Σ q·xq of rows a and b in int32 lanes (exact, so the way they are
        // summed does not change a bit), converted, times the group's factors
        auto group_dot = [&](int64_t g, __m256& fa, __m256& fb) REEF_AVX512_VNNI {
            const int64_t p0 = g * kStep;
            for (int64_t p = 0; p < kStep; p += 64) prefetch(wa + p0 + p, wb + p0 + p);
            __m256i sa, sb;
            if constexpr (kStep == 32) {
                // 32 packed bytes of rows a and b: low nibbles against the even inputs, high against
                // the odd, each into its own accumulator (a vpdpbusd waits ~5 cycles for the one
                // before it on the same register)
                const __m256i low = _mm256_set1_epi8(0x0F), zero = _mm256_setzero_si256();
                const __m256i e = bytes(xe + p0), o = bytes(xo + p0), va = bytes(wa + p0), vb = bytes(wb + p0);
                const __m256i alo = _mm256_dpbusd_epi32(zero, _mm256_and_si256(va, low), e);
                const __m256i blo = _mm256_dpbusd_epi32(zero, _mm256_and_si256(vb, low), e);
                const __m256i ahi = _mm256_dpbusd_epi32(zero, _mm256_and_si256(_mm256_srli_epi16(va, 4), low), o);
                const __m256i bhi = _mm256_dpbusd_epi32(zero, _mm256_and_si256(_mm256_srli_epi16(vb, 4), low), o);
                sa = _mm256_add_epi32(alo, ahi), sb = _mm256_add_epi32(blo, bhi);
            } else {
                // 64 packed bytes a step in 512-bit vectors: half the instructions of 256-bit steps
                // per byte, which on the AMX Xeon is what bounds the rows once the weights are in
                // the caches (a 1 MB int4 matrix on one thread: 18 GB/s in 256-bit steps, where a
                // plain read gets 85). Lanes l and l + 8 folded give lane l of the 256-bit steps
                // (bytes 4l..4l+3 of each 32).
                const __m512i low = _mm512_set1_epi8(0x0F), zero = _mm512_setzero_si512();
                __m512i alo = zero, ahi = zero, blo = zero, bhi = zero;
                for (int64_t q = 0; q < kStep; q += 64) {
                    const int64_t i = p0 + q;
                    const __m512i e = _mm512_loadu_si512(xe + i), o = _mm512_loadu_si512(xo + i);
                    const __m512i va = _mm512_loadu_si512(wa + i), vb = _mm512_loadu_si512(wb + i);
                    alo = _mm512_dpbusd_epi32(alo, _mm512_and_si512(va, low), e);
                    blo = _mm512_dpbusd_epi32(blo, _mm512_and_si512(vb, low), e);
                    ahi = _mm512_dpbusd_epi32(ahi, _mm512_and_si512(_mm512_srli_epi16(va, 4), low), o);
                    bhi = _mm512_dpbusd_epi32(bhi, _mm512_and_si512(_mm512_srli_epi16(vb, 4), low), o);
                }
                sa = fold(_mm512_add_epi32(alo, ahi)), sb = fold(_mm512_add_epi32(blo, bhi));
            }
            fa = _mm256_fmadd_ps(_mm256_cvtepi32_ps(sa), _mm256_broadcast_ss(ka + g), fa);
            fb = _mm256_fmadd_ps(_mm256_cvtepi32_ps(sb), _mm256_broadcast_ss(kb + g), fb);
        };
        // two fp32 accumulators per row, even and odd groups, named (an indexed pair would live in
        // memory): the adds do not wait on each other
        __m256 fa0 = _mm256_setzero_ps(), fa1 = fa0, fb0 = fa0, fb1 = fa0;
        int64_t g = 0;
        for (; g + 2 <= n; g += 2) {
            group_dot(g, fa0, fb0);
            group_dot(g + 1, fa1, fb1);
        }
        if (g < n) group_dot(g, fa0, fb0);
        return {lane_sum(_mm256_add_ps(fa0, fa1)) + za, lane_sum(_mm256_add_ps(fb0, fb1)) + zb};
    }
};

// gemv_int8_simd.cpp's DotQ16 with vpdpwssd: exact int32 lanes over chunks of at most 1024 products
// per lane (1024 · 128 · 16383 < 2^31), summed into int64 per chunk; a masked last step for K % 32.
struct Int8Q16 {
    const int8_t* w;    // [N, K]
    const int16_t* xq;  // [m, K], row stride ldx
    int64_t k, ldx;
    static constexpr int64_t kChunk = 1024 * 16;  // weights per chunk: 1024 products per lane

    REEF_AVX512_VNNI static int64_t lane_sum(__m512i v) {
        alignas(64) int32_t lanes[16];
        _mm512_store_si512(lanes, v);
        return sum_lanes<int64_t>(lanes);
    }
    REEF_AVX512_VNNI std::pair<int64_t, int64_t> two(int64_t ra, int64_t rb, int64_t j) const {
        const int8_t *wa = w + ra * k, *wb = w + rb * k;
        const int16_t* x = xq + j * ldx;
        int64_t ta = 0, tb = 0;
        for (int64_t c = 0; c < k; c += kChunk) {
            const int64_t end = std::min(k, c + kChunk);
            // two accumulators per row, alternating steps: the adds of one do not wait on the other
            __m512i a0 = _mm512_setzero_si512(), a1 = a0, b0 = a0, b1 = a0;
            int64_t i = c;
            for (; i + 64 <= end; i += 64) {
                const __m512i x0 = _mm512_loadu_si512(x + i), x1 = _mm512_loadu_si512(x + i + 32);
                prefetch(wa + i, wb + i);
                a0 = _mm512_dpwssd_epi32(a0, _mm512_cvtepi8_epi16(bytes(wa + i)), x0);
                b0 = _mm512_dpwssd_epi32(b0, _mm512_cvtepi8_epi16(bytes(wb + i)), x0);
                a1 = _mm512_dpwssd_epi32(a1, _mm512_cvtepi8_epi16(bytes(wa + i + 32)), x1);
                b1 = _mm512_dpwssd_epi32(b1, _mm512_cvtepi8_epi16(bytes(wb + i + 32)), x1);
            }
            for (; i < end; i += 32) {
                const int64_t left = std::min<int64_t>(32, end - i);
                const __mmask32 mask = left == 32 ? ~__mmask32(0) : __mmask32((1u << left) - 1);
                const __m512i x0 = _mm512_maskz_loadu_epi16(mask, x + i);
                a0 = _mm512_dpwssd_epi32(a0, _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(mask, wa + i)), x0);
                b0 = _mm512_dpwssd_epi32(b0, _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(mask, wb + i)), x0);
            }
            ta += lane_sum(a0) + lane_sum(a1);
            tb += lane_sum(b0) + lane_sum(b1);
        }
        return {ta, tb};
    }
};

// two_stream_rows-inl.h's order: rows ra and rb = ra + half of the block, each pair against every
// input; the odd last row paired with itself
template <typename Dot, typename Put>
void rows(const Dot& dot, int64_t r0, int64_t r1, int64_t m, const Put& put) {
    const int64_t half = (r1 - r0) / 2;
    for (int64_t ra = r0; ra < r0 + half; ++ra)
        for (int64_t j = 0; j < m; ++j) {
            const auto [va, vb] = dot.two(ra, ra + half, j);
            put(j, ra, va);
            put(j, ra + half, vb);
        }
    if ((r1 - r0) % 2)
        for (int64_t j = 0; j < m; ++j) put(j, r1 - 1, dot.two(r1 - 1, r1 - 1, j).first);
}

}  // namespace

void gemv_rows_i4_q8_vnni(const uint8_t* w, const uint16_t* s, const uint16_t* z, int64_t group, const int8_t* xq,
                          const float* xs, const float* gsum, int64_t m, const float* b, int64_t k, int64_t r0,
                          int64_t r1, float* y, int64_t ldy) {
    const auto put = [&](int64_t j, int64_t r, float v) { y[j * ldy + r] = b ? v + b[r] : v; };
    if (group == 64) return rows(Int4<32>{w, s, z, xq, xs, gsum, k}, r0, r1, m, put);
    if (group == 128) return rows(Int4<64>{w, s, z, xq, xs, gsum, k}, r0, r1, m, put);
    rows(Int4<128>{w, s, z, xq, xs, gsum, k}, r0, r1, m, put);  // group 256 (the caller takes 64 and up)
}

void gemv_rows_i8_q16_vnni(const int8_t* w, const float* s, const int16_t* xq, const float* sx, int64_t ldx,
                           int64_t m, const float* b, int64_t k, int64_t r0, int64_t r1, float* y, int64_t ldy) {
    rows(Int8Q16{w, xq, k, ldx}, r0, r1, m, [&](int64_t j, int64_t r, int64_t total) {
        const float v = float(double(total) * double(sx[j]) * double(s[r]));
        y[j * ldy + r] = b ? v + b[r] : v;
    });
}

}  // namespace reef::kernels

#else  // not x86-64: never selected (cpu_has_avx512_vnni() is false), defined for the linker

namespace reef::kernels {
bool cpu_has_avx512_vnni() { return false; }
bool vnni_int8_rows_pay() { return false; }
void gemv_rows_i4_q8_vnni(const uint8_t*, const uint16_t*, const uint16_t*, int64_t, const int8_t*, const float*,
                          const float*, int64_t, const float*, int64_t, int64_t, int64_t, float*, int64_t) {}
void gemv_rows_i8_q16_vnni(const int8_t*, const float*, const int16_t*, const float*, int64_t, int64_t, const float*,
                           int64_t, int64_t, int64_t, float*, int64_t) {}
}  // namespace reef::kernels

#endif
