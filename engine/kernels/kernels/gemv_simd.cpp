// The GEMV rows of kernels/gemv_rows.h in Highway: one source, compiled for every target of the
// build's architecture (foreach_target), the best the CPU has chosen at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/gemv_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <utility>
#include <vector>


#include "kernels/bf16.h"
#include "kernels/cpu_target.h"
#include "kernels/gemv_rows.h"

HWY_BEFORE_NAMESPACE();
namespace reef::kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

inline float out_value(float v, const float* b, int64_t r) { return b ? v + b[r] : v; }
inline uint16_t out_value(float v, const uint16_t* b, int64_t r) { return bf16_output(v, b, r); }

// Rows r0..r1 are one contiguous block of the matrix. It is read as two sequential streams, its
// first half and its second half front to back, one row of each per pass sharing the loads of x:
// long streams that the hardware prefetchers follow, two of them for more reads in flight.
// (Measured with one thread over 400 MB of s1-mini-shaped bf16 matrices on the AVX2 EPYC this was
// developed on: four adjacent rows at a time, as the AVX-512 BF16 kernel reads, 8-11 GB/s; two
// adjacent rows as slow; one row after another 19-22; the two halves 20-25, and 15-17 against
// 12 for 9728-wide rows.)
// With m inputs (a batch of sequences decoding together), each pass runs the same two rows against
// every input in turn: the first reads them from memory, the others from cache, so the weights
// cross the memory bus once per call whatever m is. `dot.two(a, b, x)` returns rows a and b
// against x, `dot.one(a, x)` one row; for m = 1 this is the one-row GEMV itself, so every output
// of a batched call is bit-identical to the one-row call's over the same r0..r1.
template <typename T, typename Dot>
void two_streams(const T* w, const T* b, int64_t k, int64_t r0, int64_t r1, int64_t m, const T* x, int64_t ldx,
                 T* y, int64_t ldy, const Dot& dot) {
    const int64_t half = (r1 - r0) / 2;
    for (int64_t r = r0; r < r0 + half; ++r) {
        for (int64_t j = 0; j < m; ++j) {
            const auto [va, vb] = dot.two(w + r * k, w + (r + half) * k, x + j * ldx);
            T* yj = y + j * ldy;
            yj[r] = out_value(va, b, r);
            yj[r + half] = out_value(vb, b, r + half);
        }
    }
    if ((r1 - r0) % 2)
        for (int64_t j = 0; j < m; ++j) y[j * ldy + r1 - 1] = out_value(dot.one(w + (r1 - 1) * k, x + j * ldx), b, r1 - 1);
}

// fp32: fused multiply-adds of each row's vectors with the same vector of x.
struct DotF32 {
    int64_t k;
    const hn::ScalableTag<float> d{};
    const int64_t lanes = int64_t(hn::Lanes(d));
    const int64_t kv = k - k % lanes;  // vector part; the rest is a scalar tail

    float tail(const float* wr, const float* x) const {
        float v = 0;
        for (int64_t i = kv; i < k; ++i) v += wr[i] * x[i];
        return v;
    }
    std::pair<float, float> two(const float* wa, const float* wb, const float* x) const {
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
        return {hn::GetLane(hn::SumOfLanes(d, hn::Add(a0, a1))) + tail(wa, x),
                hn::GetLane(hn::SumOfLanes(d, hn::Add(b0, b1))) + tail(wb, x)};
    }
    float one(const float* wa, const float* x) const {
        auto a0 = hn::Zero(d);
        for (int64_t i = 0; i < kv; i += lanes) a0 = hn::MulAdd(hn::LoadU(d, wa + i), hn::LoadU(d, x + i), a0);
        return hn::GetLane(hn::SumOfLanes(d, a0)) + tail(wa, x);
    }
};

