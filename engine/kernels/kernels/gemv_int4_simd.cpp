// kernels/gemv_int4.h in Highway: one source for every target of the build's architecture, the
// best the CPU has chosen at run time. On x86 the AVX2 and AVX-512 passes multiply bytes with
// 256-bit vpmaddubsw (Highway 1.0.3, Debian 12's, has no unsigned·signed byte product), written with
// intrinsics inside those passes, which Highway compiles for their targets.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/gemv_int4_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "kernels/bf16.h"
#include "kernels/cpu_target.h"
#include "kernels/gemv_int4.h"
#include "kernels/gemv_vnni.h"
#include "kernels/input_scan-inl.h"
#include "kernels/input_stats.h"
#include "kernels/two_stream_rows-inl.h"

#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3
#include <immintrin.h>
#endif

HWY_BEFORE_NAMESPACE();
namespace reef::kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// What every target shares: the rows, the prepared input, and the per-group factors and the zero
// term of a row against an input, computed for all groups at once before its integer dots (a
// scalar chain per group would cost as much as the group's dot).
struct Int4Rows {
    const uint8_t* wm;   // [N, k/2]
    const uint16_t* sm;  // [N, k/group] bf16
    const uint16_t* zm;  // [N, k/group] bf16
    const int8_t* xq;    // [m, k]: evens | odds
    const float* xs;     // [m, k/group]
    const float* gsum;   // [m, k/group]
    int64_t k, group;

    static constexpr int64_t kMaxGroups = kInt4MaxGroups;
    int64_t groups() const { return k / group; }

    // f[g] = scale_g · xs_g for row r, input j; returns Σ_g (zero_g − 8·scale_g)·Σ_{i∈g} x_i, the
    // groups' minima times their input sums
    float prepare(int64_t r, int64_t j, float* f) const {
        using DF = hn::ScalableTag<float>;
        const DF df;
        const hn::RebindToUnsigned<DF> du32;
        const hn::Rebind<uint16_t, DF> du16;
        const int64_t n = groups(), lanes = int64_t(hn::Lanes(df));
        const uint16_t *s = sm + r * n, *z = zm + r * n;
        const float *x = xs + j * n, *gs = gsum + j * n;
        auto widen = [&](const uint16_t* p) { return hn::BitCast(df, hn::ShiftLeft<16>(hn::PromoteTo(du32, hn::LoadU(du16, p)))); };
        auto zacc = hn::Zero(df);
        int64_t g = 0;
        for (; g + lanes <= n; g += lanes) {
            const auto sv = widen(s + g);
            hn::StoreU(hn::Mul(sv, hn::LoadU(df, x + g)), df, f + g);
            zacc = hn::Add(zacc, hn::Mul(hn::Sub(widen(z + g), hn::Mul(sv, hn::Set(df, 8.0f))), hn::LoadU(df, gs + g)));
        }
        float zt = hn::GetLane(hn::SumOfLanes(df, zacc));
        for (; g < n; ++g) {
            f[g] = bf16_to_float(s[g]) * x[g];
            zt += (bf16_to_float(z[g]) - 8.0f * bf16_to_float(s[g])) * gs[g];
        }
        return zt;
    }
};

// Portable rows: a step's packed bytes and inputs widened to int16, the nibbles by mask and
// shift, multiply-added into int32 lanes (vpmaddwd, smlal). D16 holds as many int16 lanes as bytes
// are read per step: capped at half a group, so a step never spans two groups.
template <class D16>
struct DotI4 : Int4Rows {
    const D16 d16{};
    const hn::RebindToUnsigned<D16> du16{};
    const hn::Rebind<uint8_t, D16> d8{};
    const hn::Rebind<int8_t, D16> ds8{};
    const hn::RepartitionToWide<D16> d32{};
    const hn::Repartition<float, hn::RepartitionToWide<D16>> df{};
    const int64_t lanes = int64_t(hn::Lanes(D16()));

