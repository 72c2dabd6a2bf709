// gemv_int4_blocks.h's rows for every Highway target: 256-bit vpmaddubsw rows on the AVX2 and
// AVX-512 passes (written with intrinsics inside those passes, as gemv_int4_simd.cpp's: Highway
// 1.0.3 has no unsigned·signed byte product), plain loops on the others (SSE4, NEON, SVE, scalar:
// there the row layout is kept, int4_blocks_pay() is false, and these loops serve a target forced
// after the weights were blocked). Every path gives the same bits: exact integer dots, then the
// same float operations per row in the same order (gemv_int4_blocks.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/gemv_int4_blocks_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstring>

#include "kernels/bf16.h"
#include "kernels/cpu_target.h"
#include "kernels/gemv_int4_blocks.h"
#include "kernels/gemv_vnni.h"

#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3
#include <immintrin.h>
#endif

HWY_BEFORE_NAMESPACE();
namespace reef::kernels {
namespace HWY_NAMESPACE {

struct BlockArgs {
    const uint8_t* w;   // [N/16, K/8, 64]
    const uint16_t* s;  // [N/16, K/group, 16] bf16
    const uint16_t* z;
    const int8_t* xq;   // [m, k]: evens | odds
    const float* xs;    // [m, k/group]
    const float* gsum;  // [m, k/group]
    int64_t group, k, m;
    const float* b;
    float* y;
    int64_t ldy;
};

// Plain loops: each row's exact group dots, then the lanes' float operations one row at a time.
void plain_blocks(const BlockArgs& a, int64_t b0, int64_t b1) {
    const int64_t n = a.k / a.group, runs = a.group / 8, half = a.k / 2;
    for (int64_t blk = b0; blk < b1; ++blk)
        for (int64_t j = 0; j < a.m; ++j)
            for (int64_t r = 0; r < kInt4BlockRows; ++r) {
                const int8_t* e = a.xq + j * a.k;
                const int8_t* o = e + half;
                float acc = 0.0f, zacc = 0.0f;
                for (int64_t g = 0; g < n; ++g) {
                    int32_t dot = 0;
                    for (int64_t c = g * runs; c < (g + 1) * runs; ++c) {
                        const uint8_t* p = a.w + (blk * (a.k / 8) + c) * 64 + 4 * r;
                        for (int i = 0; i < 4; ++i) dot += (p[i] & 0x0F) * e[4 * c + i] + (p[i] >> 4) * o[4 * c + i];
                    }
                    const float sv = bf16_to_float(a.s[(blk * n + g) * 16 + r]), zv = bf16_to_float(a.z[(blk * n + g) * 16 + r]);
                    acc = acc + float(dot) * (sv * a.xs[j * n + g]);
                    zacc = zacc + (zv - sv * 8.0f) * a.gsum[j * n + g];
                }
                const int64_t row = blk * kInt4BlockRows + r;
                const float v = acc + zacc;
                a.y[j * a.ldy + row] = a.b ? v + a.b[row] : v;
            }
}

#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3
// 256-bit rows: a block's 64 bytes a run as two halves of 8 rows. Each half's nibbles are
// vpmaddubsw'd with 4 broadcast input bytes (pairs summed into int16: at most 2·15·127 = 3810), four
// runs' sums added in int16 (at most 8·3810 = 30 480 < 2^15), then widened by vpmaddwd with ones.
// One block at a time, no software prefetch (gemv_int4_blocks_vnni.cpp; forced to AVX2 on the Zen 4
// EPYC, s1-mini int4 frames against the best target's in the same runs: 0.79-0.83 either way).

inline __m256i input4(const int8_t* p) {
    int32_t v;
    std::memcpy(&v, p, 4);
    return _mm256_set1_epi32(v);
}

// 32 bytes of a block, loaded once: GCC 12 folds the load into both the mask and the shift of the
// nibbles otherwise, two loads of each line (gemv_int4_blocks_vnni.cpp's load_once)
inline __m256i load_once(const uint8_t* p) {
    __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    asm("" : "+x"(v));  // opaque: the value must stay in its register
    return v;
}

inline __m256 widen_bf16(const uint16_t* p) {  // 8 bf16 -> fp32 (exact)
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))), 16));
}

