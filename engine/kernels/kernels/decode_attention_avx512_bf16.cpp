// Decode attention over bf16 rows on AVX-512 BF16 CPUs (kernels/decode_attention_avx512_bf16.h),
// hand-written beside the Highway kernel (decode_attention_simd.cpp) for the reason the bf16 GEMV
// is (gemv_avx512_bf16.cpp): Highway 1.0.3 has no target with vdpbf16ps.
//
// The portable kernel widens every bf16 key and value to fp32 and multiplies in fp32: per key row
// and query row d/16 widenings and d/16 FMAs for the score, the same again for the value sum, and a
// horizontal sum per score. On a Zen 4 (512-bit operations as two 256-bit halves) that is
// instruction-bound at ~40 GB/s of K/V for two threads, in cache or not. Here:
//  - scores: vdpbf16ps of the key row and the query rounded to bf16 (exact: the callers' queries
//    are a bf16 model's, widened), 32 products an instruction; the scores of 8 keys × 2 query rows
//    are 16 accumulators, summed across lanes together (sum16: 45 shuffles and adds for 16 sums,
//    where one vector's sum takes 8);
//  - values: the softmax numerators rounded to bf16, as libtorch's flash and math backends round
//    them before their value product, and two keys' value rows interleaved (vpunpck{l,h}wd) so one
//    vdpbf16ps adds p_j·v_j + p_j+1·v_j+1 for 16 dims. The accumulators hold the dims in that
//    interleaved order until finish() puts them back.
// The running sum l adds the rounded numerators, so the weights applied sum to l exactly.
// Masked keys are never read (a pair with one masked key reads a row of zeros in its place).
#include "kernels/decode_attention_avx512_bf16.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "kernels/bf16.h"

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12's AVX-512 headers pass _mm512_undefined_ps() as the unused merge source of the shuffles,
// unpacks and scalef (GCC bug 105593), which -Wmaybe-uninitialized reports at every inlined use.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "kernels/avx512_bf16.h"

namespace reef::kernels {
namespace {

using avx512_bf16::lane_sum;

constexpr int64_t kBlock = 32;      // key rows per block: a query row's scores are two vectors
constexpr int64_t kChunk = 32;      // bf16 values per vdpbf16ps
constexpr int64_t kMaxChunks = 4;   // d <= 128: a query pair's chunks and accumulators stay in registers
constexpr int64_t kAheadBytes = 4096;  // key rows fetched this far ahead (as the portable kernel)
constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

alignas(64) const uint16_t kZeroRow[kMaxChunks * kChunk] = {};  // a masked key's stand-in in a pair

REEF_AVX512_BF16 inline __m512bh bh(__m512i v) { return (__m512bh)v; }
REEF_AVX512_BF16 inline __m512i load(const uint16_t* p) { return _mm512_loadu_si512(p); }  // as integers: unpacked

// 16 vectors -> one whose lane i is the sum of a[i]'s lanes: pairs of lanes within 128-bit blocks,
// then pairs of those, then the blocks.
REEF_AVX512_BF16 inline __m512 sum16(const __m512 (&a)[16]) {
    __m512 b[8], c[4];
    for (int k = 0; k < 8; ++k)
        b[k] = _mm512_add_ps(_mm512_unpacklo_ps(a[2 * k], a[2 * k + 1]), _mm512_unpackhi_ps(a[2 * k], a[2 * k + 1]));
    for (int k = 0; k < 4; ++k)  // block lanes: a[4k], a[4k+1], a[4k+2], a[4k+3]
        c[k] = _mm512_add_ps(_mm512_shuffle_ps(b[2 * k], b[2 * k + 1], _MM_SHUFFLE(1, 0, 1, 0)),
                             _mm512_shuffle_ps(b[2 * k], b[2 * k + 1], _MM_SHUFFLE(3, 2, 3, 2)));
    const __m512 d0 = _mm512_add_ps(_mm512_shuffle_f32x4(c[0], c[1], _MM_SHUFFLE(2, 0, 2, 0)),
                                    _mm512_shuffle_f32x4(c[0], c[1], _MM_SHUFFLE(3, 1, 3, 1)));
    const __m512 d1 = _mm512_add_ps(_mm512_shuffle_f32x4(c[2], c[3], _MM_SHUFFLE(2, 0, 2, 0)),
                                    _mm512_shuffle_f32x4(c[2], c[3], _MM_SHUFFLE(3, 1, 3, 1)));
    return _mm512_add_ps(_mm512_shuffle_f32x4(d0, d1, _MM_SHUFFLE(2, 0, 2, 0)),
                         _mm512_shuffle_f32x4(d0, d1, _MM_SHUFFLE(3, 1, 3, 1)));
}

// e^x for x <= 0 (the numerators' s - m): 2^n · e^r with r = x - n·ln 2 in [-ln2/2, ln2/2] and a
// degree-6 Taylor polynomial (relative error < 2e-7, far below the bf16 rounding that follows);
// -inf (a masked key, the padding) gives 0, NaN stays NaN.
REEF_AVX512_BF16 inline __m512 exp_neg(__m512 x) {
    const __mmask16 live = _mm512_cmp_ps_mask(x, _mm512_set1_ps(kMinusInf), _CMP_NEQ_UQ);  // NaN stays live
    x = _mm512_max_ps(_mm512_set1_ps(-100.0f), x);  // a NaN x is kept (maxps returns its second operand)
    const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                          _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693145751953125f), x);  // ln 2 in two parts
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(1.42860682030941723212e-6f), r);
    __m512 p = _mm512_set1_ps(1.0f / 720);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 120));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 24));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 6));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
    return _mm512_maskz_mov_ps(live, _mm512_scalef_ps(p, n));
}