    std::pair<float, float> two(int64_t ra, int64_t rb, int64_t j) const {
        const int64_t half = k / 2, step = group / 2;
        const uint8_t *wa = wm + ra * half, *wb = wm + rb * half;
        const int8_t* xe = xq + j * k;
        const int8_t* xo = xe + half;
        const auto low = hn::Set(d16, int16_t(0x0F));
        HWY_ALIGN float ka[kMaxGroups], kb[kMaxGroups];
        const float za = prepare(ra, j, ka), zb = prepare(rb, j, kb);
        auto fa = hn::Zero(df), fb = hn::Zero(df);
        for (int64_t g = 0; g < groups(); ++g) {
            auto a0 = hn::Zero(d32), a1 = hn::Zero(d32), b0 = hn::Zero(d32), b1 = hn::Zero(d32);
            for (int64_t i = g * step; i < (g + 1) * step; i += lanes) {
                const auto e = hn::PromoteTo(d16, hn::LoadU(ds8, xe + i)), o = hn::PromoteTo(d16, hn::LoadU(ds8, xo + i));
                const auto va = hn::BitCast(d16, hn::PromoteTo(du16, hn::LoadU(d8, wa + i)));
                const auto vb = hn::BitCast(d16, hn::PromoteTo(du16, hn::LoadU(d8, wb + i)));
                a0 = hn::ReorderWidenMulAccumulate(d32, hn::And(va, low), e, a0, a1);
                b0 = hn::ReorderWidenMulAccumulate(d32, hn::And(vb, low), e, b0, b1);
                a0 = hn::ReorderWidenMulAccumulate(d32, hn::ShiftRight<4>(va), o, a0, a1);
                b0 = hn::ReorderWidenMulAccumulate(d32, hn::ShiftRight<4>(vb), o, b0, b1);
            }
            // product and sum kept apart (-ffp-contract=off, no MulAdd): no target fuses them
            fa = hn::Add(fa, hn::Mul(hn::ConvertTo(df, hn::Add(a0, a1)), hn::Set(df, ka[g])));
            fb = hn::Add(fb, hn::Mul(hn::ConvertTo(df, hn::Add(b0, b1)), hn::Set(df, kb[g])));
        }
        return {hn::GetLane(hn::SumOfLanes(df, fa)) + za, hn::GetLane(hn::SumOfLanes(df, fb)) + zb};
    }
};

