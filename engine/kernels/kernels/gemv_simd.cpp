// The GEMV rows of kernels/gemv_rows.h in Highway: one source, compiled for every target of the
// build's architecture (foreach_target), the best the CPU has chosen at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/gemv_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <utility>


#include "kernels/bf16.h"
#include "kernels/cpu_target.h"
#include "kernels/gemv_rows.h"

HWY_BEFORE_NAMESPACE();
namespace reef::kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

inline float out_value(float v, const float* b, int64_t r) { return b ? v + b[r] : v; }
inline uint16_t out_value(float v, const uint16_t* b, int64_t r) {
    return float_to_bf16(b ? v + bf16_to_float(b[r]) : v);  // one rounding, as a bf16 GEMM
}

// Rows r0..r1 are one contiguous block of the matrix. It is read as two sequential streams, its
// first half and its second half front to back, one row of each per pass sharing the loads of x:
// long streams that the hardware prefetchers follow, two of them for more reads in flight.
// (Measured with one thread over 400 MB of s1-mini-shaped bf16 matrices on the AVX2 EPYC this was
// developed on: four adjacent rows at a time, as the AVX-512 BF16 kernel reads, 8-11 GB/s; two
// adjacent rows as slow; one row after another 19-22; the two halves 20-25, and 15-17 against
// 12 for 9728-wide rows.) `dot2(a, b)` returns the two rows' sums, `dot1(a)` one row's.
template <typename T, typename Dot2, typename Dot1>
void two_streams(const T* w, const T* b, int64_t k, int64_t r0, int64_t r1, T* y, Dot2&& dot2, Dot1&& dot1) {
    const int64_t half = (r1 - r0) / 2;
    for (int64_t r = r0; r < r0 + half; ++r) {
        const auto [va, vb] = dot2(w + r * k, w + (r + half) * k);
        y[r] = out_value(va, b, r);
        y[r + half] = out_value(vb, b, r + half);
    }
    if ((r1 - r0) % 2) y[r1 - 1] = out_value(dot1(w + (r1 - 1) * k), b, r1 - 1);
}

// fp32: fused multiply-adds of each row's vectors with the same vector of x.
void GemvRowsF32(const float* w, const float* x, const float* b, int64_t k, int64_t r0, int64_t r1, float* y) {
    const hn::ScalableTag<float> d;
    const int64_t lanes = int64_t(hn::Lanes(d));
    const int64_t kv = k - k % lanes;  // vector part; the rest is a scalar tail
    auto tail = [&](const float* wr) {
        float v = 0;
        for (int64_t i = kv; i < k; ++i) v += wr[i] * x[i];
        return v;
    };
    auto dot2 = [&](const float* wa, const float* wb) {
        auto a0 = hn::Zero(d), a1 = hn::Zero(d), b0 = hn::Zero(d), b1 = hn::Zero(d);
        int64_t i = 0;
        for (; i + 2 * lanes <= kv; i += 2 * lanes) {
            const auto x0 = hn::LoadU(d, x + i), x1 = hn::LoadU(d, x + i + lanes);
            a0 = hn::MulAdd(hn::LoadU(d, wa + i), x0, a0);
            b0 = hn::MulAdd(hn::LoadU(d, wb + i), x0, b0);
            a1 = hn::MulAdd(hn::LoadU(d, wa + i + lanes), x1, a1);
            b1 = hn::MulAdd(hn::LoadU(d, wb + i + lanes), x1, b1);
        }
        for (; i < kv; i += lanes) {
            const auto x0 = hn::LoadU(d, x + i);
            a0 = hn::MulAdd(hn::LoadU(d, wa + i), x0, a0);
            b0 = hn::MulAdd(hn::LoadU(d, wb + i), x0, b0);
        }
        return std::pair<float, float>{hn::GetLane(hn::SumOfLanes(d, hn::Add(a0, a1))) + tail(wa),
                                       hn::GetLane(hn::SumOfLanes(d, hn::Add(b0, b1))) + tail(wb)};
    };
    auto dot1 = [&](const float* wa) {
        auto a0 = hn::Zero(d);
        for (int64_t i = 0; i < kv; i += lanes) a0 = hn::MulAdd(hn::LoadU(d, wa + i), hn::LoadU(d, x + i), a0);
        return hn::GetLane(hn::SumOfLanes(d, a0)) + tail(wa);
    };
    two_streams(w, b, k, r0, r1, y, dot2, dot1);
    note_ran(HWY_TARGET);
}

