// kernels/decode_attention.h in Highway: one source for every target, chosen at run time like the
// GEMV rows.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/decode_attention_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/cache_control.h>
#include <hwy/contrib/math/math-inl.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "kernels/bf16.h"
#include "kernels/cpu_target.h"
#include "kernels/decode_attention.h"
#include "kernels/decode_attention_avx512_bf16.h"

HWY_BEFORE_NAMESPACE();
namespace reef::kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;

constexpr int64_t kBlock = 32;  // key rows per block: their scores stay in L1 beside the accumulators
constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

// How a row type meets the kernel's loops. Each loop step covers `step` elements of a row:
// madd() adds one step of a key row times the query row to an accumulator, and part<i>() widens
// one of the four accumulator vectors of a value row's chunk of 4·lanes elements, whose place in
// the accumulator row is acc_at<i>(); tail_dot() / tail_axpy() do the elements past the whole
// steps / chunks one by one.

// fp32 rows: a query row and its accumulator are [d] as they come.
struct RowsF32 {
    int64_t d;
    const DF df{};
    const int64_t lanes = int64_t(hn::Lanes(df));
    const int64_t step = lanes;
    const int64_t dv = d - d % step;            // whole steps of a dot product
    const int64_t chunk = 4 * lanes;
    const int64_t dc = d - d % chunk;           // whole chunks of an axpy

    void prepare(const float* q, int64_t g, std::vector<float>& qs) const { qs.assign(q, q + g * d); }
    VF madd(const float* kr, int64_t i, const float* qr, VF acc) const {
        return hn::MulAdd(hn::LoadU(df, kr + i), hn::LoadU(df, qr + i), acc);
    }
    float tail_dot(const float* kr, const float* qr) const {
        float s = 0;
        for (int64_t i = dv; i < d; ++i) s += kr[i] * qr[i];
        return s;
    }
    template <int i>
    VF part(const float* vr, int64_t c) const { return hn::LoadU(df, vr + c + i * lanes); }
    template <int i>
    int64_t acc_at(int64_t c) const { return c + i * lanes; }
    void tail_axpy(float p, const float* vr, float* acc) const {
        for (int64_t i = dc; i < d; ++i) acc[i] += p * vr[i];
    }
    void finish(const float* acc, float inv_l, float* out) const {
        for (int64_t i = 0; i < d; ++i) out[i] = acc[i] * inv_l;
    }
};

// bf16 rows: a 32-bit lane holds a pair (v[2j], v[2j+1]), widened as the GEMV does (shift left
// 16 = the even one, mask off the low half = the odd one). The query row and the accumulator are
// kept split, [d/2] even values then [d/2] odd ones, so a pair lane meets its halves directly;
// finish() interleaves them back.
struct RowsBf16 {
    int64_t d;
    const DF df{};
    const hn::RebindToUnsigned<DF> du{};
    const int64_t lanes = int64_t(hn::Lanes(df));
    const int64_t half = d / 2;
    const int64_t step = 2 * lanes;             // bf16 values per pair vector
    const int64_t dv = d - d % step;
    const int64_t chunk = 4 * lanes;            // two pair vectors: two even and two odd vectors
    const int64_t dc = d - d % chunk;

    auto pairs(const uint16_t* p) const { return hn::LoadU(du, reinterpret_cast<const uint32_t*>(p)); }
    template <typename V>
    VF even(V v) const { return hn::BitCast(df, hn::ShiftLeft<16>(v)); }
    template <typename V>
    VF odd(V v) const { return hn::BitCast(df, hn::And(v, hn::Set(du, 0xFFFF0000u))); }