REEF_AVX512_BF16 inline float lane_max(__m512 v) {
    alignas(64) float lanes[16];
    _mm512_store_ps(lanes, v);
    return *std::max_element(lanes, lanes + 16);
}

inline bool kept(const KvRows<uint16_t>& kv, int64_t i) { return kv.keep == nullptr || kv.keep[i] != 0; }

inline void prefetch_row(const uint16_t* row, int64_t d) {
    const char* p = reinterpret_cast<const char*>(row);
    for (int64_t b = 0; b < d * 2; b += 64) _mm_prefetch(p + b, _MM_HINT_T0);
}

// Scores of the 8 kept key rows at k (stride ks) against query rows a and b (C chunks each, in
// registers as bf16), times scale, into sa[0..8) and sb[0..8).
template <int C>
REEF_AVX512_BF16 inline void scores8(const uint16_t* k, int64_t ks, const __m512i (&qa)[C], const __m512i (&qb)[C],
                                     float scale, float* sa, float* sb) {
    __m512 acc[16];
    for (int j = 0; j < 8; ++j) {
        const uint16_t* kr = k + j * ks;
        __m512 x = _mm512_setzero_ps(), y = _mm512_setzero_ps();
        for (int c = 0; c < C; ++c) {
            const __m512bh kc = bh(load(kr + c * kChunk));
            x = _mm512_dpbf16_ps(x, kc, bh(qa[c]));
            y = _mm512_dpbf16_ps(y, kc, bh(qb[c]));
        }
        acc[j] = x, acc[8 + j] = y;
    }
    const __m512 s = _mm512_mul_ps(sum16(acc), _mm512_set1_ps(scale));
    _mm256_storeu_ps(sa, _mm512_castps512_ps256(s));
    _mm256_storeu_ps(sb, _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(s), 1)));
}

template <int C>
REEF_AVX512_BF16 inline float score_one(const uint16_t* kr, const __m512i (&q)[C], float scale) {
    __m512 x = _mm512_setzero_ps();
    for (int c = 0; c < C; ++c) x = _mm512_dpbf16_ps(x, bh(load(kr + c * kChunk)), bh(q[c]));
    return lane_sum(x) * scale;
}

// The block's scores [g, kBlock] (-inf where masked and past nb), each key row read once for a
// pair of query rows.
template <int C>
REEF_AVX512_BF16 void block_scores(const uint16_t* qb, int64_t g, const KvRows<uint16_t>& kv, int64_t j0, int64_t nb,
                                   float scale, float* s) {
    constexpr int64_t d = C * kChunk;
    const int64_t ahead = std::max<int64_t>(8, kAheadBytes / (d * 2));
    for (int64_t r = 0; r < g; ++r) std::fill(s + r * kBlock + nb, s + (r + 1) * kBlock, kMinusInf);
    // With each group of 8 keys of the first pair's pass, their value rows (read by accumulate once
    // the block's scores are done) and the key rows kAheadBytes on. Spread like this, not all of a
    // block's at once: from memory, one thread, that read 10.5-11 GB/s where the portable kernel
    // (which spreads them) read 13-14; spread, the two are alike there (other fetch distances,
    // 4-16 KB, and L2 hints: within this VM's noise).
    auto fetch = [&](int64_t j, int64_t count) {
        for (int64_t f = j0 + j; f < std::min(j0 + j + count, j0 + nb); ++f) {
            if (kept(kv, f)) prefetch_row(kv.v + f * kv.v_stride, d);
            if (f + ahead < kv.n && kept(kv, f + ahead)) prefetch_row(kv.k + (f + ahead) * kv.k_stride, d);
        }
    };
    for (int64_t r = 0; r < g; r += 2) {
        const int64_t r2 = std::min(r + 1, g - 1);  // a last odd row pairs with itself
        __m512i qa[C], qb2[C];
        for (int c = 0; c < C; ++c) qa[c] = load(qb + r * d + c * kChunk), qb2[c] = load(qb + r2 * d + c * kChunk);
        float* sa = s + r * kBlock;
        float* sb = s + r2 * kBlock;
        for (int64_t j = 0; j < nb;) {
            bool eight = j + 8 <= nb;
            for (int64_t i = j; eight && i < j + 8; ++i) eight = kept(kv, j0 + i);
            if (eight) {
                if (r == 0) fetch(j, 8);
                scores8<C>(kv.k + (j0 + j) * kv.k_stride, kv.k_stride, qa, qb2, scale, sa + j, sb + j);
                j += 8;
                continue;
            }
            if (r == 0) fetch(j, 1);
            const uint16_t* kr = kv.k + (j0 + j) * kv.k_stride;
            const bool on = kept(kv, j0 + j);
            sa[j] = on ? score_one<C>(kr, qa, scale) : kMinusInf;
            sb[j] = on ? score_one<C>(kr, qb2, scale) : kMinusInf;
            ++j;
        }
    }
}