// bf16: a 32-bit lane holds a pair (v[2j], v[2j+1]); a bf16 is the upper half of an fp32, so
// shifting the lane left by 16 gives v[2j] and masking off the low half gives v[2j+1], exactly,
// with no conversion instruction (AVX2 and NEON have none). Weights and x are widened alike, the
// even halves multiplied together and the odd halves together. (Splitting x into fp32 even/odd
// arrays once per call saves two integer ops a step but makes x 4·K bytes, which long rows then
// evict from L1: 9-14 GB/s against 13-24 widening on the fly, K = 1024-9728, on the AVX2 EPYC.)
struct DotBf16 {
    using DF = hn::ScalableTag<float>;
    using DU = hn::RebindToUnsigned<DF>;
    int64_t k;
    const DF d{};
    const DU du{};
    const int64_t step = 2 * int64_t(hn::Lanes(d));  // bf16 values per vector
    const int64_t kv = k - k % step;                 // vector part; the rest is a scalar tail

    auto pairs(const uint16_t* p) const { return hn::LoadU(du, reinterpret_cast<const uint32_t*>(p)); }
    template <typename V>
    auto even(V v) const { return hn::BitCast(d, hn::ShiftLeft<16>(v)); }
    template <typename V>
    auto odd(V v) const { return hn::BitCast(d, hn::And(v, hn::Set(du, 0xFFFF0000u))); }
    float tail(const uint16_t* wr, const uint16_t* x) const {
        float v = 0;
        for (int64_t i = kv; i < k; ++i) v += bf16_to_float(wr[i]) * bf16_to_float(x[i]);
        return v;
    }
    std::pair<float, float> two(const uint16_t* wa, const uint16_t* wb, const uint16_t* x) const {
        auto ea = hn::Zero(d), oa = hn::Zero(d), eb = hn::Zero(d), ob = hn::Zero(d);
        for (int64_t i = 0; i < kv; i += step) {
            const auto xp = pairs(x + i), pa = pairs(wa + i), pb = pairs(wb + i);
            const auto xe = even(xp), xo = odd(xp);
            ea = hn::MulAdd(even(pa), xe, ea);
            oa = hn::MulAdd(odd(pa), xo, oa);
            eb = hn::MulAdd(even(pb), xe, eb);
            ob = hn::MulAdd(odd(pb), xo, ob);
        }
        return {hn::GetLane(hn::SumOfLanes(d, hn::Add(ea, oa))) + tail(wa, x),
                hn::GetLane(hn::SumOfLanes(d, hn::Add(eb, ob))) + tail(wb, x)};
    }
    float one(const uint16_t* wa, const uint16_t* x) const {
        auto ea = hn::Zero(d), oa = hn::Zero(d);
        for (int64_t i = 0; i < kv; i += step) {
            const auto xp = pairs(x + i), pa = pairs(wa + i);
            ea = hn::MulAdd(even(pa), even(xp), ea);
            oa = hn::MulAdd(odd(pa), odd(xp), oa);
        }
        return hn::GetLane(hn::SumOfLanes(d, hn::Add(ea, oa))) + tail(wa, x);
    }
};

void GemvRowsF32(const float* w, const float* x, const float* b, int64_t k, int64_t r0, int64_t r1, float* y) {
    two_streams(w, b, k, r0, r1, 1, x, 0, y, 0, DotF32{k});
    note_ran(HWY_TARGET);
}

void GemvRowsBf16(const uint16_t* w, const uint16_t* x, const uint16_t* b, int64_t k, int64_t r0, int64_t r1,
                  uint16_t* y) {
    two_streams(w, b, k, r0, r1, 1, x, 0, y, 0, DotBf16{k});
    note_ran(HWY_TARGET);
}

void GemvRowsF32Batch(const float* w, const float* x, int64_t ldx, int64_t m, const float* b, int64_t k, int64_t r0,
                      int64_t r1, float* y, int64_t ldy) {
    two_streams(w, b, k, r0, r1, m, x, ldx, y, ldy, DotF32{k});
    note_ran(HWY_TARGET);
}

