// kernels/gemv_int8.h in Highway: one source for every target of the build's architecture, the
// best the CPU has chosen at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/gemv_int8_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include <algorithm>

#include <cmath>
#include <utility>

#include "kernels/cpu_target.h"
#include "kernels/gemv_int8.h"
#include "kernels/gemv_vnni.h"
#include "kernels/input_scan-inl.h"
#include "kernels/input_stats.h"
#include "kernels/two_stream_rows-inl.h"

HWY_BEFORE_NAMESPACE();
namespace reef::kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// One row (or two) of int8 weights against an fp32 x: each vector of int8 is sign-extended to
// int32 lanes and converted to fp32 (exact: |w| <= 128), then multiplied and added. The loads are
// a quarter of an fp32 vector (16 bytes on AVX-512, 8 on AVX2), so two vectors per row per step
// keep two independent accumulators in flight, as the fp32 dot does.
struct DotI8 {
    using DF = hn::ScalableTag<float>;
    const int8_t* wm;  // [N, K]
    const float* xm;   // [m, K], row stride ldx
    int64_t k, ldx;
    const DF d{};
    const hn::RebindToSigned<DF> di{};
    const hn::Rebind<int8_t, DF> d8{};
    const int64_t lanes = int64_t(hn::Lanes(d));
    const int64_t kv = k - k % lanes;  // vector part; the rest is a scalar tail

    auto widen(const int8_t* p) const { return hn::ConvertTo(d, hn::PromoteTo(di, hn::LoadU(d8, p))); }
    float tail(const int8_t* wr, const float* x) const {
        float v = 0;
        for (int64_t i = kv; i < k; ++i) v += float(wr[i]) * x[i];
        return v;
    }
    std::pair<float, float> two(int64_t ra, int64_t rb, int64_t j) const { return two(wm + ra * k, wm + rb * k, xm + j * ldx); }
    std::pair<float, float> two(const int8_t* wa, const int8_t* wb, const float* x) const {
        auto a0 = hn::Zero(d), a1 = hn::Zero(d), b0 = hn::Zero(d), b1 = hn::Zero(d);
        int64_t i = 0;
        for (; i + 2 * lanes <= kv; i += 2 * lanes) {
            const auto x0 = hn::LoadU(d, x + i), x1 = hn::LoadU(d, x + i + lanes);
            a0 = hn::MulAdd(widen(wa + i), x0, a0);
            b0 = hn::MulAdd(widen(wb + i), x0, b0);
            a1 = hn::MulAdd(widen(wa + i + lanes), x1, a1);
            b1 = hn::MulAdd(widen(wb + i + lanes), x1, b1);
        }
        for (; i < kv; i += lanes) {
            const auto x0 = hn::LoadU(d, x + i);
            a0 = hn::MulAdd(widen(wa + i), x0, a0);
            b0 = hn::MulAdd(widen(wb + i), x0, b0);
        }
        return {hn::GetLane(hn::SumOfLanes(d, hn::Add(a0, a1))) + tail(wa, x),
                hn::GetLane(hn::SumOfLanes(d, hn::Add(b0, b1))) + tail(wb, x)};
    }
};

// Two rows of int8 weights against an int16 x, exactly: each step widens a vector of int8 to int16
// and multiply-adds pairs into int32 lanes (vpmaddwd on x86, smull/smlal pairs on Arm). A chunk of
// 1024 weights per int32 lane puts at most 1024 products into a lane, each at most 128 · 16383 in
// size: 2 147 352 576 < 2^31. Then the lanes are summed into int64 and the next chunk starts from
// zero (S2-Pro's longest rows, 9728 weights, take one chunk on AVX-512, three on SSE4).
//
// Each stream's line 2 KiB ahead is prefetched on Intel CPUs: forced to AVX2 on the AMX Xeon, 512 MB
// of int8 rows read at ~21 GB/s without and ~27 with. Not on AMD ones: forced to AVX2 on the Zen 4
// EPYC, s1-mini int8 frames ran 45.8-49.9 frames/s without it and 45.4 with it while the memory read
// ~55-60 GB/s, 36.1-37.8 against 35.4-37.6 while it read ~36 (alternating binaries, 6 rounds); not
// measured on other Zen cores.
struct DotQ16 {
    static constexpr int64_t kPrefetch = 2048;
    using D16 = hn::ScalableTag<int16_t>;
    const int8_t* wm;   // [N, K]
    const int16_t* xm;  // [m, K], row stride ldx
    int64_t k, ldx;
    const D16 d16{};
    const hn::RepartitionToWide<D16> d32{};
    const hn::Rebind<int8_t, D16> d8{};
    const int64_t lanes = int64_t(hn::Lanes(d16));
    const int64_t kv = k - k % lanes;
    const int64_t chunk = 1024 * int64_t(hn::Lanes(d32));
    const bool prefetch = !cpu_is_amd();

