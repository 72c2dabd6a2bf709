#include "nn/gemv_bf16.h"

#include <ATen/Parallel.h>
#include <ATen/record_function.h>
#include <c10/util/BFloat16.h>


#include "check.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define REEF_GEMV_BF16_X86 1
#endif

namespace reef {
namespace {

#ifdef REEF_GEMV_BF16_X86
#define REEF_AVX512_BF16 __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16")))

REEF_AVX512_BF16 inline void finish_row(__m512 acc, const c10::BFloat16* b, int64_t r, c10::BFloat16* y) {
    alignas(64) float lanes[16];
    _mm512_store_ps(lanes, acc);
    float v = 0;
    for (float lane : lanes) v += lane;
    if (b) v += float(b[r]);
    y[r] = c10::BFloat16(v);  // round to nearest even, once
}

// Rows r0..r1 of y = W·x (+ b). Four rows at a time share each load of x and keep four
// independent streams in flight; every row is read once, front to back.
REEF_AVX512_BF16 void gemv_rows(
    const uint16_t* w, const uint16_t* x, const c10::BFloat16* b, int64_t k, int64_t r0, int64_t r1,
    c10::BFloat16* y) {
    int64_t r = r0;
    for (; r + 4 <= r1; r += 4) {
        const uint16_t* w0 = w + r * k;
        __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps(), a2 = _mm512_setzero_ps(), a3 = _mm512_setzero_ps();
        for (int64_t i = 0; i < k; i += 32) {
            _mm_prefetch(reinterpret_cast<const char*>(w0 + 4 * k + i), _MM_HINT_T0);  // the next 4 rows
            _mm_prefetch(reinterpret_cast<const char*>(w0 + 5 * k + i), _MM_HINT_T0);
            _mm_prefetch(reinterpret_cast<const char*>(w0 + 6 * k + i), _MM_HINT_T0);
            _mm_prefetch(reinterpret_cast<const char*>(w0 + 7 * k + i), _MM_HINT_T0);
            const __m512bh xv = (__m512bh)_mm512_loadu_si512(x + i);
            a0 = _mm512_dpbf16_ps(a0, (__m512bh)_mm512_loadu_si512(w0 + i), xv);
            a1 = _mm512_dpbf16_ps(a1, (__m512bh)_mm512_loadu_si512(w0 + k + i), xv);
            a2 = _mm512_dpbf16_ps(a2, (__m512bh)_mm512_loadu_si512(w0 + 2 * k + i), xv);
            a3 = _mm512_dpbf16_ps(a3, (__m512bh)_mm512_loadu_si512(w0 + 3 * k + i), xv);
        }
        finish_row(a0, b, r, y), finish_row(a1, b, r + 1, y), finish_row(a2, b, r + 2, y), finish_row(a3, b, r + 3, y);
    }
    for (; r < r1; ++r) {
        __m512 a = _mm512_setzero_ps();
        for (int64_t i = 0; i < k; i += 32)
            a = _mm512_dpbf16_ps(a, (__m512bh)_mm512_loadu_si512(w + r * k + i), (__m512bh)_mm512_loadu_si512(x + i));
        finish_row(a, b, r, y);
    }
}
#endif

bool detect() {
#ifdef REEF_GEMV_BF16_X86
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bf16");
#else
    return false;
#endif
}

}  // namespace

bool gemv_bf16_supported() {
    static const bool supported = detect();
    return supported;
}

at::Tensor gemv_bf16(const at::Tensor& x_in, const at::Tensor& w, const at::Tensor& b) {
    // x: [..., K] one row, w: [N, K] -> [..., N]
    REEF_CHECK(gemv_bf16_supported(), "gemv_bf16: this CPU has no AVX-512 BF16");
    const int64_t n = w.size(0), k = w.size(1);
    REEF_CHECK(x_in.scalar_type() == at::kBFloat16 && w.scalar_type() == at::kBFloat16 && w.is_contiguous() &&
                   x_in.numel() == k && k % 32 == 0 && (!b.defined() || (b.numel() == n && b.scalar_type() == at::kBFloat16)),
               "gemv_bf16: needs one bf16 row of K % 32 == 0 and a contiguous [N, K] bf16 weight");
    const at::Tensor x = x_in.contiguous();
    const at::Tensor bias = b.defined() ? b.contiguous() : b;
    auto out_sizes = x_in.sizes().vec();
    out_sizes.back() = n;
    at::Tensor y = at::empty(out_sizes, x.options());
#ifdef REEF_GEMV_BF16_X86
    const auto* wp = reinterpret_cast<const uint16_t*>(w.data_ptr<at::BFloat16>());
    const auto* xp = reinterpret_cast<const uint16_t*>(x.data_ptr<at::BFloat16>());
    const c10::BFloat16* bp = bias.defined() ? bias.data_ptr<at::BFloat16>() : nullptr;
    c10::BFloat16* yp = y.data_ptr<at::BFloat16>();
    // One contiguous block of rows per intra-op thread (at least 64 rows each), on libtorch's own
    // OpenMP workers: the threads its other ops use, so nothing else competes for the cores. This
    // file is built with OpenMP for that (engine/CMakeLists.txt); without it the loop runs serially.
    at::parallel_for(0, n, 64, [&](int64_t r0, int64_t r1) { gemv_rows(wp, xp, bp, k, r0, r1, yp); });
#endif
    return y;
}

at::Tensor project(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b) {
    const bool fits = x.scalar_type() == at::kBFloat16 && w.scalar_type() == at::kBFloat16 && x.device().is_cpu() &&
                      w.dim() == 2 && x.numel() == w.size(1) && w.size(1) % 32 == 0 && w.is_contiguous() &&
                      (!b.defined() || b.scalar_type() == at::kBFloat16);
    if (fits && gemv_bf16_supported()) {
        RECORD_FUNCTION("reef::gemv_bf16", std::vector<c10::IValue>());  // named in profiles like an ATen op
        return gemv_bf16(x, w, b);
    }
    return b.defined() ? at::linear(x, w, b) : at::linear(x, w);
}

}  // namespace reef
