#include "nn/reef_attention.h"

#include <ATen/Parallel.h>
#include <ATen/record_function.h>

#include <atomic>
#include <cmath>

#include "check.h"
#include "nn/gemv_team.h"

#ifdef REEF_HAVE_KERNELS
#include "kernels/decode_attention.h"
#endif

namespace reef {
namespace {

std::atomic<bool> g_on{false};

#ifdef REEF_HAVE_KERNELS
// The mask as one row of Lk flags per batch entry (a single row shared by all when its batch dim
// is 1): [Bm, Lk] bool, contiguous.
at::Tensor mask_rows(const at::Tensor& mask, int64_t lk) {
    return mask.reshape({-1, lk}).contiguous();
}

// Below this many multiply-adds a call's heads run on this thread: a parallel region costs ~2-3 µs
// to open and close (OpenMP on the AMX Xeon), more than half of such a call's work (the fast
// stack's attention over at most its 10 codebook rows: 8 KV heads · 2 · 10 · 64 = 10 K).
constexpr int64_t kMinParallelMacs = 32 << 10;

// head(i) for i in [0, items): on the intra-op threads, or inside a team step (where libtorch's ops
// run on this thread alone) on the team's threads; on this thread alone where the call does fewer
// than kMinParallelMacs multiply-adds. Each item is computed alone: the same bits either way.
template <typename Head>
void for_each_head(int64_t items, int64_t macs, const Head& head) {
    if (macs < kMinParallelMacs) {
        for (int64_t i = 0; i < items; ++i) head(i);
        return;
    }
    if (GemvTeam::State* team = gemv_team::active()) {
        const int64_t parts = gemv_team::threads(*team);
        gemv_team::run_each(*team, [&](int t) {
            for (int64_t i = items * t / parts; i < items * (t + 1) / parts; ++i) head(i);
        });
    } else {
        at::parallel_for(0, items, 1, [&](int64_t i0, int64_t i1) {
            for (int64_t i = i0; i < i1; ++i) head(i);
        });
    }
}
#endif

}  // namespace

bool set_reef_decode_attention(bool on) { return g_on.exchange(on); }
bool reef_decode_attention_on() { return g_on.load(std::memory_order_relaxed); }

std::string reef_attention_refusal(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                   const std::optional<at::Tensor>& mask) {
#ifndef REEF_HAVE_KERNELS
    (void)q, (void)k, (void)v, (void)mask;
    return "this build has no CPU kernels (Highway)";
#else
    if (!q.device().is_cpu() || !k.device().is_cpu() || !v.device().is_cpu()) return "Reef's decode attention is CPU-only";
    const auto dt = q.scalar_type();
    if (dt != at::kFloat && dt != at::kBFloat16) return std::string("no kernel for ") + c10::toString(dt);
    if (k.scalar_type() != dt || v.scalar_type() != dt) return "q, k and v differ in dtype";
    if (q.dim() != 4 || k.dim() != 4 || v.dim() != 4) return "not 4-d";
    const int64_t b = q.size(0), h = q.size(1), d = q.size(3), lk = k.size(2);
    if (k.size(0) != b || v.size(0) != b || k.size(1) != h || v.size(1) != h) return "batch or heads differ";
    if (k.size(3) != d || v.size(3) != d || v.size(2) != lk) return "head dims or key counts differ";
    if (lk < 1 || d < 2 || d % 2) return "needs at least one key and an even head dim";
    if (k.stride(3) != 1 || v.stride(3) != 1) return "rows not contiguous along the head dim";
    if (k.stride(2) < d || v.stride(2) < d) return "overlapping key rows";
    if (mask) {
        if (mask->scalar_type() != at::kBool) return "only a bool mask";
        const int64_t md = mask->dim();
        if (md < 1 || md > 4 || mask->size(-1) != lk) return "mask does not cover the keys";
        for (int64_t i = 2; i <= md; ++i)  // every dim but the last and the batch one is 1
            if (mask->size(-i) != 1 && !(i == 4 && (mask->size(0) == b))) return "mask differs per head or query row";
    }
    return {};
#endif
}

at::Tensor reef_decode_attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                 const std::optional<at::Tensor>& mask) {
#ifndef REEF_HAVE_KERNELS
    (void)q, (void)k, (void)v, (void)mask;
    throw ReefError(ErrorCode::BackendUnavailable, "Reef's decode attention: this build has no CPU kernels");
#else
    const std::string why = reef_attention_refusal(q, k, v, mask);
    if (!why.empty()) throw ReefError(ErrorCode::BackendUnavailable, "Reef's decode attention cannot take this call: " + why);
    const int64_t b = q.size(0), h = q.size(1), g = q.size(2), d = q.size(3), lk = k.size(2);
    const at::Tensor qf = q.to(at::kFloat).contiguous();                    // [B, H, G, D]: exact for bf16
    at::Tensor out = at::empty({b, h, g, d}, qf.options());                 // [B, H, G, D] fp32
    const at::Tensor keep = mask ? mask_rows(*mask, lk) : at::Tensor();     // [1 or B, Lk]
    const float scale = 1.0f / std::sqrt(float(d));
    const bool bf16 = q.scalar_type() == at::kBFloat16;
    auto head = [&](int64_t i) {  // i = batch · H + head
        const int64_t bi = i / h, hi = i % h;
        const uint8_t* kp =
            keep.defined() ? reinterpret_cast<const uint8_t*>(keep.data_ptr<bool>()) + (keep.size(0) == 1 ? 0 : bi * lk)
                           : nullptr;
        const float* qp = qf.data_ptr<float>() + i * g * d;
        float* op = out.data_ptr<float>() + i * g * d;
        const int64_t ko = bi * k.stride(0) + hi * k.stride(1), vo = bi * v.stride(0) + hi * v.stride(1);
        if (bf16) {
            const auto* kb = reinterpret_cast<const uint16_t*>(k.const_data_ptr<at::BFloat16>()) + ko;
            const auto* vb = reinterpret_cast<const uint16_t*>(v.const_data_ptr<at::BFloat16>()) + vo;
            kernels::decode_attention_head(qp, g, d, kernels::KvRows<uint16_t>{kb, vb, k.stride(2), v.stride(2), lk, kp},
                                           scale, op);
        } else {
            kernels::decode_attention_head(
                qp, g, d, kernels::KvRows<float>{k.const_data_ptr<float>() + ko, v.const_data_ptr<float>() + vo, k.stride(2),
                                                 v.stride(2), lk, kp},
                scale, op);
        }
    };
    for_each_head(b * h, b * h * g * lk * d, head);
    return bf16 ? out.to(at::kBFloat16) : out;  // one rounding, to nearest even
#endif
}

