// kernels/gemv_int4.h in Highway: one source for every target of the build's architecture, the
// best the CPU has chosen at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/gemv_int4_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cmath>
#include <utility>
#include <vector>

#include "kernels/bf16.h"
#include "kernels/cpu_target.h"
#include "kernels/gemv_int4.h"
#include "kernels/gemv_int8.h"
#include "kernels/two_stream_rows-inl.h"

HWY_BEFORE_NAMESPACE();
namespace reef::kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Two rows of packed int4 against one prepared input. D16 holds as many int16 lanes as bytes are
// read per step: capped at half a group (16 bytes for group 32), so a step never spans two groups.
// Per step: one load of packed bytes widened to int16, the low nibbles (and) and the high ones
// (shift), each multiply-added with the matching even/odd inputs into int32 lanes (vpmaddwd).
template <class D16>
struct DotI4 {
    const uint8_t* wm;      // [N, k/2]
    const uint16_t* sm;     // [N, k/group] bf16
    const uint16_t* zm;     // [N, k/group] bf16
    const int16_t* xq;      // [m, k]: evens | odds
    const float* gsum;      // [m, k/group]
    int64_t k, group;
    const D16 d16{};
    const hn::RebindToUnsigned<D16> du16{};
    const hn::Rebind<uint8_t, D16> d8{};
    const hn::RepartitionToWide<D16> d32{};
    const hn::Repartition<float, hn::RepartitionToWide<D16>> df{};
    const int64_t lanes = int64_t(hn::Lanes(d16));

    // The packed bytes at p as int16 lanes (0..255).
    auto bytes(const uint8_t* p) const { return hn::BitCast(d16, hn::PromoteTo(du16, hn::LoadU(d8, p))); }

    std::pair<float, float> two(int64_t ra, int64_t rb, int64_t j) const {
        const int64_t half = k / 2, groups = k / group, step = group / 2;
        const uint8_t *wa = wm + ra * half, *wb = wm + rb * half;
        const int16_t* xe = xq + j * k;
        const int16_t* xo = xe + half;
        const auto low = hn::Set(d16, int16_t(0x0F));
        auto fa = hn::Zero(df), fb = hn::Zero(df);
        for (int64_t g = 0; g < groups; ++g) {
            auto a0 = hn::Zero(d32), a1 = hn::Zero(d32), b0 = hn::Zero(d32), b1 = hn::Zero(d32);
            for (int64_t i = g * step; i < (g + 1) * step; i += lanes) {
                const auto e = hn::LoadU(d16, xe + i), o = hn::LoadU(d16, xo + i);
                const auto va = bytes(wa + i), vb = bytes(wb + i);
                a0 = hn::ReorderWidenMulAccumulate(d32, hn::And(va, low), e, a0, a1);
                b0 = hn::ReorderWidenMulAccumulate(d32, hn::And(vb, low), e, b0, b1);
                a0 = hn::ReorderWidenMulAccumulate(d32, hn::ShiftRight<4>(va), o, a0, a1);
                b0 = hn::ReorderWidenMulAccumulate(d32, hn::ShiftRight<4>(vb), o, b0, b1);
            }
            // product and sum kept apart (-ffp-contract=off, no MulAdd): no target fuses them
            fa = hn::Add(fa, hn::Mul(hn::ConvertTo(df, hn::Add(a0, a1)), hn::Set(df, bf16_to_float(sm[ra * groups + g]))));
            fb = hn::Add(fb, hn::Mul(hn::ConvertTo(df, hn::Add(b0, b1)), hn::Set(df, bf16_to_float(sm[rb * groups + g]))));
        }
        return {hn::GetLane(hn::SumOfLanes(df, fa)) + zero_term(ra, j), hn::GetLane(hn::SumOfLanes(df, fb)) + zero_term(rb, j)};
    }

    // Σ_g (zero_g − 8·scale_g)·Σ_{i∈g} xq_i for row r, input j: the groups' minima times their input sums
    float zero_term(int64_t r, int64_t j) const {
        const int64_t groups = k / group;
        const float* gs = gsum + j * groups;
        double t = 0;
        for (int64_t g = 0; g < groups; ++g)
            t += (double(bf16_to_float(zm[r * groups + g])) - 8.0 * double(bf16_to_float(sm[r * groups + g]))) * gs[g];
        return float(t);
    }
};

template <class D16>
void rows_with(const D16&, const uint8_t* w, const uint16_t* s, const uint16_t* z, int64_t group, const int16_t* xq,
               const float* gsum, const float* sx, int64_t m, const float* b, int64_t k, int64_t r0, int64_t r1,
               float* y, int64_t ldy) {
    two_stream_rows(DotI4<D16>{w, s, z, xq, gsum, k, group}, r0, r1, m, [&](int64_t j, int64_t r, float total) {
        const float v = float(double(total) * double(sx[j]));
        y[j * ldy + r] = b ? v + b[r] : v;
    });
}

void GemvRowsI4Q16(const uint8_t* w, const uint16_t* s, const uint16_t* z, int64_t group, const int16_t* xq,
                   const float* gsum, const float* sx, int64_t m, const float* b, int64_t k, int64_t r0, int64_t r1,
                   float* y, int64_t ldy) {
    // bytes per step <= group / 2: a step never spans two groups
    if (group == 32)
        rows_with(hn::CappedTag<int16_t, 16>(), w, s, z, group, xq, gsum, sx, m, b, k, r0, r1, y, ldy);
    else
        rows_with(hn::CappedTag<int16_t, 32>(), w, s, z, group, xq, gsum, sx, m, b, k, r0, r1, y, ldy);
}

}  // namespace HWY_NAMESPACE
}  // namespace reef::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace reef::kernels {
HWY_EXPORT(GemvRowsI4Q16);

float prepare_row_q16_i4(const float* x, int64_t k, int64_t group, int16_t* xq, float* gsum) {
    thread_local std::vector<int16_t> q;
    q.resize(size_t(k));
    const float sx = quantize_row_q16(x, k, q.data());
    const int64_t half = k / 2;
    for (int64_t j = 0; j < half; ++j) {
        xq[j] = q[size_t(2 * j)];
        xq[half + j] = q[size_t(2 * j + 1)];
    }
    for (int64_t g = 0; g < k / group; ++g) {
        int64_t t = 0;
        for (int64_t i = g * group; i < (g + 1) * group; ++i) t += q[size_t(i)];
        gsum[g] = float(t);
    }
    return sx;
}

void gemv_rows_i4_q16(const uint8_t* w, const uint16_t* s, const uint16_t* z, int64_t group, const int16_t* xq,
                      const float* gsum, const float* sx, int64_t m, const float* b, int64_t k, int64_t r0, int64_t r1,
                      float* y, int64_t ldy) {
    // The avx512-bf16 target has no int4 kernel of its own: Highway's AVX-512 rows run, recorded as
    // that target's (as the int8 rows are).
    const bool bf16_target = use_avx512_bf16_gemv();
    HWY_DYNAMIC_DISPATCH(GemvRowsI4Q16)(w, s, z, group, xq, gsum, sx, m, b, k, r0, r1, y, ldy);
    if (bf16_target) note_ran(kRanAvx512Bf16);
}

}  // namespace reef::kernels
#endif  // HWY_ONCE