// The batched bf16 rows, where reading the rows from cache leaves the widening as the cost: the
// inputs are widened once per call into fp32 even/odd halves (exactly the values DotBf16 widens
// on the fly), and each pass runs the two rows of the two streams against two inputs at a time,
// so each widened weight vector serves both. Per row and input the arithmetic is DotBf16::two's,
// in its order (even and odd accumulators over i, then one sum), so the bits are the one-row
// kernel's; an odd input out and the odd last row go through DotBf16 itself.
void GemvRowsBf16Batch(const uint16_t* w, const uint16_t* x, int64_t ldx, int64_t m, const uint16_t* b, int64_t k,
                       int64_t r0, int64_t r1, uint16_t* y, int64_t ldy) {
    const DotBf16 dot{k};
    const hn::ScalableTag<float> d;
    const int64_t kh = dot.kv / 2;   // pairs in the vector part
    thread_local std::vector<float> split;   // per input: kh even values, then kh odd values
    split.resize(size_t(m * 2 * kh));
    for (int64_t j = 0; j < m; ++j) {
        const uint16_t* xj = x + j * ldx;
        float* e = split.data() + j * 2 * kh;
        for (int64_t t = 0; t < kh; ++t) {
            e[t] = bf16_to_float(xj[2 * t]);
            e[kh + t] = bf16_to_float(xj[2 * t + 1]);
        }
    }
    auto put = [&](int64_t j, int64_t r, float v) { y[j * ldy + r] = out_value(v, b, r); };
    const int64_t half = (r1 - r0) / 2;
    for (int64_t ra = r0; ra < r0 + half; ++ra) {
        const int64_t rb = ra + half;
        const uint16_t *wa = w + ra * k, *wb = w + rb * k;
        int64_t j = 0;
        for (; j + 2 <= m; j += 2) {
            const float *xe0 = split.data() + j * 2 * kh, *xo0 = xe0 + kh, *xe1 = xo0 + kh, *xo1 = xe1 + kh;
            auto e0a = hn::Zero(d), o0a = hn::Zero(d), e0b = hn::Zero(d), o0b = hn::Zero(d);
            auto e1a = hn::Zero(d), o1a = hn::Zero(d), e1b = hn::Zero(d), o1b = hn::Zero(d);
            for (int64_t i = 0; i < dot.kv; i += dot.step) {
                const int64_t t = i / 2;
                const auto pa = dot.pairs(wa + i), pb = dot.pairs(wb + i);
                const auto wae = dot.even(pa), wao = dot.odd(pa), wbe = dot.even(pb), wbo = dot.odd(pb);
                const auto x0e = hn::LoadU(d, xe0 + t), x0o = hn::LoadU(d, xo0 + t);
                e0a = hn::MulAdd(wae, x0e, e0a);
                o0a = hn::MulAdd(wao, x0o, o0a);
                e0b = hn::MulAdd(wbe, x0e, e0b);
                o0b = hn::MulAdd(wbo, x0o, o0b);
                const auto x1e = hn::LoadU(d, xe1 + t), x1o = hn::LoadU(d, xo1 + t);
                e1a = hn::MulAdd(wae, x1e, e1a);
                o1a = hn::MulAdd(wao, x1o, o1a);
                e1b = hn::MulAdd(wbe, x1e, e1b);
                o1b = hn::MulAdd(wbo, x1o, o1b);
            }
            const uint16_t *x0 = x + j * ldx, *x1 = x0 + ldx;
            put(j, ra, hn::GetLane(hn::SumOfLanes(d, hn::Add(e0a, o0a))) + dot.tail(wa, x0));
            put(j, rb, hn::GetLane(hn::SumOfLanes(d, hn::Add(e0b, o0b))) + dot.tail(wb, x0));
            put(j + 1, ra, hn::GetLane(hn::SumOfLanes(d, hn::Add(e1a, o1a))) + dot.tail(wa, x1));
            put(j + 1, rb, hn::GetLane(hn::SumOfLanes(d, hn::Add(e1b, o1b))) + dot.tail(wb, x1));
        }
        for (; j < m; ++j) {
            const auto [va, vb] = dot.two(wa, wb, x + j * ldx);
            put(j, ra, va);
            put(j, rb, vb);
        }
    }
    if ((r1 - r0) % 2)
        for (int64_t j = 0; j < m; ++j) put(j, r1 - 1, dot.one(w + (r1 - 1) * k, x + j * ldx));
    note_ran(HWY_TARGET);
}

}  // namespace HWY_NAMESPACE
}  // namespace reef::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace reef::kernels {
HWY_EXPORT(GemvRowsF32);
HWY_EXPORT(GemvRowsBf16);
HWY_EXPORT(GemvRowsF32Batch);
HWY_EXPORT(GemvRowsBf16Batch);