    int64_t lane_sum(hn::Vec<hn::RepartitionToWide<D16>> v) const {
        HWY_ALIGN int32_t buf[hn::MaxLanes(hn::RepartitionToWide<D16>())];
        hn::Store(v, d32, buf);
        int64_t t = 0;
        for (size_t i = 0; i < hn::Lanes(d32); ++i) t += buf[i];
        return t;
    }
    std::pair<int64_t, int64_t> two(int64_t ra, int64_t rb, int64_t j) const { return two(wm + ra * k, wm + rb * k, xm + j * ldx); }
    // rows a and b over [begin, end) of the vector part, at most one chunk: a function of its own,
    // as the VNNI rows' span (gemv_vnni.cpp): with this loop inside two()'s chunk loop GCC 12 copied
    // both accumulators to other registers every step and reloaded the loop's bound from the stack
    HWY_NOINLINE std::pair<int64_t, int64_t> span(const int8_t* wa, const int8_t* wb, const int16_t* x, int64_t begin,
                                     int64_t end) const {
        // two chains per row, even and odd steps, added at the end (still at most `chunk` products
        // in a lane): in cache on the Zen 4 AVX2 37.5 -> 42.8 GB/s one input, 9.8 -> 11.2 four
        auto a0 = hn::Zero(d32), a1 = a0, a2 = a0, a3 = a0, b0 = a0, b1 = a0, b2 = a0, b3 = a0;
        int64_t i = begin;
        for (; i + 2 * lanes <= end; i += 2 * lanes) {
            if (prefetch && i % 64 == 0) hwy::Prefetch(wa + i + kPrefetch), hwy::Prefetch(wb + i + kPrefetch);
            const auto x0 = hn::LoadU(d16, x + i), x1 = hn::LoadU(d16, x + i + lanes);
            a0 = hn::ReorderWidenMulAccumulate(d32, hn::PromoteTo(d16, hn::LoadU(d8, wa + i)), x0, a0, a1);
            b0 = hn::ReorderWidenMulAccumulate(d32, hn::PromoteTo(d16, hn::LoadU(d8, wb + i)), x0, b0, b1);
            a2 = hn::ReorderWidenMulAccumulate(d32, hn::PromoteTo(d16, hn::LoadU(d8, wa + i + lanes)), x1, a2, a3);
            b2 = hn::ReorderWidenMulAccumulate(d32, hn::PromoteTo(d16, hn::LoadU(d8, wb + i + lanes)), x1, b2, b3);
        }
        for (; i < end; i += lanes) {
            if (prefetch && i % 64 == 0) hwy::Prefetch(wa + i + kPrefetch), hwy::Prefetch(wb + i + kPrefetch);
            const auto xv = hn::LoadU(d16, x + i);
            a0 = hn::ReorderWidenMulAccumulate(d32, hn::PromoteTo(d16, hn::LoadU(d8, wa + i)), xv, a0, a1);
            b0 = hn::ReorderWidenMulAccumulate(d32, hn::PromoteTo(d16, hn::LoadU(d8, wb + i)), xv, b0, b1);
        }
        a0 = hn::Add(a0, a2), a1 = hn::Add(a1, a3), b0 = hn::Add(b0, b2), b1 = hn::Add(b1, b3);
        return {lane_sum(a0) + lane_sum(a1), lane_sum(b0) + lane_sum(b1)};
    }
    std::pair<int64_t, int64_t> two(const int8_t* wa, const int8_t* wb, const int16_t* x) const {
        int64_t ta = 0, tb = 0;
        for (int64_t c = 0; c < kv; c += chunk) {
            const auto [a, b] = span(wa, wb, x, c, std::min(kv, c + chunk));
            ta += a, tb += b;
        }
        for (int64_t i = kv; i < k; ++i) ta += int64_t(wa[i]) * x[i], tb += int64_t(wb[i]) * x[i];
        return {ta, tb};
    }
    // span() for two inputs x0 and x1 (row stride ldx apart) at once: each vector of weights widened
    // once for both. One step a loop (two accumulators a row and input: 256-bit AVX2 has sixteen
    // registers). Integer sums of the same products, so each input's bits are its own call's.
    HWY_NOINLINE void span2(const int8_t* wa, const int8_t* wb, const int16_t* x, int64_t begin, int64_t end,
                            int64_t* ta, int64_t* tb) const {
        auto a0 = hn::Zero(d32), a1 = a0, b0 = a0, b1 = a0, c0 = a0, c1 = a0, e0 = a0, e1 = a0;
        const int16_t* y = x + ldx;
        for (int64_t i = begin; i < end; i += lanes) {
            if (prefetch && i % 64 == 0) hwy::Prefetch(wa + i + kPrefetch), hwy::Prefetch(wb + i + kPrefetch);
            const auto va = hn::PromoteTo(d16, hn::LoadU(d8, wa + i)), vb = hn::PromoteTo(d16, hn::LoadU(d8, wb + i));
            const auto x0 = hn::LoadU(d16, x + i), x1 = hn::LoadU(d16, y + i);
            a0 = hn::ReorderWidenMulAccumulate(d32, va, x0, a0, a1);  // rows a, b against x0
            b0 = hn::ReorderWidenMulAccumulate(d32, vb, x0, b0, b1);
            c0 = hn::ReorderWidenMulAccumulate(d32, va, x1, c0, c1);  // rows a, b against x1
            e0 = hn::ReorderWidenMulAccumulate(d32, vb, x1, e0, e1);
        }
        ta[0] += lane_sum(a0) + lane_sum(a1), tb[0] += lane_sum(b0) + lane_sum(b1);
        ta[1] += lane_sum(c0) + lane_sum(c1), tb[1] += lane_sum(e0) + lane_sum(e1);
    }
    // rows a and b against inputs j and j + 1: Σ w·xq of each
    void two_inputs(int64_t ra, int64_t rb, int64_t j, int64_t* ta, int64_t* tb) const {
        const int8_t *wa = wm + ra * k, *wb = wm + rb * k;
        const int16_t* x = xm + j * ldx;
        ta[0] = ta[1] = tb[0] = tb[1] = 0;
        for (int64_t c = 0; c < kv; c += chunk) span2(wa, wb, x, c, std::min(kv, c + chunk), ta, tb);
        for (int64_t n = 0; n < 2; ++n)
            for (int64_t i = kv; i < k; ++i) {
                ta[n] += int64_t(wa[i]) * x[n * ldx + i];
                tb[n] += int64_t(wb[i]) * x[n * ldx + i];
            }
    }
};

