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
// - int8 against int16 inputs: each input split into two bytes and each weight read as an unsigned
//   byte, two vpdpbusd and an XOR per 64 weights (Int8U8) where the Highway rows widen every weight
//   to int16 and spend vpmaddwd and an add per 32. Integer sums: the same bits as every other
//   target's rows.
//
// Rows are read in the Highway rows' order (two_stream_rows-inl.h: a block's two halves as two
// streams, each pass's two rows against every input), so each input gets the bits it gets alone.
#include "kernels/gemv_vnni.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>
#include <vector>

#include "kernels/bf16.h"
#include "kernels/gemv_int4.h"
#include "kernels/row_pairs.h"

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12's AVX-512 headers pass an undefined vector as the unused merge source of masked loads
// and conversions (GCC bug 105593), which -Wmaybe-uninitialized and -Wuninitialized report once
// steps() and fold() inline them.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <hwy/aligned_allocator.h>
#include <immintrin.h>

namespace reef::kernels {

bool cpu_has_avx512_vnni() {
    static const bool has = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
    }();
    return has;
}

namespace {

#define REEF_AVX512_VNNI __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,fma")))

// acc += u·s (vpdpbusd: unsigned bytes of u times signed bytes of s, four products summed into
// each int32 lane), written as asm: with the intrinsic, GCC 12 copied every accumulator of a
// many-input loop to another register before each vpdpbusd and back after it (two moves per
// product, the loop ~2.5x slower than its products)
REEF_AVX512_VNNI inline void dpbusd(__m512i& acc, __m512i u, __m512i s) {
    asm("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(u), "v"(s));
}

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

// gemv_int8_simd.cpp's DotQ16 as unsigned-by-signed byte products (vpdpbusd), no widening: each
// int16 input splits into two bytes, xq = 256·xh + xl (xl = its low byte as int8, xh =
// (xq + 128) >> 8, within −64..64 as |xq| <= 16383), and each weight w is read as the unsigned
// byte w + 128 (w XOR 0x80). Then Σ (w + 128)·xh and Σ (w + 128)·xl are one vpdpbusd each per 64
// weights, and
//   Σ w·xq = 256·Σ (w + 128)·xh + Σ (w + 128)·xl − 128·Σ xq,
// the last term once per input (Int8Split). Exact integers, so the same bits as every other
// target's rows. Per 64 weights of a row: an XOR and two vpdpbusd, where widening to int16 cost two
// vpmovsxbw and two vpdpwssd (Highway's rows: two vpmaddwd and two adds besides).
//
// Up to four inputs take each pair of rows together (steps()): every 64-byte load flipped once for
// all of them, so past the first an input costs its two vpdpbusd a row and step (one Zen 4 core,
// rows in L2, 4 inputs: 6.1 us an input for 512 rows of 1024 where one at a time took 10.4; 11.3
// against 19.2 for 256 rows of 4096). Lanes: over kFold weights (64 steps) a lane's l sums at most
// 64·4·255·128 and its h half that, so 256·h + l stays below 1.1e9 and each row's two sums fold in
// the lanes before one reduction to int64 (the four separate lane sums a row and input had taken
// most of a 1024-wide row's time).
//
// No software prefetch: with an XOR and two vpdpbusd per 64 bytes these rows spend about the bf16
// rows' instructions per byte, and like theirs the hardware prefetcher keeps them fed. On the Zen 4
// EPYC (two threads, 100 MB of rows from memory, 10 rounds against Highway's AVX-512 rows at ~41 GB/s
// and a plain read at ~43) they read 41 GB/s without, 39 with 4 KiB ahead into L2, 35 with the int4
// rows' 2 KiB into L1. Not measured on an Intel CPU.
struct Int8U8 {
    const int8_t* w;   // [N, K]
    const int8_t* xl;  // [m, kp]: the inputs' low bytes
    const int8_t* xh;  // [m, kp]: their high parts
    const int64_t* shift;  // [m]: 128·Σ xq
    int64_t k, kp;
    static constexpr int64_t kFold = 64 * 64;

    // Σ over lanes of 256·h + l, exact (|256·h + l| < 2^31 a lane within kFold weights)
    REEF_AVX512_VNNI static int64_t fold(__m512i l, __m512i h) {
        const __m512i v = _mm512_add_epi32(_mm512_slli_epi32(h, 8), l);
        return _mm512_reduce_add_epi64(_mm512_add_epi64(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(v)),
                                                        _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(v, 1))));
    }
    // rows a and b against kM inputs j0..j0+kM-1 over whole steps [begin, end) (a multiple of 64, at
    // most kFold weights), added to ta and tb
    template <int kM>
    REEF_AVX512_VNNI void steps(const int8_t* wa, const int8_t* wb, int64_t j0, int64_t begin, int64_t end, int64_t* ta,
                                int64_t* tb) const {
        const __m512i flip = _mm512_set1_epi8(char(0x80));
        __m512i la[kM], ha[kM], lb[kM], hb[kM];
#pragma GCC unroll 4
        for (int j = 0; j < kM; ++j) la[j] = ha[j] = lb[j] = hb[j] = _mm512_setzero_si512();
        const int8_t* l = xl + j0 * kp;
        const int8_t* h = xh + j0 * kp;
        for (int64_t i = begin; i < end; i += 64) {
            const __m512i ua = _mm512_xor_si512(_mm512_loadu_si512(wa + i), flip);
            const __m512i ub = _mm512_xor_si512(_mm512_loadu_si512(wb + i), flip);
#pragma GCC unroll 4
            for (int j = 0; j < kM; ++j) {
                const __m512i l8 = _mm512_load_si512(l + j * kp + i), h8 = _mm512_load_si512(h + j * kp + i);
                dpbusd(la[j], ua, l8), dpbusd(ha[j], ua, h8);
                dpbusd(lb[j], ub, l8), dpbusd(hb[j], ub, h8);
            }
        }
#pragma GCC unroll 4
        for (int j = 0; j < kM; ++j) ta[j] += fold(la[j], ha[j]), tb[j] += fold(lb[j], hb[j]);
    }
    // rows a and b against input j over the partial last step [full, k), masked (its inputs load as
    // 0, so the flipped zeros add nothing)
    REEF_AVX512_VNNI void partial(const int8_t* wa, const int8_t* wb, int64_t j, int64_t full, int64_t& ta,
                                  int64_t& tb) const {
        const __mmask64 mask = (~__mmask64(0)) >> (64 - (k - full));
        const __m512i flip = _mm512_set1_epi8(char(0x80)), zero = _mm512_setzero_si512();
        const __m512i ua = _mm512_xor_si512(_mm512_maskz_loadu_epi8(mask, wa + full), flip);
        const __m512i ub = _mm512_xor_si512(_mm512_maskz_loadu_epi8(mask, wb + full), flip);
        const __m512i l8 = _mm512_maskz_loadu_epi8(mask, xl + j * kp + full);
        const __m512i h8 = _mm512_maskz_loadu_epi8(mask, xh + j * kp + full);
        __m512i la = zero, ha = zero, lb = zero, hb = zero;
        dpbusd(la, ua, l8), dpbusd(ha, ua, h8), dpbusd(lb, ub, l8), dpbusd(hb, ub, h8);
        ta += fold(la, ha), tb += fold(lb, hb);
    }
    // rows a and b against inputs j0..j0+kM-1: Σ w·xq of each
    template <int kM>
    REEF_AVX512_VNNI void many(int64_t ra, int64_t rb, int64_t j0, int64_t* ta, int64_t* tb) const {
        const int8_t *wa = w + ra * k, *wb = w + rb * k;
        for (int j = 0; j < kM; ++j) ta[j] = tb[j] = 0;
        const int64_t full = k / 64 * 64;
        for (int64_t c = 0; c < full; c += kFold) steps<kM>(wa, wb, j0, c, std::min(full, c + kFold), ta, tb);
        for (int j = 0; j < kM; ++j) {
            if (full < k) partial(wa, wb, j0 + j, full, ta[j], tb[j]);
            ta[j] -= shift[j0 + j], tb[j] -= shift[j0 + j];
        }
    }
};