// use_avx512_bf16_gemv() also applies REEF_CPU_TARGET before the first dispatch.
//
// fp32 weights have no use for the bf16 dot product: the avx512-bf16 target's fp32 rows are
// Highway's AVX-512 ones, recorded as that target's (a target is a set of kernels: its row ops are
// Highway's AVX-512 too), so a report names the target that was chosen, whatever the dtype.
template <typename Run>
void f32_rows(const Run& run) {
    const int64_t special = hand_written_target();
    run();
    if (special) note_ran(special);
}

void gemv_rows_f32(const float* w, const float* x, const float* b, int64_t k, int64_t r0, int64_t r1, float* y) {
    f32_rows([&] { HWY_DYNAMIC_DISPATCH(GemvRowsF32)(w, x, b, k, r0, r1, y); });
}

// The AMX rows take batches of up to 16 inputs: larger ones go 16 at a time (every column of a
// tile product is its own sum, so the split changes no bits).
void amx_rows(const uint16_t* w, const uint16_t* x, int64_t ldx, int64_t m, const uint16_t* b, int64_t k, int64_t r0,
              int64_t r1, uint16_t* y, int64_t ldy) {
    for (int64_t j = 0; j < m; j += 16)
        gemv_rows_bf16_amx(w, x + j * ldx, ldx, std::min<int64_t>(16, m - j), b, k, r0, r1, y + j * ldy, ldy);
}

void gemv_rows_bf16(const uint16_t* w, const uint16_t* x, const uint16_t* b, int64_t k, int64_t r0, int64_t r1,
                    uint16_t* y) {
    if (use_amx_bf16_gemv() && k % 32 == 0) return gemv_rows_bf16_amx(w, x, 0, 1, b, k, r0, r1, y, 0);
    if (use_avx512_bf16_gemv() && k % 32 == 0) return gemv_rows_bf16_avx512_bf16(w, x, b, k, r0, r1, y);
    HWY_DYNAMIC_DISPATCH(GemvRowsBf16)(w, x, b, k, r0, r1, y);
}

void gemv_rows_f32_batch(const float* w, const float* x, int64_t ldx, int64_t m, const float* b, int64_t k, int64_t r0,
                         int64_t r1, float* y, int64_t ldy) {
    f32_rows([&] { HWY_DYNAMIC_DISPATCH(GemvRowsF32Batch)(w, x, ldx, m, b, k, r0, r1, y, ldy); });
}

void gemv_rows_bf16_batch(const uint16_t* w, const uint16_t* x, int64_t ldx, int64_t m, const uint16_t* b, int64_t k,
                          int64_t r0, int64_t r1, uint16_t* y, int64_t ldy) {
    if (use_amx_bf16_gemv() && k % 32 == 0) return amx_rows(w, x, ldx, m, b, k, r0, r1, y, ldy);
    if (use_avx512_bf16_gemv() && k % 32 == 0) return gemv_rows_bf16_batch_avx512_bf16(w, x, ldx, m, b, k, r0, r1, y, ldy);
    HWY_DYNAMIC_DISPATCH(GemvRowsBf16Batch)(w, x, ldx, m, b, k, r0, r1, y, ldy);
}

}  // namespace reef::kernels
#endif  // HWY_ONCE
