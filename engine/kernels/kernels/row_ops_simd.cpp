// kernels/row_ops.h in Highway: each row op loads its dtype as fp32 vectors, computes in fp32 and
// stores with the dtype's rounding; lanes past the last whole vector take the scalar form of the
// same formula.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/row_ops_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include <cmath>

#include "kernels/bf16.h"
#include "kernels/cpu_target.h"
#include "kernels/row_ops.h"

HWY_BEFORE_NAMESPACE();
namespace reef::kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using D = hn::ScalableTag<float>;
using V = hn::Vec<D>;

// scalar load/round/store of one element
inline float to_f(float v) { return v; }
inline float to_f(uint16_t v) { return bf16_to_float(v); }
inline float round_as(float, float v) { return v; }
inline float round_as(uint16_t, float v) { return bf16_to_float(float_to_bf16(v)); }
inline void put(float* p, float v) { *p = v; }
inline void put(uint16_t* p, float v) { *p = float_to_bf16(v); }

// vector load: fp32 as is, bf16 widened (its bits are the upper half of an fp32)
inline V load(D d, const float* p) { return hn::LoadU(d, p); }
inline V load(D d, const uint16_t* p) {
    const hn::RebindToUnsigned<D> du;
    const hn::Rebind<uint16_t, D> dh;
    return hn::BitCast(d, hn::ShiftLeft<16>(hn::PromoteTo(du, hn::LoadU(dh, p))));
}

// fp32 lanes rounded to bf16 (nearest even), still as fp32 bits; NaN lanes become the quiet NaN
// bf16 0x7FC0 as in float_to_bf16.
inline hn::Vec<hn::RebindToUnsigned<D>> bf16_bits_high(D d, V v) {
    const hn::RebindToUnsigned<D> du;
    const auto u = hn::BitCast(du, v);
    const auto bias = hn::Add(hn::Set(du, 0x7FFFu), hn::And(hn::ShiftRight<16>(u), hn::Set(du, 1u)));
    const auto rounded = hn::And(hn::Add(u, bias), hn::Set(du, 0xFFFF0000u));
    return hn::IfThenElse(hn::RebindMask(du, hn::IsNaN(v)), hn::Set(du, 0x7FC00000u), rounded);
}
inline V round_as(D, const float*, V v) { return v; }
inline V round_as(D d, const uint16_t*, V v) { return hn::BitCast(d, bf16_bits_high(d, v)); }

inline void store(D d, V v, float* p) { hn::StoreU(v, d, p); }
inline void store(D d, V v, uint16_t* p) {
    const hn::RebindToSigned<D> di;
    const hn::Rebind<uint16_t, D> dh;
    // the rounded value's upper half fits in 16 bits, so the saturating narrow only drops zeros
    hn::StoreU(hn::DemoteTo(dh, hn::BitCast(di, hn::ShiftRight<16>(bf16_bits_high(d, v)))), dh, p);
}

template <typename T>
void RmsNormRow(const T* x, int64_t c, const T* w, float eps, bool round_first, T* y) {
    const D d;
    const int64_t lanes = int64_t(hn::Lanes(d));
    const int64_t cv = c - c % lanes;
    auto ss_v = hn::Zero(d);
    for (int64_t i = 0; i < cv; i += lanes) {
        const V v = load(d, x + i);
        ss_v = hn::Add(ss_v, hn::Mul(v, v));
    }
    float ss = hn::GetLane(hn::SumOfLanes(d, ss_v));
    for (int64_t i = cv; i < c; ++i) ss += to_f(x[i]) * to_f(x[i]);
    const float inv = 1.0f / std::sqrt(ss / float(c) + eps);
    const V inv_v = hn::Set(d, inv);
    for (int64_t i = 0; i < cv; i += lanes) {
        V n = hn::Mul(load(d, x + i), inv_v);
        if (round_first) n = round_as(d, x, n);
        store(d, hn::Mul(n, load(d, w + i)), y + i);
    }
    for (int64_t i = cv; i < c; ++i) {
        float n = to_f(x[i]) * inv;
        if (round_first) n = round_as(T{}, n);
        put(y + i, n * to_f(w[i]));
    }
}

// The whole vectors of one head: x·cos + swap(x)·(−sin, +sin), Reverse2 swapping each pair and
// DupEven/DupOdd spreading cos and sin over it. Returns how many elements it did.
template <typename T, typename F>
int64_t RotaryVectors(const T* xr, int64_t d_head, const F* f, T* yr) {
#if HWY_TARGET == HWY_SCALAR
    return 0;  // one lane: no pair within a vector
#else
    const D d;
    const int64_t lanes = int64_t(hn::Lanes(d));
    const int64_t dv = d_head - d_head % lanes;
    const V sign = hn::OddEven(hn::Set(d, 1.0f), hn::Set(d, -1.0f));  // odd lanes +, even lanes −
    for (int64_t j = 0; j < dv; j += lanes) {
        const V xv = load(d, xr + j), fv = load(d, f + j);
        const V cos_part = hn::Mul(xv, hn::DupEven(fv));
        const V sin_part = hn::Mul(hn::Mul(hn::Reverse2(d, xv), hn::DupOdd(fv)), sign);
        store(d, hn::Add(cos_part, sin_part), yr + j);
    }
    return dv;
#endif
}

