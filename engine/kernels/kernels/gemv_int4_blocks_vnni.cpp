// gemv_int4_blocks.h's rows on AVX-512 VNNI CPUs: per 64 bytes of a block (8 weights of each of
// its 16 rows) a load, the nibbles by mask and shift (one input: by two masks, the high nibbles
// left in place), and two vpdpbusd against 4 broadcast input bytes each; per group and block the
// lanes' float work (gemv_int4_blocks.h, the same operations as every other target). Hand-written
// beside the Highway rows because Highway 1.0.3, Debian 12's, has no byte dot product on its
// AVX-512 target.
#include "kernels/gemv_int4_blocks.h"

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12's AVX-512 headers pass an undefined vector as the unused merge source of the widening
// and shifts (GCC bug 105593), which -Wmaybe-uninitialized reports once many() inlines them.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "kernels/row_pairs.h"

namespace reef::kernels {
namespace {

#define REEF_AVX512_VNNI __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))

// No software prefetch: the hardware prefetcher keeps two streams a thread fed. Prefetches into L2
// 8 KiB ahead helped the 29 MB fast stack in L3 (two threads, 66-68 against 62-66 GB/s) but cost
// more from memory (2 MB matrices, 256 MB, passes interleaved: 35-36 against 42-44 GB/s; T0 2 KiB
// ahead 38-39) and in the engine's frames (the Zen 4 EPYC, s1-mini int4, three alternations of the
// binaries: 77.1-78.4 with them, 89.3-93.2 without). Not measured on an Intel CPU.

REEF_AVX512_VNNI inline __m512i input4(const int8_t* p) {  // 4 input bytes in every lane
    int32_t v;
    std::memcpy(&v, p, 4);
    return _mm512_set1_epi32(v);
}

// A block's 64 bytes, loaded once. Left to itself GCC 12 folds the load into both the mask of the
// low nibbles and the shift of the high ones: two loads of each line, and one input ran at ~0.4
// vpdpbusd a cycle. Loaded once, and with dot2's high nibbles in place, one Zen 4 core takes 20-25 %
// less time on a matrix in L2 (docs/cpu-kernels.md, "int4 rows in blocks of 16").
REEF_AVX512_VNNI inline __m512i load_once(const uint8_t* p) {
    __m512i v = _mm512_loadu_si512(p);
    asm("" : "+v"(v));  // opaque: the value must stay in its register
    return v;
}

REEF_AVX512_VNNI inline __m512 widen_bf16(const uint16_t* p) {  // 16 bf16 -> fp32 (exact)
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))), 16));
}

template <int kC>  // 4-byte runs a group: group / 8
struct Blocks {
    const uint8_t* w;   // [N/16, K/8, 64]
    const uint16_t* s;  // [N/16, K/group, 16] bf16
    const uint16_t* z;
    const int8_t* xq;   // [m, k]: evens | odds
    const float* xs;    // [m, k/group]
    const float* gsum;  // [m, k/group]
    int64_t k;

    int64_t groups() const { return k / (8 * kC); }
    const uint8_t* block(int64_t b) const { return w + b * 8 * k; }  // K/8 runs of 64 bytes

    // the group's float work on 16 rows' integer dots (gemv_int4_blocks.h)
    REEF_AVX512_VNNI static void add_group(__m512i dots, const uint16_t* sg, const uint16_t* zg, float x_scale,
                                           float x_sum, __m512& acc, __m512& zacc) {
        const __m512 sv = widen_bf16(sg);
        acc = _mm512_add_ps(acc, _mm512_mul_ps(_mm512_cvtepi32_ps(dots), _mm512_mul_ps(sv, _mm512_set1_ps(x_scale))));
        const __m512 low = _mm512_sub_ps(widen_bf16(zg), _mm512_mul_ps(sv, _mm512_set1_ps(8.0f)));
        zacc = _mm512_add_ps(zacc, _mm512_mul_ps(low, _mm512_set1_ps(x_sum)));
    }