#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3
// x86 rows, 32 packed bytes (64 weights) a step per row: the nibbles by mask and shift, each
// vpmaddubsw'd with its int8 inputs (nibble·input pairs summed into int16), the group's int16 sums
// widened once (vpmaddwd with ones), converted, and multiply-added with the group's factor (fused:
// these rows' bits are their own anyway). Group >= 64 (a step within a group). The AVX-512 pass
// runs these 256-bit rows too: 512-bit ones (64 bytes a step) measured slower on the Zen 4 EPYC,
// which splits 512-bit operations in two (in-cache rows of 3072 weights, 4 alternating runs:
// 32-44 against 39-53 G weights/s).
// Each stream's line 2 KiB ahead is prefetched, as the VNNI rows do (gemv_vnni.cpp has the figures):
// forced to AVX2 on the AMX Xeon, 512 MB of int4 rows read at ~15 GB/s without and ~19 with.
constexpr int64_t kInt4Prefetch = 2048;
template <int kSteps>  // 32-byte steps a group: group / 64
struct DotI4Avx2 : Int4Rows {
    static __m256i bytes(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
    static float lane_sum(__m256 v) {
        const __m128 h = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
        const __m128 q = _mm_add_ps(h, _mm_movehl_ps(h, h));
        return _mm_cvtss_f32(_mm_add_ss(q, _mm_movehdup_ps(q)));
    }
    std::pair<float, float> two(int64_t ra, int64_t rb, int64_t j) const {
        constexpr int64_t kStep = 32 * kSteps;  // packed bytes a group
        const int64_t half = k / 2;
        const uint8_t *wa = wm + ra * half, *wb = wm + rb * half;
        const int8_t* xe = xq + j * k;
        const int8_t* xo = xe + half;
        const __m256i low = _mm256_set1_epi8(0x0F), ones = _mm256_set1_epi16(1);
        alignas(32) float ka[kMaxGroups], kb[kMaxGroups];
        const float za = prepare(ra, j, ka), zb = prepare(rb, j, kb);
        // group g's integer dots of rows a and b, converted, times the group's factors; the steps
        // unrolled (a group's count is known here: a loop of one to four steps cost its branches
        // and kept the compiler from holding the pointers in registers)
        auto group_dot = [&](int64_t g, __m256& fa, __m256& fb) {
            const int64_t p0 = g * kStep;
            for (int64_t p = 0; p < kStep; p += 64) hwy::Prefetch(wa + p0 + p + kInt4Prefetch), hwy::Prefetch(wb + p0 + p + kInt4Prefetch);
            __m256i sa = _mm256_setzero_si256(), sb = sa;
            for (int s = 0; s < kSteps; ++s) {
                const int64_t i = p0 + 32 * s;
                const __m256i e = bytes(xe + i), o = bytes(xo + i), va = bytes(wa + i), vb = bytes(wb + i);
                sa = _mm256_add_epi16(sa, _mm256_maddubs_epi16(_mm256_and_si256(va, low), e));
                sb = _mm256_add_epi16(sb, _mm256_maddubs_epi16(_mm256_and_si256(vb, low), e));
                sa = _mm256_add_epi16(sa, _mm256_maddubs_epi16(_mm256_and_si256(_mm256_srli_epi16(va, 4), low), o));
                sb = _mm256_add_epi16(sb, _mm256_maddubs_epi16(_mm256_and_si256(_mm256_srli_epi16(vb, 4), low), o));
            }
            const __m256 ia = _mm256_cvtepi32_ps(_mm256_madd_epi16(sa, ones)), ib = _mm256_cvtepi32_ps(_mm256_madd_epi16(sb, ones));
            fa = _mm256_fmadd_ps(ia, _mm256_broadcast_ss(ka + g), fa);
            fb = _mm256_fmadd_ps(ib, _mm256_broadcast_ss(kb + g), fb);
        };
        // two fp32 accumulators per row, even and odd groups, named (an indexed pair lived in memory):
        // the adds do not wait on each other
        __m256 fa0 = _mm256_setzero_ps(), fa1 = fa0, fb0 = fa0, fb1 = fa0;
        const int64_t n = groups();
        int64_t g = 0;
        for (; g + 2 <= n; g += 2) {
            group_dot(g, fa0, fb0);
            group_dot(g + 1, fa1, fb1);
        }
        if (g < n) group_dot(g, fa0, fb0);
        return {lane_sum(_mm256_add_ps(fa0, fa1)) + za, lane_sum(_mm256_add_ps(fb0, fb1)) + zb};
    }
};
#endif


template <class Dot>
void rows_with(const Dot& dot, int64_t m, const float* b, int64_t r0, int64_t r1, float* y, int64_t ldy) {
    two_stream_rows(dot, r0, r1, m, [&](int64_t j, int64_t r, float v) { y[j * ldy + r] = b ? v + b[r] : v; });
}

// Dequantization, 16 packed bytes (32 weights) a step in 128-bit vectors on every target (the
// lookups work within 128-bit blocks): the group's 16 values as bf16, split into a table of their
// low bytes and one of their high bytes; each step's nibbles, in element order (byte j: weight 2j
// low, 2j+1 high), index both tables, and the two byte streams interleave into bf16 values.
void DequantizeRowsI4Bf16(const uint8_t* w, const uint16_t* s, const uint16_t* z, int64_t group, int64_t k, int64_t r0,
                          int64_t r1, uint16_t* out) {
    const int64_t groups = k / group;
    HWY_ALIGN uint16_t table[16];
    for (int64_t r = r0; r < r1; ++r) {
        const uint8_t* row = w + r * (k / 2);
        uint16_t* o = out + r * k;
        for (int64_t g = 0; g < groups; ++g) {
            const float sc = bf16_to_float(s[r * groups + g]), zero = bf16_to_float(z[r * groups + g]);
            for (int q = 0; q < 16; ++q) table[q] = float_to_bf16(float(q - 8) * sc + zero);
            const int64_t begin = g * group / 2, end = (g + 1) * group / 2;
#if HWY_TARGET == HWY_SCALAR
            for (int64_t i = begin; i < end; ++i) {
                o[2 * i] = table[row[i] & 0x0F];
                o[2 * i + 1] = table[row[i] >> 4];
            }
#else
            const hn::Full128<uint8_t> d8;
            const hn::Full128<uint16_t> d16;
            HWY_ALIGN uint8_t lo_table[16], hi_table[16];
            for (int q = 0; q < 16; ++q) lo_table[q] = uint8_t(table[q] & 0xFF), hi_table[q] = uint8_t(table[q] >> 8);
            const auto lo_t = hn::Load(d8, lo_table), hi_t = hn::Load(d8, hi_table);
            const auto mask = hn::Set(d8, uint8_t(0x0F));
            for (int64_t i = begin; i < end; i += 16) {
                const auto v = hn::LoadU(d8, row + i);
                const auto lo = hn::And(v, mask);
                const auto hi = hn::And(hn::BitCast(d8, hn::ShiftRight<4>(hn::BitCast(d16, v))), mask);
                // nibble indices in element order: weights 2i..2i+15, then 2i+16..2i+31
                const auto idx0 = hn::InterleaveLower(d8, lo, hi), idx1 = hn::InterleaveUpper(d8, lo, hi);
                const auto l0 = hn::TableLookupBytes(lo_t, idx0), h0 = hn::TableLookupBytes(hi_t, idx0);
                const auto l1 = hn::TableLookupBytes(lo_t, idx1), h1 = hn::TableLookupBytes(hi_t, idx1);
                uint16_t* dst = o + 2 * i;
                hn::StoreU(hn::BitCast(d16, hn::InterleaveLower(d8, l0, h0)), d16, dst);
                hn::StoreU(hn::BitCast(d16, hn::InterleaveUpper(d8, l0, h0)), d16, dst + 8);
                hn::StoreU(hn::BitCast(d16, hn::InterleaveLower(d8, l1, h1)), d16, dst + 16);
                hn::StoreU(hn::BitCast(d16, hn::InterleaveUpper(d8, l1, h1)), d16, dst + 24);
            }
#endif
        }
    }
}

// prepare_row_q8_i4 (gemv_int4.h) in vectors, with the scalar version's bits on every target: the
// group sums are input_stats' four strided double sums in the same order, four groups at a time
// (their chains are independent: one group's chain alone waits ~4 cycles an element), the maxima
// are exact in any order, and the rounding is the same float operations per element. It runs on
// the calling thread while the others wait, once per GEMV: ~1.2 µs of a ~18 µs call at K = 1024
// as scalar loops (the AMX Xeon).
void PrepareRowQ8I4(const float* x, int64_t k, int64_t group, int8_t* xq, float* xs, float* gsum) {
    const InputTag df;
    const hn::Rebind<int32_t, decltype(df)> di;
    const hn::Rebind<int8_t, decltype(df)> d8;
    const hn::CappedTag<double, 4> dd;
    const hn::Rebind<float, decltype(dd)> df4;
    const int64_t groups = k / group, lanes = int64_t(hn::Lanes(df));
    int64_t g = 0;
    if (hn::Lanes(dd) == 4) {
        HWY_ALIGN double part[4];
        auto sum_of = [&](const decltype(hn::Zero(dd))& v) {
            hn::Store(v, dd, part);
            return (part[0] + part[1]) + (part[2] + part[3]);
        };
        for (; g + 4 <= groups; g += 4) {
            const float* x0 = x + g * group;
            auto s0 = hn::Zero(dd), s1 = s0, s2 = s0, s3 = s0;
            for (int64_t i = 0; i < group; i += 4) {
                s0 = hn::Add(s0, hn::PromoteTo(dd, hn::LoadU(df4, x0 + i)));
                s1 = hn::Add(s1, hn::PromoteTo(dd, hn::LoadU(df4, x0 + group + i)));
                s2 = hn::Add(s2, hn::PromoteTo(dd, hn::LoadU(df4, x0 + 2 * group + i)));
                s3 = hn::Add(s3, hn::PromoteTo(dd, hn::LoadU(df4, x0 + 3 * group + i)));
            }
            gsum[g] = float(sum_of(s0)), gsum[g + 1] = float(sum_of(s1));
            gsum[g + 2] = float(sum_of(s2)), gsum[g + 3] = float(sum_of(s3));
        }
    }
    for (; g < groups; ++g) gsum[g] = float(input_stats(x + g * group, group).sum);
    const auto magic = hn::Set(df, 12582912.0f), top = hn::Set(df, 127.0f), bottom = hn::Set(df, -127.0f);
    for (g = 0; g < groups; ++g) {
        const float* xg = x + g * group;
        const InputScan scan = scan_input(xg, group);  // group / 2 >= 16 >= lanes
        const bool ok = scan.finite;
        const float mx = scan.top;
        xs[g] = !ok ? NAN : mx / 127.0f;
        int8_t* e = xq + g * group / 2;
        int8_t* o = xq + k / 2 + g * group / 2;
        if (!ok || mx == 0) {  // all zeros: the outputs are 0 (or NaN through xs) whatever they hold
            std::fill(e, e + group / 2, int8_t(0));
            std::fill(o, o + group / 2, int8_t(0));
            continue;
        }
        // |x·inv| <= 127 (rounded up by at most an ulp): rounds to -127..127 (round_small's adds)
        const auto inv = hn::Set(df, 127.0f / mx);
        auto q = [&](decltype(inv) v) {
            const auto r = hn::Sub(hn::Add(hn::Mul(v, inv), magic), magic);
            return hn::DemoteTo(d8, hn::ConvertTo(di, hn::Min(hn::Max(r, bottom), top)));
        };
        for (int64_t i = 0; i < group / 2; i += lanes) {
            hn::Vec<decltype(df)> ev, od;
            hn::LoadInterleaved2(df, xg + 2 * i, ev, od);
            hn::StoreU(q(ev), d8, e + i);
            hn::StoreU(q(od), d8, o + i);
        }
    }
}

void GemvRowsI4Q8(const uint8_t* w, const uint16_t* s, const uint16_t* z, int64_t group, const int8_t* xq,
                  const float* xs, const float* gsum, int64_t m, const float* b, int64_t k, int64_t r0, int64_t r1,
                  float* y, int64_t ldy) {
    const Int4Rows rows{w, s, z, xq, xs, gsum, k, group};
#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3
    if (group == 64) return rows_with(DotI4Avx2<1>{rows}, m, b, r0, r1, y, ldy);
    if (group == 128) return rows_with(DotI4Avx2<2>{rows}, m, b, r0, r1, y, ldy);
    if (group == 256) return rows_with(DotI4Avx2<4>{rows}, m, b, r0, r1, y, ldy);
#endif
    // bytes per step <= group / 2: a step never spans two groups
    if (group == 32)
        rows_with(DotI4<hn::CappedTag<int16_t, 16>>{rows}, m, b, r0, r1, y, ldy);
    else
        rows_with(DotI4<hn::CappedTag<int16_t, 32>>{rows}, m, b, r0, r1, y, ldy);
}

}  // namespace HWY_NAMESPACE
}  // namespace reef::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace reef::kernels {
HWY_EXPORT(GemvRowsI4Q8);
HWY_EXPORT(DequantizeRowsI4Bf16);
HWY_EXPORT(PrepareRowQ8I4);