template <typename T, typename F>
void RotaryRow(const T* x, int64_t heads, int64_t d_head, const F* f, T* y) {
    for (int64_t h = 0; h < heads; ++h) {
        const T* xr = x + h * d_head;
        T* yr = y + h * d_head;
        for (int64_t j = RotaryVectors(xr, d_head, f, yr); j < d_head; j += 2) {
            const float a = to_f(xr[j]), b = to_f(xr[j + 1]), cs = to_f(f[j]), sn = to_f(f[j + 1]);
            put(yr + j, a * cs - b * sn);
            put(yr + j + 1, b * cs + a * sn);
        }
    }
}

// y[i] = op(a[i], b[i]) in fp32, rounded once to T: whole vectors, then the same op lane by lane.
// op takes two vectors or two floats (Highway's vectors have no operators on every target).
template <typename T, typename Op>
void BinaryRow(const T* a, const T* b, int64_t n, T* y, const Op& op) {
    const D d;
    const int64_t lanes = int64_t(hn::Lanes(d));
    const int64_t nv = n - n % lanes;
    for (int64_t i = 0; i < nv; i += lanes) store(d, op(load(d, a + i), load(d, b + i)), y + i);
    for (int64_t i = nv; i < n; ++i) put(y + i, op(to_f(a[i]), to_f(b[i])));
}
struct MulOp {
    V operator()(V a, V b) const { return hn::Mul(a, b); }
    float operator()(float a, float b) const { return a * b; }
};
struct AddOp {
    V operator()(V a, V b) const { return hn::Add(a, b); }
    float operator()(float a, float b) const { return a + b; }
};

// one dtype to the other: load() widens, store() rounds
template <typename From, typename To>
void ConvertRow(const From* x, int64_t n, To* y) {
    const D d;
    const int64_t lanes = int64_t(hn::Lanes(d));
    const int64_t nv = n - n % lanes;
    for (int64_t i = 0; i < nv; i += lanes) store(d, load(d, x + i), y + i);
    for (int64_t i = nv; i < n; ++i) put(y + i, to_f(x[i]));
}

// Two passes over the row (it sits in L1): the largest value, returning at the first NaN met, then
// the first index holding it (== makes −0 and +0 one value, as at::argmax's comparisons do).
template <bool kDivide>
int64_t ArgmaxRow(const float* x, const float* q, int64_t n) {
    const D d;
    const int64_t lanes = int64_t(hn::Lanes(d));
    const int64_t nv = n - n % lanes;
    auto value = [&](int64_t i) { return kDivide ? hn::Div(hn::LoadU(d, x + i), hn::LoadU(d, q + i)) : hn::LoadU(d, x + i); };
    auto scalar = [&](int64_t i) { return kDivide ? x[i] / q[i] : x[i]; };
    V top = hn::Set(d, -HUGE_VALF);
    for (int64_t i = 0; i < nv; i += lanes) {
        const V v = value(i);
        const auto nan = hn::IsNaN(v);
        if (!hn::AllFalse(d, nan)) return i + int64_t(hn::FindFirstTrue(d, nan));
        top = hn::Max(top, v);
    }
    float m = hn::GetLane(hn::MaxOfLanes(d, top));
    for (int64_t i = nv; i < n; ++i) {
        const float v = scalar(i);
        if (std::isnan(v)) return i;
        m = v > m ? v : m;
    }
    const V mv = hn::Set(d, m);
    for (int64_t i = 0; i < nv; i += lanes) {
        const auto hit = hn::Eq(value(i), mv);
        if (!hn::AllFalse(d, hit)) return i + int64_t(hn::FindFirstTrue(d, hit));
    }
    for (int64_t i = nv; i < n; ++i)
        if (scalar(i) == m) return i;
    return 0;  // not reached: m is one of the values
}

// Highway's Sin (3 ulp on |a·x| <= 39000); the last partial vector goes through a padded copy, so
// every sample takes the same vector formula wherever it lies in the row.
inline V snake(D d, V v, V a, V ia) {
    const V s = hn::Sin(d, hn::Mul(a, v));
    return hn::Add(v, hn::Mul(ia, hn::Mul(s, s)));
}