    void prepare(const float* q, int64_t g, std::vector<float>& qs) const {
        qs.resize(size_t(g * d));
        for (int64_t r = 0; r < g; ++r)
            for (int64_t j = 0; j < half; ++j) {
                qs[size_t(r * d + j)] = q[r * d + 2 * j];
                qs[size_t(r * d + half + j)] = q[r * d + 2 * j + 1];
            }
    }
    VF madd(const uint16_t* kr, int64_t i, const float* qr, VF acc) const {
        const auto kp = pairs(kr + i);
        acc = hn::MulAdd(even(kp), hn::LoadU(df, qr + i / 2), acc);
        return hn::MulAdd(odd(kp), hn::LoadU(df, qr + half + i / 2), acc);
    }
    float tail_dot(const uint16_t* kr, const float* qr) const {
        float s = 0;
        for (int64_t j = dv / 2; j < half; ++j)
            s += bf16_to_float(kr[2 * j]) * qr[j] + bf16_to_float(kr[2 * j + 1]) * qr[half + j];
        return s;
    }
    template <int i>
    VF part(const uint16_t* vr, int64_t c) const {
        const auto vp = pairs(vr + c + (i % 2) * step);
        return i < 2 ? even(vp) : odd(vp);
    }
    template <int i>
    int64_t acc_at(int64_t c) const { return (i < 2 ? 0 : half) + c / 2 + (i % 2) * lanes; }
    void tail_axpy(float p, const uint16_t* vr, float* acc) const {
        for (int64_t j = dc / 2; j < half; ++j) {
            acc[j] += p * bf16_to_float(vr[2 * j]);
            acc[half + j] += p * bf16_to_float(vr[2 * j + 1]);
        }
    }
    void finish(const float* acc, float inv_l, float* out) const {
        for (int64_t j = 0; j < half; ++j) {
            out[2 * j] = acc[j] * inv_l;
            out[2 * j + 1] = acc[half + j] * inv_l;
        }
    }
};

float sum(VF v) { return hn::GetLane(hn::SumOfLanes(DF(), v)); }

// Scores of key rows j..j+3 (all kept) against query rows r and r + 1 (when kTwo), each key
// vector loaded once for both: eight independent multiply-add chains.
template <bool kTwo, typename T, typename Rows>
void scores_four(const Rows& rows, const T* k, int64_t ks, const float* qa, const float* qb, float scale, float* sa,
                 float* sb) {
    const DF df;
    VF a0 = hn::Zero(df), a1 = hn::Zero(df), a2 = hn::Zero(df), a3 = hn::Zero(df);
    VF b0 = hn::Zero(df), b1 = hn::Zero(df), b2 = hn::Zero(df), b3 = hn::Zero(df);
    const T *k0 = k, *k1 = k + ks, *k2 = k + 2 * ks, *k3 = k + 3 * ks;
    for (int64_t i = 0; i < rows.dv; i += rows.step) {
        a0 = rows.madd(k0, i, qa, a0), a1 = rows.madd(k1, i, qa, a1);
        a2 = rows.madd(k2, i, qa, a2), a3 = rows.madd(k3, i, qa, a3);
        if constexpr (kTwo) {
            b0 = rows.madd(k0, i, qb, b0), b1 = rows.madd(k1, i, qb, b1);
            b2 = rows.madd(k2, i, qb, b2), b3 = rows.madd(k3, i, qb, b3);
        }
    }
    sa[0] = (sum(a0) + rows.tail_dot(k0, qa)) * scale, sa[1] = (sum(a1) + rows.tail_dot(k1, qa)) * scale;
    sa[2] = (sum(a2) + rows.tail_dot(k2, qa)) * scale, sa[3] = (sum(a3) + rows.tail_dot(k3, qa)) * scale;
    if constexpr (kTwo) {
        sb[0] = (sum(b0) + rows.tail_dot(k0, qb)) * scale, sb[1] = (sum(b1) + rows.tail_dot(k1, qb)) * scale;
        sb[2] = (sum(b2) + rows.tail_dot(k2, qb)) * scale, sb[3] = (sum(b3) + rows.tail_dot(k3, qb)) * scale;
    }
}

