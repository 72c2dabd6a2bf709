#include "nn/gemv.h"

#include <ATen/Parallel.h>
#include <ATen/record_function.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <functional>
#include <type_traits>
#include <vector>

#include "check.h"
#include "nn/gemv_team.h"
#include "nn/linear.h"
#include "base/cache_aligned.h"
#include "base/kernel_switch.h"
#ifdef REEF_HAVE_KERNELS
#include "kernels/gemv_int4.h"
#include "kernels/gemv_int4_blocks.h"
#include "kernels/gemv_int8.h"
#include "kernels/gemv_rows.h"
#include "kernels/row_ops.h"
static_assert(reef::kernels::kInt4BlockRows == reef::kInt4BlockRows);
#endif

namespace reef {
namespace {

constexpr int64_t kStep = 32;  // K must be a multiple of it: one vector step on every x86 target, no scalar tail
static_assert(sizeof(c10::BFloat16) == sizeof(uint16_t), "bf16 is passed to the kernels as its 16 bits");

bool g_paused = false;  // GemvPause; read and written on the engine thread only

// REEF_GEMV=0: libtorch's linear everywhere (read once per process)
bool gemv_switched_on() {
    static const bool enabled = kernel_switched_on("REEF_GEMV");
    return enabled;
}

// Several rows (prefill) of a bf16 projection where the CPU has no bf16 arithmetic: libtorch's
// bf16 GEMM there is ~3x slower than its fp32 one (s1-mini prefill, bf16 3.2 s against fp32 1.0 s
// on the AVX2 EPYC), so the rows go through fp32: the weights widened for the call (exact), fp32
// accumulation, one rounding to bf16 at the end, which is what a bf16 GEMM computes too.
bool widen_bf16_rows(const at::Tensor& x, const at::Tensor& w) {
    return gemv_switched_on() && w.scalar_type() == at::kBFloat16 && x.scalar_type() == at::kBFloat16 && x.device().is_cpu() &&
           x.dim() >= 2 && x.numel() / x.size(-1) > 1 && !cpu_has_bf16_arithmetic();
}

// How one call's rows go to the intra-op threads. Each thread owns a contiguous region (rows
// t·N/T..(t+1)·N/T, even bounds) cut into three chunks, three quarters then two eighths; it runs its
// own chunks in order, then takes the chunks of regions not yet taken, so a thread the memory or
// the scheduler slowed down hands its tail to the other. Measured on the AMX Xeon (s1-mini int4,
// bf16 compute, 2 threads, alternating processes): fixed halves 46.9 / 46.5 frames/s, these chunks
// 46.8 / 46.3, shrinking pieces from one shared counter (the guided schedule this replaced) 45.6 /
// 45.2, AVX2 forced 43.5 / 44.1, 43.6 / 42.9, 42.0 / 41.5; in an earlier pair of rounds fixed halves
// led the guided pieces by 4-6 %. Guided pieces start every piece's two streams cold and hand
// consecutive pieces to alternating threads, which costs more than the idle time they save; on the
// Zen 5 VM too the frames/s pointed the same way (bench/results/cpu/gemv-guided-zen5.md), where the
// idle time favoured the pieces. Every bound is even but the matrix's end and follows from N and T
// alone, so each row's bits (an odd last row takes the one-row dot) are the same in every call. A
// matrix under kMinPieceBytes per thread runs on fewer threads (one: on the calling thread, no
// parallel region). Inside a decode step's GemvTeam (nn/gemv_team.h) the team's threads take the
// regions' chunks the same way.
constexpr int64_t kMinPieceBytes = 64 << 10;
constexpr int64_t kMaxOwners = 64;

template <typename Rows>
void owned_rows(const at::Tensor& w, int64_t row_bytes, const Rows& rows) {
    const int64_t n = w.size(0);
    GemvTeam::State* team = gemv_team::active();
    const int64_t threads = team ? gemv_team::threads(*team) : at::get_num_threads();
    const int64_t owners = std::clamp<int64_t>(n * row_bytes / kMinPieceBytes, 1, std::min(threads, kMaxOwners));
    if (owners == 1 && !team) return rows(0, n);
    constexpr int kChunks = 3;
    std::array<std::array<int64_t, kChunks + 1>, kMaxOwners> bounds;
    std::array<std::atomic<int>, kMaxOwners> taken;
    for (int64_t t = 0; t < owners; ++t) {
        auto& b = bounds[size_t(t)];
        b[0] = (n * t / owners) & ~int64_t(1);
        b[kChunks] = t + 1 == owners ? n : (n * (t + 1) / owners) & ~int64_t(1);
        const int64_t len = b[kChunks] - b[0];
        b[1] = b[0] + ((len * 3 / 4) & ~int64_t(1));
        b[2] = std::min(b[kChunks], b[1] + ((len / 8) & ~int64_t(1)));
        taken[size_t(t)].store(0, std::memory_order_relaxed);
    }
    // thread `first`: its own region's chunks, then the others'
    auto run_from = [&](int64_t first) {
        for (int64_t o = 0; o < owners; ++o) {
            const size_t t = size_t((first + o) % owners);
            for (int c; (c = taken[t].fetch_add(1, std::memory_order_relaxed)) < kChunks;)
                if (bounds[t][size_t(c) + 1] > bounds[t][size_t(c)]) rows(bounds[t][size_t(c)], bounds[t][size_t(c) + 1]);
        }
    };
    if (team) {
        std::atomic<int64_t> arrivals{0};
        auto take = [&] { run_from(arrivals.fetch_add(1, std::memory_order_relaxed) % owners); };
        gemv_team::run_rows(*team, w, std::ref(take));  // a reference: no closure copy per call
    } else {
        at::parallel_for(0, owners, 1, [&](int64_t begin, int64_t end) {
            for (int64_t t = begin; t < end; ++t) run_from(t);
        });
    }
}

// y[j] = w·x[j] (+ b) for the m rows of x ([m, K] contiguous) into y ([m, N]): the one-row kernel
// for m = 1, the batched one for more, on libtorch's own OpenMP workers (the threads its other ops use,
// so nothing else competes for the cores; this file is built with OpenMP for that, see
// engine/CMakeLists.txt: without it the rows run serially).
void run_rows(const at::Tensor& w, const at::Tensor& x, const at::Tensor& b, at::Tensor& y, int64_t m) {
#ifdef REEF_HAVE_KERNELS
    const int64_t n = w.size(0), k = w.size(1);
    auto go = [&](const auto* wp, const auto* xp, const auto* bp, auto* yp) {
        using T = std::remove_cv_t<std::remove_pointer_t<decltype(wp)>>;
        owned_rows(w, k * int64_t(sizeof(T)), [&](int64_t r0, int64_t r1) {
            if constexpr (std::is_same_v<T, float>) {
                if (m == 1) kernels::gemv_rows_f32(wp, xp, bp, k, r0, r1, yp);
                else kernels::gemv_rows_f32_batch(wp, xp, k, m, bp, k, r0, r1, yp, n);
            } else {
                if (m == 1) kernels::gemv_rows_bf16(wp, xp, bp, k, r0, r1, yp);
                else kernels::gemv_rows_bf16_batch(wp, xp, k, m, bp, k, r0, r1, yp, n);
            }
        });
    };
    if (w.scalar_type() == at::kFloat) {
        go(w.const_data_ptr<float>(), x.const_data_ptr<float>(), b.defined() ? b.const_data_ptr<float>() : nullptr,
           y.mutable_data_ptr<float>());
    } else {
        auto bits = [](const at::Tensor& t) { return reinterpret_cast<const uint16_t*>(t.const_data_ptr<c10::BFloat16>()); };
        go(bits(w), bits(x), b.defined() ? bits(b) : nullptr, reinterpret_cast<uint16_t*>(y.mutable_data_ptr<c10::BFloat16>()));
    }
#else
    (void)w, (void)x, (void)b, (void)y, (void)m;
#endif
}

}  // namespace

bool cpu_has_bf16_arithmetic() {
#if defined(__x86_64__) || defined(__i386__)
    static const bool has = [] {
        __builtin_cpu_init();
        return bool(__builtin_cpu_supports("avx512bf16"));
    }();
    return has;
#else
    return false;
#endif
}

GemvPause::GemvPause(bool pause) : m_previous(g_paused) { g_paused = g_paused || pause; }
GemvPause::~GemvPause() { g_paused = m_previous; }
bool gemv_paused() { return g_paused; }

bool gemv_supported(at::ScalarType dtype) {
#ifdef REEF_HAVE_KERNELS
    return gemv_switched_on() && (dtype == at::kBFloat16 || dtype == at::kFloat);
#else
    (void)dtype;
    return false;  // built without Highway
#endif
}

at::Tensor gemv(const at::Tensor& x_in, const at::Tensor& w, const at::Tensor& b) {
    // x: [..., K] one row, w: [N, K] -> [..., N]
    auto out_sizes = x_in.sizes().vec();
    out_sizes.back() = w.size(0);
    at::Tensor y = at::empty(out_sizes, x_in.options().memory_format(at::MemoryFormat::Contiguous));
    gemv_into(x_in, w, b, y);
    return y;
}

void gemv_into(const at::Tensor& x_in, const at::Tensor& w, const at::Tensor& b, at::Tensor& y) {
    // x: M rows of K values (M·K contiguous), w: [N, K] -> y: M·N values; M = 1 is gemv(), more are
    // project_rows()'s batched kernel (each row's bits those it gets alone)
    const at::ScalarType dtype = w.scalar_type();
    REEF_CHECK(gemv_supported(dtype), "gemv: needs bf16 or fp32 weights and a build with the SIMD kernels");
    const int64_t n = w.size(0), k = w.size(1), m = k > 0 ? x_in.numel() / k : 0;
    REEF_CHECK(x_in.scalar_type() == dtype && w.is_contiguous() && w.device().is_cpu() && m >= 1 && x_in.numel() == m * k &&
                   k % kStep == 0 && (!b.defined() || (b.numel() == n && b.scalar_type() == dtype)),
               "gemv: needs rows x [.., K] and a contiguous [N, K] weight of their dtype, K a multiple of 32");
    REEF_CHECK(y.scalar_type() == dtype && y.numel() == m * n && y.is_contiguous() && y.device().is_cpu(),
               "gemv: needs an output of M·N contiguous values of the weight's dtype");
    const at::Tensor x = x_in.contiguous();
    const at::Tensor bias = b.defined() ? b.contiguous() : b;
    run_rows(w, x, bias, y, m);
}

bool gemv_int8_supported() {
#ifdef REEF_HAVE_KERNELS
    return gemv_switched_on();
#else
    return false;  // built without Highway
#endif
}

namespace {

#ifdef REEF_HAVE_KERNELS
// The quantized kernels take fp32 rows and write fp32 rows. A decode frame makes ~280 quantized
// calls, and converting around each with ATen (x.to(float), y.to(bf16)) cost ~10 dispatches a call,
// ~2 ms a frame of S1-mini int4 (the profile of issue #44: 8192 op calls a frame against bf16's
// 4230), so the conversions are loops here (bf16 in the row kernels' vectors, kernels/row_ops.h): x
// widened into the calling thread's scratch, y rounded once per row piece by the thread that
// computed it.

// t [numel] (fp32, bf16 or fp16) as fp32: t's own memory when it is fp32 and contiguous
const float* float_values(const at::Tensor& t, CacheAlignedVector<float>& scratch) {
    if (t.scalar_type() == at::kFloat && t.is_contiguous()) return t.const_data_ptr<float>();
    const at::Tensor c = t.contiguous();
    const int64_t n = c.numel();
    float* out = scratch_for(scratch, size_t(n));
    auto widen = [&](const auto* p) {
        for (int64_t i = 0; i < n; ++i) out[i] = float(p[i]);
    };
    if (c.scalar_type() == at::kBFloat16)
        kernels::widen_row(reinterpret_cast<const uint16_t*>(c.const_data_ptr<at::BFloat16>()), n, out);
    else if (c.scalar_type() == at::kHalf) widen(c.const_data_ptr<at::Half>());
    else widen(c.const_data_ptr<float>());
    return out;
}

// The kernels' fp32 outputs for y [m, N] of fp32, bf16 or fp16: where they write (y itself, or the
// calling thread's scratch), and the rounding of rows r0..r1 of each of the m outputs into y.
struct QuantOutput {
    at::Tensor y;
    float* rows = nullptr;  // [m, N] fp32