// The last `count` (< one vector) values of x through `one` (a whole-vector step: input, output)
// by way of zero-padded copies.
template <typename T, typename One>
void padded_tail(const T* x, int64_t count, T* y, const One& one) {
    HWY_ALIGN T xin[HWY_MAX_BYTES / sizeof(float)] = {};
    HWY_ALIGN T yout[HWY_MAX_BYTES / sizeof(float)] = {};
    for (int64_t i = 0; i < count; ++i) xin[i] = x[i];
    one(xin, yout);
    for (int64_t i = 0; i < count; ++i) y[i] = yout[i];
}

template <typename T>
void SnakeRow(const T* x, int64_t n, float alpha, float inv_alpha, T* y) {
    const D d;
    const int64_t lanes = int64_t(hn::Lanes(d));
    const V a = hn::Set(d, alpha), ia = hn::Set(d, inv_alpha);
    auto one = [&](const T* xi, T* yi) { store(d, snake(d, load(d, xi), a, ia), yi); };
    const int64_t nv = n - n % lanes;
    for (int64_t i = 0; i < nv; i += lanes) one(x + i, y + i);
    if (nv < n) padded_tail(x + nv, n - nv, y + nv, one);
}

template <typename T>
void SnakeChannelsLast(const T* x, int64_t rows, int64_t c, int64_t ldx, const float* alpha, const float* inv_alpha,
                       T* y) {
    const D d;
    const int64_t lanes = int64_t(hn::Lanes(d));
    const int64_t cv = c - c % lanes;
    HWY_ALIGN float a_tail[HWY_MAX_BYTES / sizeof(float)] = {}, ia_tail[HWY_MAX_BYTES / sizeof(float)] = {};
    for (int64_t i = cv; i < c; ++i) a_tail[i - cv] = alpha[i], ia_tail[i - cv] = inv_alpha[i];
    for (int64_t r = 0; r < rows; ++r) {
        const T* xr = x + r * ldx;
        T* yr = y + r * c;
        for (int64_t i = 0; i < cv; i += lanes)
            store(d, snake(d, load(d, xr + i), hn::LoadU(d, alpha + i), hn::LoadU(d, inv_alpha + i)), yr + i);
        if (cv < c)
            padded_tail(xr + cv, c - cv, yr + cv, [&](const T* xi, T* yi) {
                store(d, snake(d, load(d, xi), hn::Load(d, a_tail), hn::Load(d, ia_tail)), yi);
            });
    }
}

void RmsNormF32(const float* x, int64_t c, const float* w, float eps, bool rf, float* y) { RmsNormRow(x, c, w, eps, rf, y); }
void RmsNormBf16(const uint16_t* x, int64_t c, const uint16_t* w, float eps, bool rf, uint16_t* y) {
    RmsNormRow(x, c, w, eps, rf, y);
}
void RotaryF32F32(const float* x, int64_t h, int64_t d, const float* f, float* y) { RotaryRow(x, h, d, f, y); }
void RotaryBf16F32(const uint16_t* x, int64_t h, int64_t d, const float* f, uint16_t* y) { RotaryRow(x, h, d, f, y); }
void RotaryF32Bf16(const float* x, int64_t h, int64_t d, const uint16_t* f, float* y) { RotaryRow(x, h, d, f, y); }
void RotaryBf16Bf16(const uint16_t* x, int64_t h, int64_t d, const uint16_t* f, uint16_t* y) { RotaryRow(x, h, d, f, y); }
void GateMulF32(const float* s, const float* u, int64_t n, float* y) { BinaryRow(s, u, n, y, MulOp{}); }
void GateMulBf16(const uint16_t* s, const uint16_t* u, int64_t n, uint16_t* y) { BinaryRow(s, u, n, y, MulOp{}); }
void AddF32(const float* a, const float* b, int64_t n, float* y) { BinaryRow(a, b, n, y, AddOp{}); }
void AddBf16(const uint16_t* a, const uint16_t* b, int64_t n, uint16_t* y) { BinaryRow(a, b, n, y, AddOp{}); }
int64_t Argmax(const float* x, const float* q, int64_t n) {
    return q ? ArgmaxRow<true>(x, q, n) : ArgmaxRow<false>(x, nullptr, n);
}
void WidenBf16(const uint16_t* x, int64_t n, float* y) { ConvertRow(x, n, y); }
void RoundBf16(const float* x, int64_t n, uint16_t* y) { ConvertRow(x, n, y); }
void SnakeF32(const float* x, int64_t n, float a, float ia, float* y) { SnakeRow(x, n, a, ia, y); }
void SnakeBf16(const uint16_t* x, int64_t n, float a, float ia, uint16_t* y) { SnakeRow(x, n, a, ia, y); }
void SnakeClF32(const float* x, int64_t r, int64_t c, int64_t ld, const float* a, const float* ia, float* y) {
    SnakeChannelsLast(x, r, c, ld, a, ia, y);
}
void SnakeClBf16(const uint16_t* x, int64_t r, int64_t c, int64_t ld, const float* a, const float* ia, uint16_t* y) {
    SnakeChannelsLast(x, r, c, ld, a, ia, y);
}

}  // namespace HWY_NAMESPACE
}  // namespace reef::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace reef::kernels {
HWY_EXPORT(RmsNormF32);
HWY_EXPORT(RmsNormBf16);
HWY_EXPORT(RotaryF32F32);
HWY_EXPORT(RotaryBf16F32);
HWY_EXPORT(RotaryF32Bf16);
HWY_EXPORT(RotaryBf16Bf16);
HWY_EXPORT(GateMulF32);
HWY_EXPORT(GateMulBf16);
HWY_EXPORT(AddF32);
HWY_EXPORT(AddBf16);
HWY_EXPORT(Argmax);
HWY_EXPORT(WidenBf16);
HWY_EXPORT(RoundBf16);
HWY_EXPORT(SnakeF32);
HWY_EXPORT(SnakeBf16);
HWY_EXPORT(SnakeClF32);
HWY_EXPORT(SnakeClBf16);