// A query row's block scores s[0..kBlock) -> its numerators e^(s - m) rounded to bf16 into p, the
// running maximum m and sum l updated and its accumulator acc [d] rescaled when m rises. Returns
// false when the block has no key for it.
REEF_AVX512_BF16 bool online_softmax(const float* s, int64_t d, float& m, float& l, float* acc, uint16_t* p) {
    const __m512 s0 = _mm512_loadu_ps(s), s1 = _mm512_loadu_ps(s + 16);
    const float block_max = lane_max(_mm512_max_ps(s0, s1));
    if (block_max == kMinusInf) return false;
    const float m_new = std::max(m, block_max);
    if (m_new != m && l != 0) {  // earlier numerators were against a smaller maximum
        const float corr = std::exp(m - m_new);
        l *= corr;
        const __m512 cv = _mm512_set1_ps(corr);
        for (int64_t i = 0; i < d; i += 16) _mm512_storeu_ps(acc + i, _mm512_mul_ps(_mm512_loadu_ps(acc + i), cv));
    }
    m = m_new;
    const __m512 mv = _mm512_set1_ps(m_new);
    const __m512bh pb = _mm512_cvtne2ps_pbh(exp_neg(_mm512_sub_ps(s1, mv)), exp_neg(_mm512_sub_ps(s0, mv)));
    _mm512_storeu_si512(p, (__m512i)pb);
    // l adds the numerators as rounded: the weights applied to the values sum to l
    const __m512i w = (__m512i)pb;
    const __m512 even = _mm512_castsi512_ps(_mm512_slli_epi32(w, 16));
    const __m512 odd = _mm512_castsi512_ps(_mm512_and_si512(w, _mm512_set1_epi32(int(0xFFFF0000u))));
    l += lane_sum(_mm512_add_ps(even, odd));
    return true;
}

// (p[j], p[j+1]) broadcast to every 32-bit lane; past nb (the padding) 0, as masked keys' are
REEF_AVX512_BF16 inline __m512bh numerator_pair(const uint16_t* p, int64_t j, int64_t nb) {
    return bh(_mm512_set1_epi32(int(uint32_t(p[j]) | uint32_t(j + 1 < nb ? p[j + 1] : 0) << 16)));
}

// acc rows a and b (when kTwo) += Σ_j p[j]·v_j over the block's kept value rows, two keys a step:
// their rows interleaved, each 32-bit lane a (v_j, v_j+1) pair of one dim, against the broadcast
// pair (p_j, p_j+1). Accumulator layout per 32-dim chunk c: [32c, 32c + 16) the low interleave's
// dims, [32c + 16, 32c + 32) the high one's (dim_of below).
template <int C, bool kTwo>
REEF_AVX512_BF16 void accumulate(const KvRows<uint16_t>& kv, int64_t j0, int64_t nb, const uint16_t* pa,
                                 const uint16_t* pb, float* acc_a, float* acc_b) {
    __m512 A[2 * C], B[2 * C];
    for (int i = 0; i < 2 * C; ++i) {
        A[i] = _mm512_loadu_ps(acc_a + 16 * i);
        if constexpr (kTwo) B[i] = _mm512_loadu_ps(acc_b + 16 * i);
    }
    for (int64_t j = 0; j < nb; j += 2) {
        const bool on0 = kept(kv, j0 + j), on1 = j + 1 < nb && kept(kv, j0 + j + 1);
        if (!on0 && !on1) continue;
        const uint16_t* r0 = on0 ? kv.v + (j0 + j) * kv.v_stride : kZeroRow;
        const uint16_t* r1 = on1 ? kv.v + (j0 + j + 1) * kv.v_stride : kZeroRow;
        const __m512bh wa = numerator_pair(pa, j, nb);
        const __m512bh wb = kTwo ? numerator_pair(pb, j, nb) : wa;
        for (int c = 0; c < C; ++c) {
            const __m512i x = load(r0 + c * kChunk), y = load(r1 + c * kChunk);
            const __m512bh lo = bh(_mm512_unpacklo_epi16(x, y)), hi = bh(_mm512_unpackhi_epi16(x, y));
            A[2 * c] = _mm512_dpbf16_ps(A[2 * c], lo, wa);
            A[2 * c + 1] = _mm512_dpbf16_ps(A[2 * c + 1], hi, wa);
            if constexpr (kTwo) {
                B[2 * c] = _mm512_dpbf16_ps(B[2 * c], lo, wb);
                B[2 * c + 1] = _mm512_dpbf16_ps(B[2 * c + 1], hi, wb);
            }
        }
    }
    for (int i = 0; i < 2 * C; ++i) {
        _mm512_storeu_ps(acc_a + 16 * i, A[i]);
        if constexpr (kTwo) _mm512_storeu_ps(acc_b + 16 * i, B[i]);
    }
}