// the group's float work on 8 rows' integer dots (gemv_int4_blocks.h)
inline void add_group(__m256i dots, const uint16_t* sg, const uint16_t* zg, float x_scale, float x_sum, __m256& acc,
                      __m256& zacc) {
    const __m256 sv = widen_bf16(sg);
    acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_cvtepi32_ps(dots), _mm256_mul_ps(sv, _mm256_set1_ps(x_scale))));
    const __m256 low = _mm256_sub_ps(widen_bf16(zg), _mm256_mul_ps(sv, _mm256_set1_ps(8.0f)));
    zacc = _mm256_add_ps(zacc, _mm256_mul_ps(low, _mm256_set1_ps(x_sum)));
}

// Block blk against the kM inputs j0..j0+kM-1, each 64-byte run split into nibbles once for all
// of them (kM = 2 fills the 16 vector registers; the float accumulators wait in memory between
// groups). Here the four vpmaddubsw and int16 adds per 64 bytes and input stay, so the gain is
// smaller than the VNNI rows' (one Zen 4 core forced to AVX2, a 1024 x 1024 matrix in L2: 12.0-12.7
// us an input at 2-8 inputs against 13.4-13.6). Each input's integer sums and float work are the
// same operations in the same order at any kM, so each keeps the bits it gets alone.
template <int kC, int kM>  // 4-byte runs a group: group / 8, a multiple of 4
void avx2_block(const BlockArgs& a, int64_t blk, int64_t j0) {
    const int64_t n = a.k / (8 * kC), half = a.k / 2;
    const __m256i mask = _mm256_set1_epi8(0x0F), ones = _mm256_set1_epi16(1);
    const uint8_t* wb = a.w + blk * 8 * a.k;
    __m256 acc0[kM], zacc0[kM], acc1[kM], zacc1[kM];
    for (int j = 0; j < kM; ++j) acc0[j] = zacc0[j] = acc1[j] = zacc1[j] = _mm256_setzero_ps();
    for (int64_t g = 0; g < n; ++g) {
        const uint8_t* p = wb + g * 64 * kC;
        const int8_t* e = a.xq + j0 * a.k + g * 4 * kC;  // input j0's evens of group g; odds half after
        __m256i d0[kM], d1[kM];
        for (int j = 0; j < kM; ++j) d0[j] = d1[j] = _mm256_setzero_si256();
        for (int c4 = 0; c4 < kC; c4 += 4) {
            __m256i s0[kM], s1[kM];
            for (int j = 0; j < kM; ++j) s0[j] = s1[j] = _mm256_setzero_si256();
#pragma GCC unroll 4
            for (int c = c4; c < c4 + 4; ++c) {
                const __m256i v0 = load_once(p + 64 * c), v1 = load_once(p + 64 * c + 32);
                const __m256i lo0 = _mm256_and_si256(v0, mask), lo1 = _mm256_and_si256(v1, mask);
                const __m256i hi0 = _mm256_and_si256(_mm256_srli_epi16(v0, 4), mask);
                const __m256i hi1 = _mm256_and_si256(_mm256_srli_epi16(v1, 4), mask);
#pragma GCC unroll 2
                for (int j = 0; j < kM; ++j) {
                    const __m256i ev = input4(e + j * a.k + 4 * c), od = input4(e + j * a.k + half + 4 * c);
                    s0[j] = _mm256_add_epi16(s0[j], _mm256_maddubs_epi16(lo0, ev));
                    s1[j] = _mm256_add_epi16(s1[j], _mm256_maddubs_epi16(lo1, ev));
                    s0[j] = _mm256_add_epi16(s0[j], _mm256_maddubs_epi16(hi0, od));
                    s1[j] = _mm256_add_epi16(s1[j], _mm256_maddubs_epi16(hi1, od));
                }
            }
            for (int j = 0; j < kM; ++j) {
                d0[j] = _mm256_add_epi32(d0[j], _mm256_madd_epi16(s0[j], ones));
                d1[j] = _mm256_add_epi32(d1[j], _mm256_madd_epi16(s1[j], ones));
            }
        }
        const uint16_t *sg = a.s + (blk * n + g) * 16, *zg = a.z + (blk * n + g) * 16;
        for (int j = 0; j < kM; ++j) {
            const float x_scale = a.xs[(j0 + j) * n + g], x_sum = a.gsum[(j0 + j) * n + g];
            add_group(d0[j], sg, zg, x_scale, x_sum, acc0[j], zacc0[j]);
            add_group(d1[j], sg + 8, zg + 8, x_scale, x_sum, acc1[j], zacc1[j]);
        }
    }
    for (int j = 0; j < kM; ++j) {
        float* out = a.y + (j0 + j) * a.ldy + blk * kInt4BlockRows;
        __m256 v0 = _mm256_add_ps(acc0[j], zacc0[j]), v1 = _mm256_add_ps(acc1[j], zacc1[j]);
        if (a.b) {
            v0 = _mm256_add_ps(v0, _mm256_loadu_ps(a.b + blk * kInt4BlockRows));
            v1 = _mm256_add_ps(v1, _mm256_loadu_ps(a.b + blk * kInt4BlockRows + 8));
        }
        _mm256_storeu_ps(out, v0);
        _mm256_storeu_ps(out + 8, v1);
    }
}