// Each entry point applies REEF_CPU_TARGET first, so the very first call already runs the target
// that was asked for; then it calls the chosen target's version.
#define REEF_ROW_ENTRY(entry, kernel, params, args) \
    void entry params {                              \
        ensure_target_chosen();                      \
        HWY_DYNAMIC_DISPATCH(kernel) args;           \
    }
REEF_ROW_ENTRY(rms_norm_row, RmsNormF32, (const float* x, int64_t c, const float* w, float eps, bool rf, float* y),
               (x, c, w, eps, rf, y))
REEF_ROW_ENTRY(rms_norm_row, RmsNormBf16,
               (const uint16_t* x, int64_t c, const uint16_t* w, float eps, bool rf, uint16_t* y), (x, c, w, eps, rf, y))
REEF_ROW_ENTRY(rotary_row, RotaryF32F32, (const float* x, int64_t h, int64_t d, const float* f, float* y), (x, h, d, f, y))
REEF_ROW_ENTRY(rotary_row, RotaryBf16F32, (const uint16_t* x, int64_t h, int64_t d, const float* f, uint16_t* y),
               (x, h, d, f, y))
REEF_ROW_ENTRY(rotary_row, RotaryF32Bf16, (const float* x, int64_t h, int64_t d, const uint16_t* f, float* y),
               (x, h, d, f, y))
REEF_ROW_ENTRY(rotary_row, RotaryBf16Bf16, (const uint16_t* x, int64_t h, int64_t d, const uint16_t* f, uint16_t* y),
               (x, h, d, f, y))
REEF_ROW_ENTRY(gate_mul_row, GateMulF32, (const float* s, const float* u, int64_t n, float* y), (s, u, n, y))
REEF_ROW_ENTRY(gate_mul_row, GateMulBf16, (const uint16_t* s, const uint16_t* u, int64_t n, uint16_t* y), (s, u, n, y))
REEF_ROW_ENTRY(add_row, AddF32, (const float* a, const float* b, int64_t n, float* y), (a, b, n, y))
REEF_ROW_ENTRY(add_row, AddBf16, (const uint16_t* a, const uint16_t* b, int64_t n, uint16_t* y), (a, b, n, y))
int64_t argmax_row(const float* x, const float* q, int64_t n) {
    ensure_target_chosen();
    return HWY_DYNAMIC_DISPATCH(Argmax)(x, q, n);
}
REEF_ROW_ENTRY(widen_row, WidenBf16, (const uint16_t* x, int64_t n, float* y), (x, n, y))
REEF_ROW_ENTRY(round_row, RoundBf16, (const float* x, int64_t n, uint16_t* y), (x, n, y))
REEF_ROW_ENTRY(snake_row, SnakeF32, (const float* x, int64_t n, float a, float ia, float* y), (x, n, a, ia, y))
REEF_ROW_ENTRY(snake_row, SnakeBf16, (const uint16_t* x, int64_t n, float a, float ia, uint16_t* y), (x, n, a, ia, y))
REEF_ROW_ENTRY(snake_rows_channels_last, SnakeClF32,
               (const float* x, int64_t r, int64_t c, int64_t ld, const float* a, const float* ia, float* y),
               (x, r, c, ld, a, ia, y))
REEF_ROW_ENTRY(snake_rows_channels_last, SnakeClBf16,
               (const uint16_t* x, int64_t r, int64_t c, int64_t ld, const float* a, const float* ia, uint16_t* y),
               (x, r, c, ld, a, ia, y))
#undef REEF_ROW_ENTRY

}  // namespace reef::kernels
#endif  // HWY_ONCE