template <typename T, typename Rows>
float score_one(const Rows& rows, const T* kr, const float* qr, float scale) {
    VF a0 = hn::Zero(rows.df), a1 = hn::Zero(rows.df);  // two chains hide the FMA latency
    int64_t i = 0;
    for (; i + 2 * rows.step <= rows.dv; i += 2 * rows.step) a0 = rows.madd(kr, i, qr, a0), a1 = rows.madd(kr, i + rows.step, qr, a1);
    for (; i < rows.dv; i += rows.step) a0 = rows.madd(kr, i, qr, a0);
    return (sum(hn::Add(a0, a1)) + rows.tail_dot(kr, qr)) * scale;
}

template <typename T>
void prefetch_row(const T* row, int64_t d) {
    const char* p = reinterpret_cast<const char*>(row);
    for (int64_t b = 0; b < d * int64_t(sizeof(T)); b += 64) hwy::Prefetch(p + b);
}

// Key rows this many bytes ahead are fetched while the current ones are scored.
constexpr int64_t kAheadBytes = 4096;  // 2-8 KB alike on the Zen 4 VM, one thread from memory

// A block's scores [g, padded]: -inf for masked keys (never read) and the padding. With each
// group of four keys, their value rows and the key rows kAheadBytes further on are fetched: the
// value pass reads the block in chunks across its rows, an order no hardware prefetcher follows,
// and fetches spread over the loop keep the memory busy without flooding the core's miss buffers
// (all of a block's at once, before its scores: bf16 ran at half the speed, one thread from memory).
template <typename T, typename Rows>
void block_scores(const Rows& rows, const KvRows<T>& kv, int64_t j0, int64_t nb, const float* qs, int64_t g,
                  float scale, float* s, int64_t padded) {
    for (int64_t r = 0; r < g; ++r) std::fill(s + r * padded + nb, s + (r + 1) * padded, kMinusInf);
    const int64_t d = rows.d, ahead = std::max<int64_t>(4, kAheadBytes / (d * int64_t(sizeof(T))));
    for (int64_t j = 0; j < nb;) {
        const T* kr = kv.k + (j0 + j) * kv.k_stride;
        if (j % 4 == 0)
            for (int64_t f = j0 + j; f < std::min(j0 + j + 4, kv.n); ++f) {
                if (f < j0 + nb && (kv.keep == nullptr || kv.keep[f])) prefetch_row(kv.v + f * kv.v_stride, d);
                if (f + ahead < kv.n && (kv.keep == nullptr || kv.keep[f + ahead]))
                    prefetch_row(kv.k + (f + ahead) * kv.k_stride, d);
            }
        const bool four = j + 4 <= nb && (kv.keep == nullptr || (kv.keep[j0 + j] && kv.keep[j0 + j + 1] &&
                                                                  kv.keep[j0 + j + 2] && kv.keep[j0 + j + 3]));
        if (four) {
            for (int64_t r = 0; r < g; r += 2) {
                if (r + 1 < g)
                    scores_four<true>(rows, kr, kv.k_stride, qs + r * d, qs + (r + 1) * d, scale, s + r * padded + j,
                                      s + (r + 1) * padded + j);
                else
                    scores_four<false>(rows, kr, kv.k_stride, qs + r * d, nullptr, scale, s + r * padded + j, nullptr);
            }
            j += 4;
            continue;
        }
        const bool on = kv.keep == nullptr || kv.keep[j0 + j] != 0;
        for (int64_t r = 0; r < g; ++r) s[r * padded + j] = on ? score_one(rows, kr, qs + r * d, scale) : kMinusInf;
        ++j;
    }
}