// The m inputs split for Int8U8, into this thread's scratch (each thread of a call splits them for
// itself: K int16 per input, a few hundred instructions beside its share of N·K weights). Rows of
// 64-byte aligned bytes (Highway's aligned allocator): the 512-bit loads of a scratch with
// std::vector's alignment straddled two lines (one thread in L2 on the Zen 4, measured beside
// span()'s codegen fault: 36 against 38 GB/s).
struct Int8Split {
    hwy::AlignedFreeUniquePtr<int8_t[]> bytes;  // on a 64-byte line (HWY_ALIGNMENT)
    size_t capacity = 0;
    std::vector<int64_t> shift;
    int8_t* xl = nullptr;  // [m, kp]
    int8_t* xh = nullptr;  // [m, kp]
    int64_t kp = 0;

    REEF_AVX512_VNNI void prepare(const int16_t* xq, int64_t ldx, int64_t m, int64_t k) {
        kp = (k + 63) / 64 * 64;
        // grown, never shrunk (and never filled: every byte read is written below first)
        if (capacity < size_t(2 * m * kp)) {
            bytes = hwy::AllocateAligned<int8_t>(size_t(2 * m * kp));
            if (!bytes) throw std::bad_alloc();
            capacity = size_t(2 * m * kp);
        }
        if (shift.size() < size_t(m)) shift.resize(size_t(m));
        xl = bytes.get();
        xh = xl + m * kp;
        const __m512i half = _mm512_set1_epi16(128), ones = _mm512_set1_epi16(1);
        for (int64_t j = 0; j < m; ++j) {
            const int16_t* x = xq + j * ldx;
            int8_t *l = xl + j * kp, *h = xh + j * kp;
            __m512i sum = _mm512_setzero_si512();  // int32 lanes: pairs of |xq| <= 16383, K/32 steps
            for (int64_t i = 0; i < k; i += 32) {
                const __mmask32 mask = k - i >= 32 ? ~__mmask32(0) : __mmask32((1u << (k - i)) - 1);
                const __m512i v = _mm512_maskz_loadu_epi16(mask, x + i);
                _mm256_mask_storeu_epi8(l + i, mask, _mm512_cvtepi16_epi8(v));  // the low byte, as int8
                _mm256_mask_storeu_epi8(h + i, mask, _mm512_cvtepi16_epi8(_mm512_srai_epi16(_mm512_add_epi16(v, half), 8)));
                sum = _mm512_add_epi32(sum, _mm512_madd_epi16(v, ones));
            }
            shift[size_t(j)] = 128 * Int8U8::fold(sum, _mm512_setzero_si512());
        }
    }
};

