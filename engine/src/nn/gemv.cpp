#include "nn/gemv.h"

#include <ATen/Parallel.h>
#include <ATen/record_function.h>
#include <c10/util/BFloat16.h>

#include "check.h"
#include "nn/kernel_switch.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define REEF_GEMV_X86 1
#endif

namespace reef {
namespace {

constexpr int64_t kStep = 32;  // weights per step (bf16: one 64-byte line, fp32: two): K must be a multiple of it

#ifdef REEF_GEMV_X86
#define REEF_AVX512_BF16 __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16")))
using bf16 = c10::BFloat16;

REEF_AVX512_BF16 inline float lane_sum(__m512 acc) {
    alignas(64) float lanes[16];
    _mm512_store_ps(lanes, acc);
    float v = 0;
    for (float lane : lanes) v += lane;
    return v;
}

template <typename T>
inline void store(float v, T* y, int64_t r, const T* b) {
    y[r] = T(b ? v + float(b[r]) : v);  // bf16: round to nearest even, once
}

// acc += 32 bf16 weights · 32 bf16 inputs, in pairs, accumulated in fp32.
REEF_AVX512_BF16 inline __m512 mac(__m512 acc, const bf16* w, const bf16* x) {
    return _mm512_dpbf16_ps(acc, (__m512bh)_mm512_loadu_si512(w), (__m512bh)_mm512_loadu_si512(x));
}

// fp32: acc += 32 weights · 32 inputs as two fused multiply-adds, so one step reads 128 bytes of a
// row (two cache lines) and the row loop below is the same for both types.
REEF_AVX512_BF16 inline __m512 mac(__m512 acc, const float* w, const float* x) {
    acc = _mm512_fmadd_ps(_mm512_loadu_ps(w), _mm512_loadu_ps(x), acc);
    return _mm512_fmadd_ps(_mm512_loadu_ps(w + 16), _mm512_loadu_ps(x + 16), acc);
}

// Rows r0..r1 of y = W·x (+ b). Four rows at a time keep four independent streams in flight while
// the next four are prefetched; every row is read once, front to back.
template <typename T>
REEF_AVX512_BF16 void gemv_rows(const T* w, const T* x, const T* b, int64_t k, int64_t r0, int64_t r1, T* y) {
    int64_t r = r0;
    for (; r + 4 <= r1; r += 4) {
        const T* w0 = w + r * k;
        __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps(), a2 = _mm512_setzero_ps(), a3 = _mm512_setzero_ps();
        for (int64_t i = 0; i < k; i += kStep) {
            for (int64_t ahead = 4; ahead < 8; ++ahead) {  // the next four rows (a prefetch past the end is harmless)
                const char* line = reinterpret_cast<const char*>(w0 + ahead * k + i);
                _mm_prefetch(line, _MM_HINT_T0);
                if constexpr (sizeof(T) == 4) _mm_prefetch(line + 64, _MM_HINT_T0);  // fp32: a step is two lines
            }
            a0 = mac(a0, w0 + i, x + i);
            a1 = mac(a1, w0 + k + i, x + i);
            a2 = mac(a2, w0 + 2 * k + i, x + i);
            a3 = mac(a3, w0 + 3 * k + i, x + i);
        }
        store(lane_sum(a0), y, r, b), store(lane_sum(a1), y, r + 1, b);
        store(lane_sum(a2), y, r + 2, b), store(lane_sum(a3), y, r + 3, b);
    }
    for (; r < r1; ++r) {
        __m512 a = _mm512_setzero_ps();
        for (int64_t i = 0; i < k; i += kStep) a = mac(a, w + r * k + i, x + i);
        store(lane_sum(a), y, r, b);
    }
}
#endif

struct CpuFeatures {
    bool avx512 = false, avx512_bf16 = false;
};

CpuFeatures detect_cpu() {
    CpuFeatures f;
#ifdef REEF_GEMV_X86
    __builtin_cpu_init();
    f.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl");
    f.avx512_bf16 = f.avx512 && __builtin_cpu_supports("avx512bf16");
#endif
    return f;
}

}  // namespace

bool gemv_supported(at::ScalarType dtype) {
    static const bool enabled = kernel_switched_on("REEF_GEMV");  // 0: libtorch's linear everywhere
    static const CpuFeatures cpu = detect_cpu();
    if (!enabled) return false;
    // One CPU level for both types: the row loop is compiled once per type for AVX-512 BF16.
    return (dtype == at::kBFloat16 || dtype == at::kFloat) && cpu.avx512_bf16;
}

at::Tensor gemv(const at::Tensor& x_in, const at::Tensor& w, const at::Tensor& b) {
    // x: [..., K] one row, w: [N, K] -> [..., N]
    const at::ScalarType dtype = w.scalar_type();
    REEF_CHECK(gemv_supported(dtype), "gemv: needs bf16 or fp32 weights and a CPU with AVX-512 BF16");
    const int64_t n = w.size(0), k = w.size(1);
    REEF_CHECK(x_in.scalar_type() == dtype && w.is_contiguous() && w.device().is_cpu() && x_in.numel() == k &&
                   k % kStep == 0 && (!b.defined() || (b.numel() == n && b.scalar_type() == dtype)),
               "gemv: needs one row x [.., K] and a contiguous [N, K] weight of its dtype, K a multiple of 32");
    const at::Tensor x = x_in.contiguous();
    const at::Tensor bias = b.defined() ? b.contiguous() : b;
    auto out_sizes = x_in.sizes().vec();
    out_sizes.back() = n;
    at::Tensor y = at::empty(out_sizes, x.options());
#ifdef REEF_GEMV_X86
    auto run = [&](auto tag) {
        using T = decltype(tag);
        const T* wp = w.const_data_ptr<T>();
        const T* xp = x.const_data_ptr<T>();
        const T* bp = bias.defined() ? bias.const_data_ptr<T>() : nullptr;
        T* yp = y.mutable_data_ptr<T>();
        // One contiguous block of rows per intra-op thread (at least 64 rows each), on libtorch's
        // own OpenMP workers: the threads its other ops use, so nothing else competes for the
        // cores. This file is built with OpenMP for that (engine/CMakeLists.txt); without it the
        // loop runs serially.
        at::parallel_for(0, n, 64, [&](int64_t r0, int64_t r1) { gemv_rows(wp, xp, bp, k, r0, r1, yp); });
    };
    if (dtype == at::kFloat)
        run(float{});
    else
        run(bf16{});
#endif
    return y;
}

at::Tensor project(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b) {
    const at::ScalarType dtype = w.scalar_type();
    const bool fits = x.scalar_type() == dtype && x.device().is_cpu() && w.dim() == 2 && x.numel() == w.size(1) &&
                      w.size(1) % kStep == 0 && w.is_contiguous() && (!b.defined() || b.scalar_type() == dtype);
    if (fits && gemv_supported(dtype)) {
        RECORD_FUNCTION("reef::gemv", std::vector<c10::IValue>());  // named in profiles like an ATen op
        return gemv(x, w, b);
    }
    return b.defined() ? at::linear(x, w, b) : at::linear(x, w);
}

}  // namespace reef
