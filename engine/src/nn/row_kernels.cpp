#include "nn/row_kernels.h"

#include <ATen/record_function.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "check.h"
#include "base/cache_aligned.h"
#include "base/kernel_switch.h"
#ifdef REEF_HAVE_KERNELS
#include "kernels/row_ops.h"
#endif

namespace reef {
namespace {

// Rows of the last dim: count and the stride between consecutive rows, when every dim but the
// last collapses onto one stride (a slice of a wider row, e.g. q out of the merged qkv, does).
struct Rows {
    int64_t count = 0, stride = 0;
};

Rows rows_of(const at::Tensor& x, int64_t row_len) {
    Rows r{x.numel() / std::max<int64_t>(row_len, 1), row_len};
    int64_t expect = -1;
    for (int64_t d = x.dim() - 2; d >= 0; --d) {
        if (x.size(d) == 1) continue;
        if (expect < 0) {
            r.stride = x.stride(d);
            expect = x.stride(d) * x.size(d);
        } else if (x.stride(d) == expect) {
            expect *= x.size(d);
        } else {
            return {r.count, -1};  // not one stride: the caller makes it contiguous first
        }
    }
    return r;
}

template <typename T>
inline float to_f(T v) { return float(v); }

// fp32 and bf16 rows go to the SIMD kernels (engine/kernels, the CPU's best target) where the build
// has them; fp16 rows, and every row in a build without Highway, take the scalar loops here.
#ifdef REEF_HAVE_KERNELS
template <typename T>
constexpr bool kSimd = std::is_same_v<T, float> || std::is_same_v<T, c10::BFloat16>;
#else
template <typename T>
constexpr bool kSimd = false;
#endif
// T* as the kernels' type: float stays, bf16 becomes its 16 bits
inline const float* raw(const float* p) { return p; }
inline float* raw(float* p) { return p; }
inline const uint16_t* raw(const c10::BFloat16* p) { return reinterpret_cast<const uint16_t*>(p); }
inline uint16_t* raw(c10::BFloat16* p) { return reinterpret_cast<uint16_t*>(p); }

template <typename T>
void rms_norm_kernel(const T* x, Rows rows, int64_t c, const T* w, float eps, bool round_first, T* y) {
    for (int64_t r = 0; r < rows.count; ++r) {
        const T* xr = x + r * rows.stride;
        T* yr = y + r * c;
#ifdef REEF_HAVE_KERNELS
        if constexpr (kSimd<T>) {
            kernels::rms_norm_row(raw(xr), c, raw(w), eps, round_first, raw(yr));
            continue;
        }
#endif
        float ss = 0;
        for (int64_t i = 0; i < c; ++i) ss += to_f(xr[i]) * to_f(xr[i]);
        const float inv = 1.0f / std::sqrt(ss / float(c) + eps);
        if (round_first)
            for (int64_t i = 0; i < c; ++i) yr[i] = T(to_f(T(to_f(xr[i]) * inv)) * to_f(w[i]));
        else
            for (int64_t i = 0; i < c; ++i) yr[i] = T(to_f(xr[i]) * inv * to_f(w[i]));
    }
}

template <typename T, typename F>
void rotary_kernel(const T* x, Rows tokens, int64_t s_len, int64_t h, int64_t d, const F* f, T* y) {
    // tokens: B·S rows of [H, D]; token t sits at sequence position t % S
    for (int64_t t = 0; t < tokens.count; ++t) {
        const F* ft = f + (t % s_len) * d;  // [D/2, 2]
#ifdef REEF_HAVE_KERNELS
        if constexpr (kSimd<T> && kSimd<F>) {
            kernels::rotary_row(raw(x + t * tokens.stride), h, d, raw(ft), raw(y + t * h * d));
            continue;
        }
#endif
        for (int64_t head = 0; head < h; ++head) {
            const T* xr = x + t * tokens.stride + head * d;
            T* yr = y + (t * h + head) * d;
            for (int64_t j = 0; j < d; j += 2) {
                const float a = to_f(xr[j]), b = to_f(xr[j + 1]), cs = to_f(ft[j]), sn = to_f(ft[j + 1]);
                yr[j] = T(a * cs - b * sn);
                yr[j + 1] = T(b * cs + a * sn);
            }
        }
    }
}

// silu: [rows, I] contiguous, already rounded to T (ATen's vectorised silu: a scalar exp here was
// ten times slower); h: the rows of [gate | up]
template <typename T>
void gate_mul_kernel(const T* silu, const T* h, Rows rows, int64_t inter, T* y) {
    for (int64_t r = 0; r < rows.count; ++r) {
        const T* up = h + r * rows.stride + inter;
        const T* sr = silu + r * inter;
        T* yr = y + r * inter;
#ifdef REEF_HAVE_KERNELS
        if constexpr (kSimd<T>) {
            kernels::gate_mul_row(raw(sr), raw(up), inter, raw(yr));
            continue;
        }
#endif
        for (int64_t i = 0; i < inter; ++i) yr[i] = T(to_f(sr[i]) * to_f(up[i]));
    }
}

// The dtypes with_type knows.
bool row_dtype(at::ScalarType t) { return t == at::kFloat || t == at::kBFloat16 || t == at::kHalf; }

// Calls fn with the C++ type of x's dtype (fp32, bf16, fp16).
template <typename Fn>
void with_type(at::ScalarType t, Fn&& fn) {
    switch (t) {
    case at::kFloat: fn(float{}); break;
    case at::kBFloat16: fn(c10::BFloat16{}); break;
    case at::kHalf: fn(c10::Half{}); break;
    default: REEF_CHECK(false, "row kernels: fp32, bf16 or fp16 only");
    }
}

at::Tensor rows_input(const at::Tensor& x, int64_t row_len, Rows& rows) {
    rows = rows_of(x, row_len);
    if (rows.stride >= 0) return x;
    at::Tensor c = x.contiguous();
    rows = rows_of(c, row_len);  // contiguous rows always collapse onto one stride
    return c;
}

}  // namespace

bool row_kernels_apply(const at::Tensor& x) {
    static const bool enabled = kernel_switched_on("REEF_ROW_KERNELS");  // 0: ATen everywhere
    return enabled && x.device().is_cpu() && x.dim() >= 1 && x.numel() > 0 && x.stride(-1) == 1 && !x.requires_grad() &&
           row_dtype(x.scalar_type()) && x.numel() / x.size(-1) <= kRowKernelMaxRows;
}

at::Tensor rms_norm_rows(const at::Tensor& x_in, const at::Tensor& weight, double eps, bool round_before_weight) {
    RECORD_FUNCTION("reef::rms_norm", std::vector<c10::IValue>());
    const int64_t c = x_in.size(-1);
    REEF_CHECK(row_kernels_apply(x_in) && weight.numel() == c && weight.scalar_type() == x_in.scalar_type(),
               "rms_norm_rows: needs a few CPU rows and a weight of their dtype and length");
    Rows rows;
    const at::Tensor x = rows_input(x_in, c, rows);
    const at::Tensor w = weight.contiguous();
    at::Tensor y = at::empty(x_in.sizes(), x_in.options().memory_format(at::MemoryFormat::Contiguous));
    with_type(x.scalar_type(), [&](auto tag) {
        using T = decltype(tag);
        rms_norm_kernel(x.const_data_ptr<T>(), rows, c, w.const_data_ptr<T>(), float(eps), round_before_weight,
                        y.mutable_data_ptr<T>());
    });
    return y;
}

bool rotary_rows_apply(const at::Tensor& x, const at::Tensor& f) {
    // x: [B, S, H, D], f: [S, D/2, 2]
    return x.dim() == 4 && row_kernels_apply(x) && f.dim() == 3 && f.size(0) == x.size(1) && f.size(1) * 2 == x.size(3) &&
           f.size(2) == 2 && f.device().is_cpu() && row_dtype(f.scalar_type());
}

at::Tensor rotary_rows(const at::Tensor& x_in, const at::Tensor& freqs_cis) {
    RECORD_FUNCTION("reef::rotary", std::vector<c10::IValue>());
    // x: [B, S, H, D], freqs_cis: [S, D/2, 2]
    REEF_CHECK(rotary_rows_apply(x_in, freqs_cis), "rotary_rows: needs x [B, S, H, D] on the CPU and freqs_cis [S, D/2, 2]");
    const int64_t s = x_in.size(1), h = x_in.size(2), d = x_in.size(3);
    // One token's heads must be packed ([H, D] contiguous), as a slice of the merged qkv's row is.
    const at::Tensor x = (h == 1 || x_in.stride(2) == d) ? x_in : x_in.contiguous();
    Rows tokens;
    const at::Tensor xt = rows_input(x.flatten(2), h * d, tokens);
    const at::Tensor f = freqs_cis.contiguous();
    at::Tensor y = at::empty(x_in.sizes(), x_in.options().memory_format(at::MemoryFormat::Contiguous));
    with_type(x.scalar_type(), [&](auto tag) {
        using T = decltype(tag);
        with_type(f.scalar_type(), [&](auto ftag) {
            using F = decltype(ftag);
            rotary_kernel(xt.const_data_ptr<T>(), tokens, s, h, d, f.const_data_ptr<F>(), y.mutable_data_ptr<T>());
        });
    });
    return y;
}

at::Tensor silu_mul_rows(const at::Tensor& h_in) {
    RECORD_FUNCTION("reef::silu_mul", std::vector<c10::IValue>());
    const int64_t two_i = h_in.size(-1);
    REEF_CHECK(row_kernels_apply(h_in) && two_i % 2 == 0, "silu_mul_rows: needs a few CPU rows of even length");
    Rows rows;
    const at::Tensor h = rows_input(h_in, two_i, rows);
    auto sizes = h_in.sizes().vec();
    sizes.back() = two_i / 2;
    at::Tensor y = at::empty(sizes, h_in.options().memory_format(at::MemoryFormat::Contiguous));
    const at::Tensor silu = at::silu(h.narrow(-1, 0, two_i / 2)).contiguous();  // [..., I]
    with_type(h.scalar_type(), [&](auto tag) {
        using T = decltype(tag);
        gate_mul_kernel(silu.const_data_ptr<T>(), h.const_data_ptr<T>(), rows, two_i / 2, y.mutable_data_ptr<T>());
    });
    return y;
}

bool qkv_to_cache_apply(const at::Tensor& qkv, const QkvHeads& heads, const at::Tensor& q_norm,
                        const at::Tensor& freqs_cis, const at::Tensor& k_cache, const at::Tensor& v_cache) {
#ifdef REEF_HAVE_KERNELS
    const at::ScalarType t = qkv.scalar_type();
    const int64_t d = heads.head_dim, kv_size = heads.n_kv_head * d;
    auto cache_fits = [&](const at::Tensor& c) {
        return c.dim() == 4 && c.size(0) == 1 && c.size(1) == heads.n_kv_head && c.size(3) == d && c.is_contiguous() &&
               c.scalar_type() == t && c.device().is_cpu();
    };
    const bool row = row_kernels_apply(qkv) && (t == at::kFloat || t == at::kBFloat16) && qkv.dim() == 3 &&
                     qkv.numel() == qkv.size(2) && qkv.is_contiguous() &&
                     qkv.size(2) == heads.n_head * d + 2 * kv_size && d % 2 == 0 &&
                     (!q_norm.defined() || (q_norm.scalar_type() == t && q_norm.numel() == d));
    const bool rope = freqs_cis.device().is_cpu() && freqs_cis.dim() == 3 && freqs_cis.size(0) == 1 &&
                      freqs_cis.size(1) * 2 == d && freqs_cis.size(2) == 2 && freqs_cis.is_contiguous() &&
                      (freqs_cis.scalar_type() == at::kFloat || freqs_cis.scalar_type() == at::kBFloat16);
    return row && rope && cache_fits(k_cache) && cache_fits(v_cache);
#else
    (void)qkv, (void)heads, (void)q_norm, (void)freqs_cis, (void)k_cache, (void)v_cache;
    return false;
#endif
}

at::Tensor qkv_to_cache(const at::Tensor& qkv, const QkvHeads& heads, const at::Tensor& q_norm,
                        const at::Tensor& k_norm, double eps, const at::Tensor& freqs_cis, const at::Tensor& k_cache,
                        const at::Tensor& v_cache, int64_t pos) {
    at::Tensor q = at::empty({1, heads.n_head, 1, heads.head_dim}, qkv.options());  // [1, H, 1, D]: the layout of [1, 1, H, D]
    qkv_to_cache_into(qkv, heads, q_norm, k_norm, eps, freqs_cis, k_cache, v_cache, pos, q);
    return q;
}

void qkv_to_cache_into(const at::Tensor& qkv, const QkvHeads& heads, const at::Tensor& q_norm,
                       const at::Tensor& k_norm, double eps, const at::Tensor& freqs_cis, const at::Tensor& k_cache,
                       const at::Tensor& v_cache, int64_t pos, at::Tensor& q) {
    RECORD_FUNCTION("reef::qkv_to_cache", std::vector<c10::IValue>());
    REEF_CHECK(qkv_to_cache_apply(qkv, heads, q_norm, freqs_cis, k_cache, v_cache) && pos >= 0 &&
                   pos < k_cache.size(2) && q_norm.defined() == k_norm.defined() &&
                   (!k_norm.defined() || k_norm.sizes() == q_norm.sizes()),
               "qkv_to_cache: needs one contiguous CPU qkv row, its RoPE row and contiguous caches with room at pos");
    const int64_t h = heads.n_head, hkv = heads.n_kv_head, d = heads.head_dim, cap = k_cache.size(2);
    REEF_CHECK(q.scalar_type() == qkv.scalar_type() && q.numel() == h * d && q.is_contiguous() && q.device().is_cpu(),
               "qkv_to_cache: q must hold H·D contiguous values of qkv's dtype");
#ifdef REEF_HAVE_KERNELS
    with_type(qkv.scalar_type(), [&](auto tag) {
        using T = decltype(tag);
        const T* src = qkv.const_data_ptr<T>();  // [q: H·D | k: Hkv·D | v: Hkv·D]
        const T* k_src = src + h * d;
        const T* v_src = k_src + hkv * d;
        T* kc = k_cache.mutable_data_ptr<T>();  // [Hkv, L, D]: head j's row pos at (j·L + pos)·D
        T* vc = v_cache.mutable_data_ptr<T>();
        // k and (with qk norm) q pass through a scratch row: RoPE reads whole packed heads
        thread_local std::vector<T> normed_rows, rotated_rows;
        T* const normed = scratch_for(normed_rows, size_t(h * d));
        T* const rotated = scratch_for(rotated_rows, size_t(hkv * d));
        // qk norm (torch.nn.RMSNorm: the weight in fp32, one rounding): n heads of D values as rows
        auto norm_heads = [&](const T* x, int64_t n, const at::Tensor& w) -> const T* {
            if (!w.defined()) return x;
            const at::Tensor wc = w.contiguous();
            rms_norm_kernel(x, Rows{n, d}, d, wc.const_data_ptr<T>(), float(eps), false, normed);
            return normed;
        };
        with_type(freqs_cis.scalar_type(), [&](auto ftag) {
            using F = decltype(ftag);
            const F* f = freqs_cis.const_data_ptr<F>();  // [1, D/2, 2]: one token at position 0 of f
            rotary_kernel(norm_heads(src, h, q_norm), Rows{1, h * d}, 1, h, d, f, q.mutable_data_ptr<T>());
            rotary_kernel(norm_heads(k_src, hkv, k_norm), Rows{1, hkv * d}, 1, hkv, d, f, rotated);
        });
        for (int64_t j = 0; j < hkv; ++j) {
            std::copy_n(rotated + j * d, d, kc + (j * cap + pos) * d);
            std::copy_n(v_src + j * d, d, vc + (j * cap + pos) * d);
        }
    });
#endif
}

}  // namespace reef