    // one group of blocks a and b (kPair; else a alone) against the evens e and odds o of its inputs:
    // 16 int32 dots each. The high nibbles stay in place (16 x the weight: one and, no shift) and
    // sum in their own chain, shifted back once a group: exact, the sum is a multiple of 16 and at
    // most 4 x 32 x 240 x 128 in magnitude (group 256).
    template <bool kPair>
    REEF_AVX512_VNNI static void dot2(const uint8_t* pa, const uint8_t* pb, const int8_t* e, const int8_t* o,
                                      __m512i& da, __m512i& db) {
        const __m512i low = _mm512_set1_epi8(0x0F), high = _mm512_set1_epi8(static_cast<char>(0xF0));
        __m512i a0 = _mm512_setzero_si512(), a1 = a0, b0 = a0, b1 = a0;
#pragma GCC unroll 32
        for (int c = 0; c < kC; ++c) {
            const __m512i va = load_once(pa + 64 * c);
            const __m512i ev = input4(e + 4 * c), od = input4(o + 4 * c);
            a0 = _mm512_dpbusd_epi32(a0, _mm512_and_si512(va, low), ev);
            a1 = _mm512_dpbusd_epi32(a1, _mm512_and_si512(va, high), od);
            if constexpr (kPair) {
                const __m512i vb = load_once(pb + 64 * c);
                b0 = _mm512_dpbusd_epi32(b0, _mm512_and_si512(vb, low), ev);
                b1 = _mm512_dpbusd_epi32(b1, _mm512_and_si512(vb, high), od);
            }
        }
        da = _mm512_add_epi32(a0, _mm512_srai_epi32(a1, 4)), db = _mm512_add_epi32(b0, _mm512_srai_epi32(b1, 4));
    }

    // blocks a and b (two streams; kPair false: a alone) against input j
    template <bool kPair>
    REEF_AVX512_VNNI void two(int64_t ba, int64_t bb, int64_t j, __m512& ya, __m512& yb) const {
        const int64_t n = groups(), half = k / 2;
        const int8_t* e = xq + j * k;
        const int8_t* o = e + half;
        const uint8_t *wa = block(ba), *wb = block(bb);
        __m512 acc_a = _mm512_setzero_ps(), zacc_a = acc_a, acc_b = acc_a, zacc_b = acc_a;
        for (int64_t g = 0; g < n; ++g) {
            __m512i da, db;
            dot2<kPair>(wa + g * 64 * kC, wb + g * 64 * kC, e + g * 4 * kC, o + g * 4 * kC, da, db);
            const float x_scale = xs[j * n + g], x_sum = gsum[j * n + g];
            add_group(da, s + (ba * n + g) * 16, z + (ba * n + g) * 16, x_scale, x_sum, acc_a, zacc_a);
            if constexpr (kPair) add_group(db, s + (bb * n + g) * 16, z + (bb * n + g) * 16, x_scale, x_sum, acc_b, zacc_b);
        }
        ya = _mm512_add_ps(acc_a, zacc_a), yb = _mm512_add_ps(acc_b, zacc_b);
    }

    // blocks a and b (kPair; else a alone) against kM inputs j0..j0+kM-1, each 64-byte load split
    // into nibbles once for all of them: split once per input, every input cost as much as the
    // first (one Zen 4 core, a 1024 x 1024 matrix in L2: 9.4 us an input at 4 inputs, now 5.3).
    // The integer dots are exact in any order and each input's float work is two()'s, so every
    // input keeps the bits it gets alone.
    template <int kM, bool kPair>
    REEF_AVX512_VNNI void many(int64_t ba, int64_t bb, int64_t j0, __m512* ya, __m512* yb) const {
        const int64_t n = groups(), half = k / 2;
        const uint8_t *wa = block(ba), *wb = block(bb);
        const __m512i mask = _mm512_set1_epi8(0x0F);
        __m512 acc_a[kM], zacc_a[kM], acc_b[kM], zacc_b[kM];
        for (int j = 0; j < kM; ++j)
            acc_a[j] = zacc_a[j] = acc_b[j] = zacc_b[j] = _mm512_setzero_ps();
        for (int64_t g = 0; g < n; ++g) {
            const uint8_t *pa = wa + g * 64 * kC, *pb = wb + g * 64 * kC;
            const int8_t* e = xq + j0 * k + g * 4 * kC;  // input j0's evens of group g; odds half after
            __m512i da[kM], db[kM];
            for (int j = 0; j < kM; ++j) da[j] = db[j] = _mm512_setzero_si512();
#pragma GCC unroll 32
            for (int c = 0; c < kC; ++c) {
                const __m512i va = load_once(pa + 64 * c);
                const __m512i lo_a = _mm512_and_si512(va, mask);
                const __m512i hi_a = _mm512_and_si512(_mm512_srli_epi16(va, 4), mask);
                __m512i lo_b = lo_a, hi_b = hi_a;
                if constexpr (kPair) {
                    const __m512i vb = load_once(pb + 64 * c);
                    lo_b = _mm512_and_si512(vb, mask), hi_b = _mm512_and_si512(_mm512_srli_epi16(vb, 4), mask);
                }
#pragma GCC unroll 4
                for (int j = 0; j < kM; ++j) {
                    const __m512i ev = input4(e + j * k + 4 * c), od = input4(e + j * k + half + 4 * c);
                    da[j] = _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(da[j], lo_a, ev), hi_a, od);
                    if constexpr (kPair) db[j] = _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(db[j], lo_b, ev), hi_b, od);
                }
            }
            for (int j = 0; j < kM; ++j) {
                const float x_scale = xs[(j0 + j) * n + g], x_sum = gsum[(j0 + j) * n + g];
                add_group(da[j], s + (ba * n + g) * 16, z + (ba * n + g) * 16, x_scale, x_sum, acc_a[j], zacc_a[j]);
                if constexpr (kPair)
                    add_group(db[j], s + (bb * n + g) * 16, z + (bb * n + g) * 16, x_scale, x_sum, acc_b[j], zacc_b[j]);
            }
        }
        for (int j = 0; j < kM; ++j) {
            ya[j] = _mm512_add_ps(acc_a[j], zacc_a[j]);
            yb[j] = _mm512_add_ps(acc_b[j], zacc_b[j]);
        }
    }
};