// acc rows r and r + 1 (when kTwo) += Σ_j p[j]·v_j over the block's kept value rows, a chunk of
// four accumulator vectors per row at a time held in registers across the block (the block's
// value rows stay in L1 between chunks).
template <bool kTwo, typename T, typename Rows>
void accumulate_rows(const Rows& rows, const KvRows<T>& kv, int64_t j0, int64_t nb, const float* pa, const float* pb,
                     float* acc_a, float* acc_b) {
    const DF df;
    for (int64_t c = 0; c < rows.dc; c += rows.chunk) {
        VF a0 = hn::LoadU(df, acc_a + rows.template acc_at<0>(c)), a1 = hn::LoadU(df, acc_a + rows.template acc_at<1>(c));
        VF a2 = hn::LoadU(df, acc_a + rows.template acc_at<2>(c)), a3 = hn::LoadU(df, acc_a + rows.template acc_at<3>(c));
        VF b0 = a0, b1 = a1, b2 = a2, b3 = a3;
        if constexpr (kTwo) {
            b0 = hn::LoadU(df, acc_b + rows.template acc_at<0>(c)), b1 = hn::LoadU(df, acc_b + rows.template acc_at<1>(c));
            b2 = hn::LoadU(df, acc_b + rows.template acc_at<2>(c)), b3 = hn::LoadU(df, acc_b + rows.template acc_at<3>(c));
        }
        for (int64_t j = 0; j < nb; ++j) {
            if (kv.keep != nullptr && kv.keep[j0 + j] == 0) continue;
            const T* vr = kv.v + (j0 + j) * kv.v_stride;
            const VF x0 = rows.template part<0>(vr, c), x1 = rows.template part<1>(vr, c);
            const VF x2 = rows.template part<2>(vr, c), x3 = rows.template part<3>(vr, c);
            const VF p = hn::Set(df, pa[j]);
            a0 = hn::MulAdd(p, x0, a0), a1 = hn::MulAdd(p, x1, a1), a2 = hn::MulAdd(p, x2, a2), a3 = hn::MulAdd(p, x3, a3);
            if constexpr (kTwo) {
                const VF q = hn::Set(df, pb[j]);
                b0 = hn::MulAdd(q, x0, b0), b1 = hn::MulAdd(q, x1, b1), b2 = hn::MulAdd(q, x2, b2), b3 = hn::MulAdd(q, x3, b3);
            }
        }
        hn::StoreU(a0, df, acc_a + rows.template acc_at<0>(c)), hn::StoreU(a1, df, acc_a + rows.template acc_at<1>(c));
        hn::StoreU(a2, df, acc_a + rows.template acc_at<2>(c)), hn::StoreU(a3, df, acc_a + rows.template acc_at<3>(c));
        if constexpr (kTwo) {
            hn::StoreU(b0, df, acc_b + rows.template acc_at<0>(c)), hn::StoreU(b1, df, acc_b + rows.template acc_at<1>(c));
            hn::StoreU(b2, df, acc_b + rows.template acc_at<2>(c)), hn::StoreU(b3, df, acc_b + rows.template acc_at<3>(c));
        }
    }
    if (rows.dc == rows.d) return;
    for (int64_t j = 0; j < nb; ++j) {
        if (kv.keep != nullptr && kv.keep[j0 + j] == 0) continue;
        const T* vr = kv.v + (j0 + j) * kv.v_stride;
        rows.tail_axpy(pa[j], vr, acc_a);
        if constexpr (kTwo) rows.tail_axpy(pb[j], vr, acc_b);
    }
}

// The block's scores of one query row (-inf where masked, and in the padding up to whole
// vectors) become its softmax numerators against the running maximum m; the accumulator and the
// running sum l are rescaled when the maximum rises. Returns false when the block has no key.
bool online_softmax(float* s, int64_t padded, int64_t d, float& m, float& l, float* acc) {
    const DF df;
    const int64_t lanes = int64_t(hn::Lanes(df));
    VF mx = hn::Set(df, kMinusInf);
    for (int64_t i = 0; i < padded; i += lanes) mx = hn::Max(mx, hn::LoadU(df, s + i));
    const float block_max = hn::GetLane(hn::MaxOfLanes(df, mx));
    if (block_max == kMinusInf) return false;
    const float m_new = std::max(m, block_max);
    if (m_new != m && l != 0) {  // earlier numerators were against a smaller maximum
        const float corr = std::exp(m - m_new);
        l *= corr;
        for (int64_t i = 0; i < d; ++i) acc[i] *= corr;
    }
    m = m_new;
    const VF mv = hn::Set(df, m_new), ninf = hn::Set(df, kMinusInf);
    VF sum = hn::Zero(df);
    for (int64_t i = 0; i < padded; i += lanes) {
        const VF si = hn::LoadU(df, s + i);
        const VF p = hn::IfThenZeroElse(hn::Eq(si, ninf), hn::Exp(df, hn::Sub(si, mv)));
        hn::StoreU(p, df, s + i);
        sum = hn::Add(sum, p);
    }
    l += hn::GetLane(hn::SumOfLanes(df, sum));
    return true;
}