template <int kC>
void avx2_blocks(const BlockArgs& a, int64_t b0, int64_t b1) {
    for (int64_t blk = b0; blk < b1; ++blk) {
        int64_t j = 0;
        for (; j + 2 <= a.m; j += 2) avx2_block<kC, 2>(a, blk, j);
        if (j < a.m) avx2_block<kC, 1>(a, blk, j);
    }
}
#endif

bool BlocksPay() { return HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3; }

void GemvBlocksI4Q8(const uint8_t* w, const uint16_t* s, const uint16_t* z, int64_t group, const int8_t* xq,
                    const float* xs, const float* gsum, int64_t m, const float* b, int64_t k, int64_t b0, int64_t b1,
                    float* y, int64_t ldy) {
    const BlockArgs a{w, s, z, xq, xs, gsum, group, k, m, b, y, ldy};
    note_ran(HWY_TARGET);
#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3
    if (a.group == 32) return avx2_blocks<4>(a, b0, b1);
    if (a.group == 64) return avx2_blocks<8>(a, b0, b1);
    if (a.group == 128) return avx2_blocks<16>(a, b0, b1);
    return avx2_blocks<32>(a, b0, b1);
#else
    plain_blocks(a, b0, b1);
#endif
}

}  // namespace HWY_NAMESPACE
}  // namespace reef::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace reef::kernels {
HWY_EXPORT(BlocksPay);
HWY_EXPORT(GemvBlocksI4Q8);

bool int4_blocks_pay() {
    ensure_target_chosen();
    return HWY_DYNAMIC_DISPATCH(BlocksPay)();
}

void gemv_blocks_i4_q8(const uint8_t* w, const uint16_t* s, const uint16_t* z, int64_t group, const int8_t* xq,
                       const float* xs, const float* gsum, int64_t m, const float* b, int64_t k, int64_t r0, int64_t r1,
                       float* y, int64_t ldy) {
    // the avx512-bf16 and amx-bf16 targets run the VNNI rows, recorded as theirs
    const int64_t special = hand_written_target();
    if (special && cpu_has_avx512_vnni()) {
        gemv_blocks_i4_q8_vnni(w, s, z, group, xq, xs, gsum, m, b, k, r0, r1, y, ldy);
        return note_ran(special);
    }
    ensure_target_chosen();
    HWY_DYNAMIC_DISPATCH(GemvBlocksI4Q8)(w, s, z, group, xq, xs, gsum, m, b, k, r0 / kInt4BlockRows,
                                         r1 / kInt4BlockRows, y, ldy);
    if (special) note_ran(special);
}

}  // namespace reef::kernels
#endif  // HWY_ONCE