// blocks a and b (kPair; else a alone) against every input, four at a time
template <int kC, bool kPair, typename Put>
REEF_AVX512_VNNI void blocks_against_inputs(const Blocks<kC>& blocks, int64_t m, int64_t ba, int64_t bb,
                                            const Put& put) {
    for (int64_t j0 = 0; j0 < m; j0 += 4) {
        __m512 ya[4], yb[4];
        const int64_t mj = std::min<int64_t>(4, m - j0);
        if (mj == 4) blocks.template many<4, kPair>(ba, bb, j0, ya, yb);
        else if (mj == 3) blocks.template many<3, kPair>(ba, bb, j0, ya, yb);
        else if (mj == 2) blocks.template many<2, kPair>(ba, bb, j0, ya, yb);
        else blocks.template two<kPair>(ba, bb, j0, ya[0], yb[0]);
        for (int64_t j = 0; j < mj; ++j) {
            put(j0 + j, ba, ya[j]);
            if constexpr (kPair) put(j0 + j, bb, yb[j]);
        }
    }
}

template <int kC>
REEF_AVX512_VNNI void run(const Blocks<kC>& blocks, int64_t m, const float* b, int64_t b0, int64_t b1, float* y,
                          int64_t ldy) {
    auto put = [&](int64_t j, int64_t blk, __m512 v) REEF_AVX512_VNNI {
        if (b) v = _mm512_add_ps(v, _mm512_loadu_ps(b + 16 * blk));
        _mm512_storeu_ps(y + j * ldy + 16 * blk, v);
    };
    // the range's two halves as two streams (the row layout's order), each pair against every input
    for_row_pairs(b0, b1, [&](int64_t ba, int64_t bb, bool both) REEF_AVX512_VNNI {
        if (both) blocks_against_inputs<kC, true>(blocks, m, ba, bb, put);
        else blocks_against_inputs<kC, false>(blocks, m, ba, bb, put);
    });
}

}  // namespace

void gemv_blocks_i4_q8_vnni(const uint8_t* w, const uint16_t* s, const uint16_t* z, int64_t group, const int8_t* xq,
                            const float* xs, const float* gsum, int64_t m, const float* b, int64_t k, int64_t r0,
                            int64_t r1, float* y, int64_t ldy) {
    const int64_t b0 = r0 / kInt4BlockRows, b1 = r1 / kInt4BlockRows;
    if (group == 32) return run(Blocks<4>{w, s, z, xq, xs, gsum, k}, m, b, b0, b1, y, ldy);
    if (group == 64) return run(Blocks<8>{w, s, z, xq, xs, gsum, k}, m, b, b0, b1, y, ldy);
    if (group == 128) return run(Blocks<16>{w, s, z, xq, xs, gsum, k}, m, b, b0, b1, y, ldy);
    run(Blocks<32>{w, s, z, xq, xs, gsum, k}, m, b, b0, b1, y, ldy);  // group 256
}

}  // namespace reef::kernels

#else  // not x86-64: never selected (cpu_has_avx512_vnni() is false), defined for the linker

namespace reef::kernels {
void gemv_blocks_i4_q8_vnni(const uint8_t*, const uint16_t*, const uint16_t*, int64_t, const int8_t*, const float*,
                            const float*, int64_t, const float*, int64_t, int64_t, int64_t, float*, int64_t) {}
}  // namespace reef::kernels

#endif