void reef_decode_attention_rows_batch(const float* q, int64_t hkv, int64_t g, int64_t d, const DecodeKvRows* kv,
                                      int64_t n, float* out) {
#ifndef REEF_HAVE_KERNELS
    (void)q, (void)hkv, (void)g, (void)d, (void)kv, (void)n, (void)out;
    throw ReefError(ErrorCode::BackendUnavailable, "Reef's decode attention: this build has no CPU kernels");
#else
    int64_t macs = 0;
    for (int64_t i = 0; i < n; ++i) {
        REEF_CHECK(kv[i].len >= 1 && d >= 2 && d % 2 == 0 && kv[i].row_stride >= d,
                   "reef_decode_attention_rows_batch: bad shape");
        macs += hkv * g * kv[i].len * d;
    }
    RECORD_FUNCTION("reef::decode_attention", std::vector<c10::IValue>());  // its own row in op profiles
    const float scale = 1.0f / std::sqrt(float(d));  // as reef_decode_attention
    for_each_head(n * hkv, macs, [&](int64_t item) {  // item = sequence · Hkv + KV head
        const int64_t i = item / hkv, j = item % hkv;
        const DecodeKvRows& r = kv[i];
        const int64_t o = j * r.head_stride;
        const float* qh = q + item * g * d;
        float* oh = out + item * g * d;
        if (r.bf16) {
            const auto* kb = static_cast<const uint16_t*>(r.k) + o;
            const auto* vb = static_cast<const uint16_t*>(r.v) + o;
            kernels::decode_attention_head(
                qh, g, d, kernels::KvRows<uint16_t>{kb, vb, r.row_stride, r.row_stride, r.len, r.keep}, scale, oh);
        } else {
            const auto* kf = static_cast<const float*>(r.k) + o;
            const auto* vf = static_cast<const float*>(r.v) + o;
            kernels::decode_attention_head(
                qh, g, d, kernels::KvRows<float>{kf, vf, r.row_stride, r.row_stride, r.len, r.keep}, scale, oh);
        }
    });
#endif
}

}  // namespace reef