void GemvRowsI8Q16(const int8_t* w, const float* s, const int16_t* xq, const float* sx, int64_t ldx, int64_t m,
                   const float* b, int64_t k, int64_t r0, int64_t r1, float* y, int64_t ldy) {
    const DotQ16 dot{w, xq, k, ldx};
    const auto put = [&](int64_t j, int64_t r, int64_t total) {
        const float v = float(double(total) * double(sx[j]) * double(s[r]));
        y[j * ldy + r] = b ? v + b[r] : v;
    };
    if (m == 1) return two_stream_rows(dot, r0, r1, m, put);
    // two_stream_rows' order, each pair of rows against the inputs two at a time, the weights
    // widened once for both (one Zen 4 core forced to AVX2, rows in L2, three alternations: at 4
    // inputs an input took 0.72-0.81 of one input's time, where one at a time took 0.96-1.0)
    auto pair = [&](int64_t ra, int64_t rb, bool both) {
        int64_t j = 0;
        for (; j + 2 <= m; j += 2) {
            int64_t ta[2], tb[2];
            dot.two_inputs(ra, rb, j, ta, tb);
            for (int64_t n = 0; n < 2; ++n) {
                put(j + n, ra, ta[n]);
                if (both) put(j + n, rb, tb[n]);
            }
        }
        if (j < m) {
            const auto [va, vb] = dot.two(ra, rb, j);
            put(j, ra, va);
            if (both) put(j, rb, vb);
        }
    };
    for_row_pairs(r0, r1, pair);
    note_ran(HWY_TARGET);
}