// bf16: a 32-bit lane holds a pair (v[2j], v[2j+1]); a bf16 is the upper half of an fp32, so
// shifting the lane left by 16 gives v[2j] and masking off the low half gives v[2j+1], exactly,
// with no conversion instruction (AVX2 and NEON have none). Weights and x are widened alike, the
// even halves multiplied together and the odd halves together. (Splitting x into fp32 even/odd
// arrays once per call saves two integer ops a step but makes x 4·K bytes, which long rows then
// evict from L1: 9-14 GB/s against 13-24 widening on the fly, K = 1024-9728, on the AVX2 EPYC.)
void GemvRowsBf16(const uint16_t* w, const uint16_t* x, const uint16_t* b, int64_t k, int64_t r0, int64_t r1,
                  uint16_t* y) {
    const hn::ScalableTag<float> d;
    const hn::RebindToUnsigned<decltype(d)> du;
    const int64_t step = 2 * int64_t(hn::Lanes(d));  // bf16 values per vector
    const int64_t kv = k - k % step;                 // vector part; the rest is a scalar tail
    const auto high = hn::Set(du, 0xFFFF0000u);
    auto pairs = [&](const uint16_t* p) { return hn::LoadU(du, reinterpret_cast<const uint32_t*>(p)); };
    auto even = [&](auto v) { return hn::BitCast(d, hn::ShiftLeft<16>(v)); };
    auto odd = [&](auto v) { return hn::BitCast(d, hn::And(v, high)); };
    auto tail = [&](const uint16_t* wr) {
        float v = 0;
        for (int64_t i = kv; i < k; ++i) v += bf16_to_float(wr[i]) * bf16_to_float(x[i]);
        return v;
    };
    auto dot2 = [&](const uint16_t* wa, const uint16_t* wb) {
        auto ea = hn::Zero(d), oa = hn::Zero(d), eb = hn::Zero(d), ob = hn::Zero(d);
        for (int64_t i = 0; i < kv; i += step) {
            const auto xp = pairs(x + i), pa = pairs(wa + i), pb = pairs(wb + i);
            const auto xe = even(xp), xo = odd(xp);
            ea = hn::MulAdd(even(pa), xe, ea);
            oa = hn::MulAdd(odd(pa), xo, oa);
            eb = hn::MulAdd(even(pb), xe, eb);
            ob = hn::MulAdd(odd(pb), xo, ob);
        }
        return std::pair<float, float>{hn::GetLane(hn::SumOfLanes(d, hn::Add(ea, oa))) + tail(wa),
                                       hn::GetLane(hn::SumOfLanes(d, hn::Add(eb, ob))) + tail(wb)};
    };
    auto dot1 = [&](const uint16_t* wa) {
        auto ea = hn::Zero(d), oa = hn::Zero(d);
        for (int64_t i = 0; i < kv; i += step) {
            const auto xp = pairs(x + i), pa = pairs(wa + i);
            ea = hn::MulAdd(even(pa), even(xp), ea);
            oa = hn::MulAdd(odd(pa), odd(xp), oa);
        }
        return hn::GetLane(hn::SumOfLanes(d, hn::Add(ea, oa))) + tail(wa);
    };
    two_streams(w, b, k, r0, r1, y, dot2, dot1);
    note_ran(HWY_TARGET);
}

}  // namespace HWY_NAMESPACE
}  // namespace reef::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace reef::kernels {
HWY_EXPORT(GemvRowsF32);
HWY_EXPORT(GemvRowsBf16);

// use_avx512_bf16_gemv() also applies REEF_CPU_TARGET before the first dispatch.
void gemv_rows_f32(const float* w, const float* x, const float* b, int64_t k, int64_t r0, int64_t r1, float* y) {
    if (use_avx512_bf16_gemv() && k % 32 == 0) return gemv_rows_f32_avx512_bf16(w, x, b, k, r0, r1, y);
    HWY_DYNAMIC_DISPATCH(GemvRowsF32)(w, x, b, k, r0, r1, y);
}

void gemv_rows_bf16(const uint16_t* w, const uint16_t* x, const uint16_t* b, int64_t k, int64_t r0, int64_t r1,
                    uint16_t* y) {
    if (use_avx512_bf16_gemv() && k % 32 == 0) return gemv_rows_bf16_avx512_bf16(w, x, b, k, r0, r1, y);
    HWY_DYNAMIC_DISPATCH(GemvRowsBf16)(w, x, b, k, r0, r1, y);
}

}  // namespace reef::kernels
#endif  // HWY_ONCE