template <typename T, typename Rows>
void DecodeHead(const float* q, int64_t g, int64_t d, const KvRows<T>& kv, float scale, float* out) {
    const Rows rows{d};
    const int64_t lanes = rows.lanes, padded = (kBlock + lanes - 1) / lanes * lanes;
    thread_local std::vector<float> qs, acc, scores, ml;  // [g, d], [g, d], [g, padded], [2, g]
    rows.prepare(q, g, qs);
    acc.assign(size_t(g * d), 0.0f);
    scores.resize(size_t(g * padded));
    ml.assign(size_t(2 * g), 0.0f);
    float *m = ml.data(), *l = ml.data() + g;
    std::fill(m, m + g, kMinusInf);
    for (int64_t j0 = 0; j0 < kv.n; j0 += kBlock) {
        const int64_t nb = std::min(kBlock, kv.n - j0);
        // scores [g, nb]: each key row read once for every query row
        block_scores(rows, kv, j0, nb, qs.data(), g, scale, scores.data(), padded);
        bool any = false;
        for (int64_t r = 0; r < g; ++r)
            any |= online_softmax(scores.data() + r * padded, padded, d, m[r], l[r], acc.data() + r * d);
        if (!any) continue;
        // the block's value rows into the accumulators, each read once for every query row
        for (int64_t r = 0; r < g; r += 2) {
            const float* p = scores.data() + r * padded;
            if (r + 1 < g)
                accumulate_rows<true>(rows, kv, j0, nb, p, p + padded, acc.data() + r * d, acc.data() + (r + 1) * d);
            else
                accumulate_rows<false>(rows, kv, j0, nb, p, nullptr, acc.data() + r * d, nullptr);
        }
    }
    for (int64_t r = 0; r < g; ++r) rows.finish(acc.data() + r * d, 1.0f / l[r], out + r * d);  // l = 0: NaN
}

void DecodeHeadF32(const float* q, int64_t g, int64_t d, const KvRows<float>& kv, float scale, float* out) {
    DecodeHead<float, RowsF32>(q, g, d, kv, scale, out);
}
void DecodeHeadBf16(const float* q, int64_t g, int64_t d, const KvRows<uint16_t>& kv, float scale, float* out) {
    DecodeHead<uint16_t, RowsBf16>(q, g, d, kv, scale, out);
}

}  // namespace HWY_NAMESPACE
}  // namespace reef::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace reef::kernels {
HWY_EXPORT(DecodeHeadF32);
HWY_EXPORT(DecodeHeadBf16);

void decode_attention_head(const float* q, int64_t g, int64_t d, const KvRows<float>& kv, float scale, float* out) {
    ensure_target_chosen();
    HWY_DYNAMIC_DISPATCH(DecodeHeadF32)(q, g, d, kv, scale, out);
}
void decode_attention_head(const float* q, int64_t g, int64_t d, const KvRows<uint16_t>& kv, float scale,
                           float* out) {
    ensure_target_chosen();
    if (use_avx512_bf16_gemv() && decode_attention_head_avx512_bf16(q, g, d, kv, scale, out)) return;
    HWY_DYNAMIC_DISPATCH(DecodeHeadBf16)(q, g, d, kv, scale, out);
}

}  // namespace reef::kernels
#endif  // HWY_ONCE