void dequantize_rows_i4_bf16(const uint8_t* w, const uint16_t* s, const uint16_t* z, int64_t group, int64_t k,
                             int64_t r0, int64_t r1, uint16_t* out) {
    HWY_DYNAMIC_DISPATCH(DequantizeRowsI4Bf16)(w, s, z, group, k, r0, r1, out);
}

void prepare_row_q8_i4(const float* x, int64_t k, int64_t group, int8_t* xq, float* xs, float* gsum) {
    ensure_target_chosen();
    HWY_DYNAMIC_DISPATCH(PrepareRowQ8I4)(x, k, group, xq, xs, gsum);
}

void gemv_rows_i4_q8(const uint8_t* w, const uint16_t* s, const uint16_t* z, int64_t group, const int8_t* xq,
                     const float* xs, const float* gsum, int64_t m, const float* b, int64_t k, int64_t r0, int64_t r1,
                     float* y, int64_t ldy) {
    // The avx512-bf16 and amx-bf16 targets run the VNNI rows (group >= 64: a 256-bit step within a
    // group); group 32 takes Highway's AVX-512 rows, recorded as that target's.
    const int64_t special = hand_written_target();
    if (special && group >= 64 && cpu_has_avx512_vnni()) {
        gemv_rows_i4_q8_vnni(w, s, z, group, xq, xs, gsum, m, b, k, r0, r1, y, ldy);
        return note_ran(special);
    }
    HWY_DYNAMIC_DISPATCH(GemvRowsI4Q8)(w, s, z, group, xq, xs, gsum, m, b, k, r0, r1, y, ldy);
    if (special) note_ran(special);
}

}  // namespace reef::kernels
#endif  // HWY_ONCE