// The dim an accumulator slot holds: slot 32c + 16h + i (h = 0 the low interleave, 1 the high one;
// lane i in 128-bit block i / 4) is dim 32c + 8·(i / 4) + 4h + i % 4.
inline int64_t dim_of(int64_t slot) {
    const int64_t c = slot / 32, h = (slot / 16) % 2, i = slot % 16;
    return 32 * c + 8 * (i / 4) + 4 * h + i % 4;
}

template <int C>
REEF_AVX512_BF16 void head(const float* q, int64_t g, const KvRows<uint16_t>& kv, float scale, float* out) {
    constexpr int64_t d = C * kChunk;
    thread_local std::vector<uint16_t> qb, pbuf;  // [g, d] the query in bf16, [g, kBlock] numerators
    thread_local std::vector<float> acc, scores, ml;  // [g, d] (interleaved dims), [g, kBlock], [2, g]
    qb.resize(size_t(g * d));
    for (int64_t i = 0; i < g * d; ++i) qb[size_t(i)] = float_to_bf16(q[i]);
    acc.assign(size_t(g * d), 0.0f);
    scores.resize(size_t(g * kBlock));
    pbuf.resize(size_t(g * kBlock));
    ml.assign(size_t(2 * g), 0.0f);
    float *m = ml.data(), *l = ml.data() + g;
    std::fill(m, m + g, kMinusInf);
    for (int64_t j0 = 0; j0 < kv.n; j0 += kBlock) {
        const int64_t nb = std::min(kBlock, kv.n - j0);
        block_scores<C>(qb.data(), g, kv, j0, nb, scale, scores.data());
        bool any = false;
        for (int64_t r = 0; r < g; ++r)
            if (online_softmax(scores.data() + r * kBlock, d, m[r], l[r], acc.data() + r * d, pbuf.data() + r * kBlock))
                any = true;
            else  // no key for this row (the rows share one mask, so none for any): no stale numerators
                std::fill(pbuf.begin() + r * kBlock, pbuf.begin() + (r + 1) * kBlock, uint16_t(0));
        if (!any) continue;
        for (int64_t r = 0; r < g; r += 2) {
            const uint16_t* p = pbuf.data() + r * kBlock;
            if (r + 1 < g)
                accumulate<C, true>(kv, j0, nb, p, p + kBlock, acc.data() + r * d, acc.data() + (r + 1) * d);
            else
                accumulate<C, false>(kv, j0, nb, p, nullptr, acc.data() + r * d, nullptr);
        }
    }
    for (int64_t r = 0; r < g; ++r) {
        const float inv_l = 1.0f / l[r];  // l = 0 (every key masked): NaN, as the portable kernel
        for (int64_t i = 0; i < d; ++i) out[r * d + dim_of(i)] = acc[size_t(r * d + i)] * inv_l;
    }
}

}  // namespace

bool decode_attention_head_avx512_bf16(const float* q, int64_t g, int64_t d, const KvRows<uint16_t>& kv, float scale,
                                       float* out) {
    switch (d) {
        case 32: head<1>(q, g, kv, scale, out); return true;
        case 64: head<2>(q, g, kv, scale, out); return true;
        case 96: head<3>(q, g, kv, scale, out); return true;
        case 128: head<4>(q, g, kv, scale, out); return true;
        default: return false;
    }
}

}  // namespace reef::kernels

#else  // not x86-64 GCC/Clang: the portable kernel serves every call

namespace reef::kernels {
bool decode_attention_head_avx512_bf16(const float*, int64_t, int64_t, const KvRows<uint16_t>&, float, float*) {
    return false;
}
}  // namespace reef::kernels

#endif