// for_row_pairs' order (two_stream_rows-inl.h's), each pair against every input
template <typename Dot, typename Put>
void rows(const Dot& dot, int64_t r0, int64_t r1, int64_t m, const Put& put) {
    for_row_pairs(r0, r1, [&](int64_t ra, int64_t rb, bool both) {
        for (int64_t j = 0; j < m; ++j) {
            const auto [va, vb] = dot.two(ra, rb, j);
            put(j, ra, va);
            if (both) put(j, rb, vb);
        }
    });
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
    thread_local Int8Split split;
    split.prepare(xq, ldx, m, k);
    const Int8U8 dot{w, split.xl, split.xh, split.shift.data(), k, split.kp};
    const auto put = [&](int64_t j, int64_t r, int64_t total) {
        const float v = float(double(total) * double(sx[j]) * double(s[r]));
        y[j * ldy + r] = b ? v + b[r] : v;
    };
    // for_row_pairs' order, each pair against the inputs four at a time
    auto pair = [&](int64_t ra, int64_t rb, bool both) {
        for (int64_t j0 = 0; j0 < m; j0 += 4) {
            int64_t ta[4], tb[4];
            const int64_t mj = std::min<int64_t>(4, m - j0);
            if (mj == 4) dot.many<4>(ra, rb, j0, ta, tb);
            else if (mj == 3) dot.many<3>(ra, rb, j0, ta, tb);
            else if (mj == 2) dot.many<2>(ra, rb, j0, ta, tb);
            else dot.many<1>(ra, rb, j0, ta, tb);
            for (int64_t j = 0; j < mj; ++j) {
                put(j0 + j, ra, ta[j]);
                if (both) put(j0 + j, rb, tb[j]);
            }
        }
    };
    for_row_pairs(r0, r1, pair);
}

}  // namespace reef::kernels

#else  // not x86-64: never selected (cpu_has_avx512_vnni() is false), defined for the linker

namespace reef::kernels {
bool cpu_has_avx512_vnni() { return false; }
void gemv_rows_i4_q8_vnni(const uint8_t*, const uint16_t*, const uint16_t*, int64_t, const int8_t*, const float*,
                          const float*, int64_t, const float*, int64_t, int64_t, int64_t, float*, int64_t) {}
void gemv_rows_i8_q16_vnni(const int8_t*, const float*, const int16_t*, const float*, int64_t, int64_t, const float*,
                           int64_t, int64_t, int64_t, float*, int64_t) {}
}  // namespace reef::kernels

#endif