void GemvRowsI8(const int8_t* w, const float* s, const float* x, int64_t ldx, int64_t m, const float* b, int64_t k,
                int64_t r0, int64_t r1, float* y, int64_t ldy) {
    // the dequantized row's product, then the bias: what linear(x, w·s) + b computes
    two_stream_rows(DotI8{w, x, k, ldx}, r0, r1, m,
                    [&](int64_t j, int64_t r, float v) { y[j * ldy + r] = b ? v * s[r] + b[r] : v * s[r]; });
}

// quantize_row_q16 (gemv_int8.h) in vectors, the scalar loops' bits on every target: the maximum
// is exact in any order and each element takes the same float operations (round_small's adds). On
// the calling thread while the others wait, once per GEMV: 0.89 µs at K = 1024 as scalar loops, on
// the AMX Xeon.
float QuantizeRowQ16(const float* x, int64_t k, int16_t* xq) {
    const InputTag df;
    const hn::Rebind<int32_t, decltype(df)> di;
    const hn::Rebind<int16_t, decltype(df)> d16;
    const int64_t lanes = int64_t(hn::Lanes(df)), body = k - k % lanes;
    const InputScan scan = scan_input(x, body);
    bool finite = scan.finite;
    float top = scan.top;
    for (int64_t i = body; i < k; ++i) {
        finite = finite && std::isfinite(x[i]);
        top = std::max(top, std::fabs(x[i]));
    }
    if (!finite || top == 0) {
        std::fill(xq, xq + k, int16_t(0));
        return finite ? 0 : NAN;
    }
    const float inv = float(kQ16Max) / top;
    const auto vinv = hn::Set(df, inv), magic = hn::Set(df, 12582912.0f);
    const auto hi = hn::Set(df, float(kQ16Max)), lo = hn::Set(df, -float(kQ16Max));
    for (int64_t i = 0; i < body; i += lanes) {
        const auto r = hn::Sub(hn::Add(hn::Mul(hn::LoadU(df, x + i), vinv), magic), magic);
        hn::StoreU(hn::DemoteTo(d16, hn::ConvertTo(di, hn::Min(hn::Max(r, lo), hi))), d16, xq + i);
    }
    for (int64_t i = body; i < k; ++i) xq[i] = int16_t(std::clamp(round_small(x[i] * inv), -kQ16Max, kQ16Max));
    return top / float(kQ16Max);
}

}  // namespace HWY_NAMESPACE
}  // namespace reef::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace reef::kernels {
HWY_EXPORT(GemvRowsI8);
HWY_EXPORT(GemvRowsI8Q16);
HWY_EXPORT(QuantizeRowQ16);

void gemv_rows_i8_q16(const int8_t* w, const float* s, const int16_t* xq, const float* sx, int64_t ldx, int64_t m,
                      const float* b, int64_t k, int64_t r0, int64_t r1, float* y, int64_t ldy) {
    // the avx512-bf16 and amx-bf16 targets: the VNNI rows (the same integer sums, the same bits)
    const int64_t special = hand_written_target();
    if (special && cpu_has_avx512_vnni()) {
        gemv_rows_i8_q16_vnni(w, s, xq, sx, ldx, m, b, k, r0, r1, y, ldy);
        return note_ran(special);
    }
    HWY_DYNAMIC_DISPATCH(GemvRowsI8Q16)(w, s, xq, sx, ldx, m, b, k, r0, r1, y, ldy);
    if (special) note_ran(special);
}

float quantize_row_q16(const float* x, int64_t k, int16_t* xq) {
    ensure_target_chosen();
    return HWY_DYNAMIC_DISPATCH(QuantizeRowQ16)(x, k, xq);
}

void gemv_rows_i8(const int8_t* w, const float* s, const float* x, int64_t ldx, int64_t m, const float* b, int64_t k,
                  int64_t r0, int64_t r1, float* y, int64_t ldy) {
    // The avx512-bf16 target has no int8 kernel of its own: Highway's AVX-512 rows run, recorded as
    // that target's (a report names the target chosen, as for fp32 weights).
    const int64_t special = hand_written_target();
    HWY_DYNAMIC_DISPATCH(GemvRowsI8)(w, s, x, ldx, m, b, k, r0, r1, y, ldy);
    if (special) note_ran(special);
}

}  // namespace reef::kernels
#endif  // HWY_ONCE