    QuantOutput(at::Tensor out, CacheAlignedVector<float>& scratch) : y(std::move(out)) {
        if (y.scalar_type() == at::kFloat) {
            rows = y.mutable_data_ptr<float>();
        } else {
            rows = scratch_for(scratch, size_t(y.numel()));
        }
    }
    void round(int64_t m, int64_t n, int64_t r0, int64_t r1) const {
        auto put = [&](auto* out) {
            using T = std::remove_pointer_t<decltype(out)>;
            for (int64_t j = 0; j < m; ++j)
                for (int64_t r = r0; r < r1; ++r) out[j * n + r] = T(rows[j * n + r]);  // round to nearest even
        };
        if (y.scalar_type() == at::kBFloat16) {  // the row kernels' rounding: T(float)'s bits, in vectors
            auto* out = reinterpret_cast<uint16_t*>(y.mutable_data_ptr<at::BFloat16>());
            for (int64_t j = 0; j < m; ++j) kernels::round_row(rows + j * n + r0, r1 - r0, out + j * n + r0);
        } else if (y.scalar_type() == at::kHalf) {
            put(y.mutable_data_ptr<at::Half>());
        }
    }
};
#endif

bool float_dtype(const at::Tensor& t) {
    return t.scalar_type() == at::kFloat || t.scalar_type() == at::kBFloat16 || t.scalar_type() == at::kHalf;
}

// y holds the quantized kernels' [M, N] result for x: contiguous, x's dtype, on the CPU
bool output_fits(const at::Tensor& y, const at::Tensor& x, int64_t numel) {
    return y.scalar_type() == x.scalar_type() && y.numel() == numel && y.is_contiguous() && y.device().is_cpu();
}

}  // namespace

at::Tensor gemv_int8(const at::Tensor& x, const at::Tensor& w, const at::Tensor& s, const at::Tensor& b,
                     bool exact_input) {
    // x: [M, K] fp32/bf16/fp16, w: [N, K] int8, s: [N] fp32 -> [M, N] in x's dtype
    REEF_CHECK(x.dim() == 2 && w.dim() == 2, "gemv_int8: needs x [M, K] and w [N, K]");
    at::Tensor y = at::empty({x.size(0), w.size(0)}, x.options().memory_format(at::MemoryFormat::Contiguous));
    gemv_int8_into(x, w, s, b, exact_input, y);
    return y;
}

void gemv_int8_into(const at::Tensor& x, const at::Tensor& w, const at::Tensor& s, const at::Tensor& b,
                    bool exact_input, at::Tensor& y) {
    REEF_CHECK(gemv_int8_supported(), "gemv_int8: needs a build with the SIMD kernels");
    REEF_CHECK(x.dim() == 2 && w.dim() == 2 && x.size(1) == w.size(1) && float_dtype(x) && x.device().is_cpu() &&
                   w.scalar_type() == at::kChar && w.is_contiguous() && w.device().is_cpu() && s.numel() == w.size(0) &&
                   s.scalar_type() == at::kFloat && (!b.defined() || (b.numel() == w.size(0) && float_dtype(b))),
               "gemv_int8: needs x [M, K] (fp32, bf16 or fp16), a contiguous int8 w [N, K], fp32 scales [N] (and bias [N])");
    const int64_t m = x.size(0), n = w.size(0), k = w.size(1);
    REEF_CHECK(output_fits(y, x, m * n), "gemv_int8: needs an output of M·N contiguous values of x's dtype");
#ifdef REEF_HAVE_KERNELS
    // the engine thread's scratch, kept between calls; the rows run on other threads, so they get
    // pointers, not the names (theirs are other, empty thread_local vectors)
    thread_local CacheAlignedVector<float> x_scratch, b_scratch, y_scratch;
    thread_local CacheAlignedVector<int16_t> xq;
    thread_local std::vector<float> sx;
    const at::Tensor scales = s.contiguous();
    const int8_t* wp = w.const_data_ptr<int8_t>();
    const float *xp = float_values(x, x_scratch), *sp = scales.const_data_ptr<float>();
    const float* bp = b.defined() ? float_values(b, b_scratch) : nullptr;
    const QuantOutput out(y, y_scratch);
    if (exact_input) {
        owned_rows(w, k, [&](int64_t r0, int64_t r1) {
            kernels::gemv_rows_i8(wp, sp, xp, k, m, bp, k, r0, r1, out.rows, n);
            out.round(m, n, r0, r1);
        });
    } else {
        // [m, K] and [m], quantized once per call and read by every thread
        int16_t* qp = scratch_for(xq, size_t(m * k));
        float* sxp = scratch_for(sx, size_t(m));
        for (int64_t j = 0; j < m; ++j) sxp[j] = kernels::quantize_row_q16(xp + j * k, k, qp + j * k);
        owned_rows(w, k, [&](int64_t r0, int64_t r1) {
            kernels::gemv_rows_i8_q16(wp, sp, qp, sxp, k, m, bp, k, r0, r1, out.rows, n);
            out.round(m, n, r0, r1);
        });
    }
#endif
}

int64_t int4_kernel_max_groups() {
#ifdef REEF_HAVE_KERNELS
    return kernels::kInt4MaxGroups;
#else
    return 0;
#endif
}

namespace {

// int4 weights as gemv_int4 takes them, in either layout: rows [N, K/2] with s, z [N, G], or
// blocks of 16 rows [N/16, K/8, 64] with s, z [N/16, G, 16] (kernels/gemv_int4_blocks.h)
struct Int4Shape {
    bool blocked = false;
    int64_t n = 0, k = 0, groups = 0;
};

Int4Shape int4_shape(const at::Tensor& w, const at::Tensor& s, const at::Tensor& z) {
    Int4Shape shape;
    shape.blocked = w.dim() == 3;
    const bool ok =
        w.scalar_type() == at::kByte && w.is_contiguous() && w.device().is_cpu() && s.scalar_type() == at::kBFloat16 &&
        z.scalar_type() == at::kBFloat16 && s.is_contiguous() && z.is_contiguous() && s.sizes() == z.sizes() &&
        (shape.blocked ? w.size(2) == 64 && s.dim() == 3 && s.size(0) == w.size(0) && s.size(2) == 16
                       : w.dim() == 2 && s.dim() == 2 && s.size(0) == w.size(0)) &&
        s.size(1) > 0;
    REEF_CHECK(ok, "gemv_int4: needs a contiguous uint8 w [N, K/2] with bf16 scales and zeros [N, G], or blocks of 16 "
                   "rows w [N/16, K/8, 64] with [N/16, G, 16]");
    shape.n = shape.blocked ? 16 * w.size(0) : w.size(0);
    shape.k = shape.blocked ? 8 * w.size(1) : 2 * w.size(1);
    shape.groups = s.size(1);
    return shape;
}

}  // namespace

bool gemv_int4_blocks_pay() {
#ifdef REEF_HAVE_KERNELS
    return gemv_int8_supported() && kernels::int4_blocks_pay();
#else
    return false;
#endif
}

at::Tensor gemv_int4(const at::Tensor& x, const at::Tensor& w, const at::Tensor& s, const at::Tensor& z,
                     const at::Tensor& b) {
    // x: [M, K] fp32/bf16/fp16, w and s, z in either layout -> [M, N] in x's dtype
    const Int4Shape shape = int4_shape(w, s, z);
    REEF_CHECK(x.dim() == 2, "gemv_int4: needs x [M, K]");
    at::Tensor y = at::empty({x.size(0), shape.n}, x.options().memory_format(at::MemoryFormat::Contiguous));
    gemv_int4_into(x, w, s, z, b, y);
    return y;
}

void gemv_int4_into(const at::Tensor& x, const at::Tensor& w, const at::Tensor& s, const at::Tensor& z,
                    const at::Tensor& b, at::Tensor& y) {
    REEF_CHECK(gemv_int8_supported(), "gemv_int4: needs a build with the SIMD kernels");
    const Int4Shape shape = int4_shape(w, s, z);
    const int64_t m = x.size(0), n = shape.n, k = shape.k, groups = shape.groups, group = k / groups;
    REEF_CHECK(x.dim() == 2 && x.size(1) == k && float_dtype(x) && x.device().is_cpu() &&
                   (!b.defined() || (b.numel() == n && float_dtype(b))),
               "gemv_int4: needs x [M, K] (fp32, bf16 or fp16) matching the weights (and bias [N])");
    REEF_CHECK(k % groups == 0 && int4_group_supported(group) &&
                   groups <= int4_kernel_max_groups(),
               "gemv_int4: group size must be 32, 64, 128 or 256, and a row at most int4_kernel_max_groups() groups");
    REEF_CHECK(output_fits(y, x, m * n), "gemv_int4: needs an output of M·N contiguous values of x's dtype");
#ifdef REEF_HAVE_KERNELS
    // [m, K] and [m, G] twice, prepared once per call and read by every thread (see gemv_int8)
    thread_local CacheAlignedVector<float> x_scratch, b_scratch, y_scratch;
    thread_local CacheAlignedVector<int8_t> xq;
    thread_local std::vector<float> xs, gsum;
    int8_t* qp = scratch_for(xq, size_t(m * k));
    float* xsp = scratch_for(xs, size_t(m * groups));
    float* gp = scratch_for(gsum, size_t(m * groups));
    const float* xp = float_values(x, x_scratch);
    for (int64_t j = 0; j < m; ++j) kernels::prepare_row_q8_i4(xp + j * k, k, group, qp + j * k, xsp + j * groups, gp + j * groups);
    const uint8_t* wp = w.const_data_ptr<uint8_t>();
    const auto* sp = reinterpret_cast<const uint16_t*>(s.const_data_ptr<at::BFloat16>());
    const auto* zp = reinterpret_cast<const uint16_t*>(z.const_data_ptr<at::BFloat16>());
    const float* bp = b.defined() ? float_values(b, b_scratch) : nullptr;
    const QuantOutput out(y, y_scratch);
    if (shape.blocked) {
        // the owned regions in blocks (w.size(0) of them, 16·K/2 bytes each)
        owned_rows(w, 8 * k, [&](int64_t b0, int64_t b1) {
            const int64_t r0 = b0 * kInt4BlockRows, r1 = b1 * kInt4BlockRows;
            kernels::gemv_blocks_i4_q8(wp, sp, zp, group, qp, xsp, gp, m, bp, k, r0, r1, out.rows, n);
            out.round(m, n, r0, r1);
        });
        return;
    }
    owned_rows(w, k / 2, [&](int64_t r0, int64_t r1) {
        kernels::gemv_rows_i4_q8(wp, sp, zp, group, qp, xsp, gp, m, bp, k, r0, r1, out.rows, n);
        out.round(m, n, r0, r1);
    });
#endif
}

Int4Rows int4_blocks_as_rows(const at::Tensor& w, const at::Tensor& s, const at::Tensor& z) {
    // w[b][c][r][i] -> [b·16 + r][4c + i]; s, z [b][g][r] -> [b·16 + r][g] (kernels/gemv_int4_blocks.h)
    REEF_CHECK(w.dim() == 3 && w.size(2) == 64 && s.dim() == 3 && s.size(2) == 16 && s.sizes() == z.sizes() &&
                   s.size(0) == w.size(0),
               "int4_blocks_as_rows: needs blocks w [nb, K/8, 64] with s, z [nb, G, 16]");
    const int64_t nb = w.size(0), k = 8 * w.size(1), groups = s.size(1);
    return {w.view({nb, k / 8, 16, 4}).permute({0, 2, 1, 3}).reshape({nb * 16, k / 2}),
            s.permute({0, 2, 1}).reshape({nb * 16, groups}), z.permute({0, 2, 1}).reshape({nb * 16, groups})};
}

void dequantize_int4_bf16(const at::Tensor& w, const at::Tensor& s, const at::Tensor& z, int64_t r0, at::Tensor& out) {
    // w, s, z in either layout -> out: [rows, K] bf16, rows r0..r0+rows of the matrix (a multiple of 16
    // of them from a multiple of 16 for blocks)
    REEF_CHECK(gemv_int8_supported(), "dequantize_int4_bf16: needs a build with the SIMD kernels");
    const Int4Shape shape = int4_shape(w, s, z);
    const int64_t n = shape.n, k = shape.k, rows = out.size(0);
    REEF_CHECK(k % shape.groups == 0 && out.scalar_type() == at::kBFloat16 && out.is_contiguous() && out.dim() == 2 &&
                   out.size(1) == k && r0 >= 0 && r0 + rows <= n &&
                   (!shape.blocked || (r0 % kInt4BlockRows == 0 && rows % kInt4BlockRows == 0)),
               "dequantize_int4_bf16: needs out [rows, K] bf16 within N (whole blocks of 16 rows for blocked weights)");
    if (shape.blocked) {
        // these rows' blocks back in the row layout (a few MB at most: a prefill's slice), then as rows
        const int64_t b0 = r0 / kInt4BlockRows, nb = rows / kInt4BlockRows;
        const Int4Rows r = int4_blocks_as_rows(w.narrow(0, b0, nb), s.narrow(0, b0, nb), z.narrow(0, b0, nb));
        return dequantize_int4_bf16(r.w, r.s, r.z, 0, out);
    }
#ifdef REEF_HAVE_KERNELS
    const int64_t group = k / shape.groups;
    const uint8_t* wp = w.const_data_ptr<uint8_t>();
    const auto* sp = reinterpret_cast<const uint16_t*>(s.const_data_ptr<at::BFloat16>());
    const auto* zp = reinterpret_cast<const uint16_t*>(z.const_data_ptr<at::BFloat16>());
    // the kernel writes rows at out + r·K: shift the base so row r0 lands at out's first row
    auto* op = reinterpret_cast<uint16_t*>(out.mutable_data_ptr<at::BFloat16>()) - r0 * k;
    at::parallel_for(r0, r0 + rows, 16, [&](int64_t a, int64_t b) { kernels::dequantize_rows_i4_bf16(wp, sp, zp, group, k, a, b, op); });
#endif
}

at::Tensor project_rows(const at::Tensor& x_in, const at::Tensor& w, const at::Tensor& b) {
    // x: [M, 1, K], w: [N, K] -> [M, 1, N]
    REEF_CHECK(x_in.dim() == 3 && x_in.size(1) == 1 && w.dim() == 2 && x_in.size(2) == w.size(1),
               "project_rows: needs x [M, 1, K] and w [N, K]");
    const int64_t m = x_in.size(0), n = w.size(0), k = w.size(1);
    if (m == 1) return project(x_in, w, b);
    const at::ScalarType dtype = w.scalar_type();
    const bool fits = x_in.scalar_type() == dtype && x_in.device().is_cpu() && k % kStep == 0 && w.is_contiguous() &&
                      (!b.defined() || (b.numel() == n && b.scalar_type() == dtype));
    if (!fits || g_paused || !gemv_supported(dtype)) {
        if (!x_in.device().is_cpu()) return b.defined() ? at::linear(x_in, w, b) : at::linear(x_in, w);
        std::vector<at::Tensor> rows;
        for (int64_t i = 0; i < m; ++i) rows.push_back(project(x_in.narrow(0, i, 1), w, b));
        return at::cat(rows, 0);
    }
    RECORD_FUNCTION("reef::gemv_batch", std::vector<c10::IValue>());
    const at::Tensor x = x_in.contiguous();
    const at::Tensor bias = b.defined() ? b.contiguous() : b;
    at::Tensor y = at::empty({m, 1, n}, x.options());
    run_rows(w, x, bias, y, m);  // the same pieces as gemv(): the same r0..r1 for every row
    return y;
}

at::Tensor project(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b) {
    const at::ScalarType dtype = w.scalar_type();
    const bool fits = x.scalar_type() == dtype && x.device().is_cpu() && w.dim() == 2 && x.numel() == w.size(1) &&
                      w.size(1) % kStep == 0 && w.is_contiguous() && (!b.defined() || b.scalar_type() == dtype);
    if (fits && !g_paused && gemv_supported(dtype)) {
        RECORD_FUNCTION("reef::gemv", std::vector<c10::IValue>());  // named in profiles like an ATen op
        return gemv(x, w, b);
    }
    if (!g_paused && widen_bf16_rows(x, w)) {
        RECORD_FUNCTION("reef::linear_fp32", std::vector<c10::IValue>());
        const at::Tensor y = b.defined() ? at::linear(x.to(at::kFloat), w.to(at::kFloat), b.to(at::kFloat))
                                         : at::linear(x.to(at::kFloat), w.to(at::kFloat));
        return y.to(at::kBFloat16);
    }
    return b.defined() ? at::linear(x, w, b) : at::linear(x, w);
}

}  // namespace reef
