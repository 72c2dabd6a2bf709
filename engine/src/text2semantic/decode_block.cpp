#include "text2semantic/decode_block.h"

#include <ATen/record_function.h>
#include <c10/util/BFloat16.h>

#include <atomic>
#include <type_traits>
#include <vector>

#include "base/kernel_switch.h"
#include "check.h"
#include "nn/attention.h"
#include "nn/reef_attention.h"
#include "nn/row_kernels.h"
#ifdef REEF_HAVE_KERNELS
#include "kernels/row_ops.h"
#endif

namespace reef {
namespace {

std::atomic<bool> g_on{[] { return kernel_switched_on("REEF_DECODE_BLOCK"); }()};

// The step's buffers for one block shape and dtype, made on the first call and reused by every
// block of that shape (a frame runs the slow stack's and the fast stack's blocks in turn: two sets).
struct Workspace {
    at::ScalarType dtype = at::kFloat;
    int64_t c = 0, n_qkv = 0, hd = 0, two_i = 0;
    at::Tensor norm;    // [1, C]: RMSNorm out, the next projection's row
    at::Tensor qkv;     // [1, 1, (H + 2·Hkv)·D]
    at::Tensor q;       // [1, H, 1, D]
    at::Tensor att;     // [1, H·D]: attention out, rounded to dtype
    at::Tensor proj;    // [C]: wo or w2 out
    at::Tensor h;       // [C]: x + attention
    at::Tensor up;      // [1, 2I]: w13 out
    at::Tensor gate;    // [1, I]: up's first half (a view, made once)
    at::Tensor silu;    // [1, I]
    at::Tensor gated;   // [1, I]
    std::vector<float> q32, att32;  // [H·D] fp32: the attention kernel's query and output

    bool fits(at::ScalarType t, int64_t c_, int64_t n_qkv_, int64_t hd_, int64_t two_i_) const {
        return dtype == t && c == c_ && n_qkv == n_qkv_ && hd == hd_ && two_i == two_i_;
    }
};

Workspace& workspace(const at::Tensor& x, const BlockWeights& w, const BlockDims& dims) {
    thread_local std::vector<Workspace> sets;  // the engine thread's; one per block shape seen
    const at::ScalarType t = x.scalar_type();
    const int64_t c = x.size(-1), n_qkv = w.attention.wqkv.weight.size(0), hd = dims.n_head * dims.head_dim;
    const int64_t two_i = w.feed_forward.w13.weight.size(0);
    for (Workspace& s : sets)
        if (s.fits(t, c, n_qkv, hd, two_i)) return s;
    Workspace s;
    s.dtype = t, s.c = c, s.n_qkv = n_qkv, s.hd = hd, s.two_i = two_i;
    const auto o = x.options();
    s.norm = at::empty({1, c}, o);
    s.qkv = at::empty({1, 1, n_qkv}, o);
    s.q = at::empty({1, dims.n_head, 1, dims.head_dim}, o);
    s.att = at::empty({1, hd}, o);
    s.proj = at::empty({c}, o);
    s.h = at::empty({c}, o);
    s.up = at::empty({1, two_i}, o);
    s.gate = s.up.narrow(1, 0, two_i / 2);
    s.silu = at::empty({1, two_i / 2}, o);
    s.gated = at::empty({1, two_i / 2}, o);
    s.q32.resize(size_t(hd));
    s.att32.resize(size_t(hd));
    sets.push_back(std::move(s));
    return sets.back();
}

bool norm_fits(const at::Tensor& weight, const at::Tensor& x) {
    return weight.defined() && weight.scalar_type() == x.scalar_type() && weight.numel() == x.size(-1) &&
           weight.is_contiguous() && weight.device().is_cpu();
}

#ifdef REEF_HAVE_KERNELS
template <typename T>
struct Raw;
template <>
struct Raw<float> {
    using type = float;
};
template <>
struct Raw<c10::BFloat16> {
    using type = uint16_t;
};
template <typename T>
auto raw(const at::Tensor& t) {
    return reinterpret_cast<const typename Raw<T>::type*>(t.const_data_ptr<T>());
}
template <typename T>
auto raw_mut(const at::Tensor& t) {
    return reinterpret_cast<typename Raw<T>::type*>(t.mutable_data_ptr<T>());
}

// y = a + b as ATen adds two tensors of T: in fp32, rounded once to T (to nearest even)
template <typename T>
void add_rows(const T* a, const T* b, int64_t n, T* y) {
    for (int64_t i = 0; i < n; ++i) y[i] = T(float(a[i]) + float(b[i]));
}

template <typename T>
at::Tensor run_block(const at::Tensor& x, const BlockWeights& w, const BlockDims& dims, const at::Tensor& freqs_cis,
                     const CacheSlot& slot, Workspace& s) {
    const int64_t c = s.c, h = dims.n_head, hkv = dims.n_local_heads, d = dims.head_dim, inter = s.two_i / 2;
    const float eps = float(dims.norm_eps);
    const AttentionWeights& a = w.attention;

    // attention_norm -> wqkv -> qk norm, RoPE, cache row `start` (attention_core's CPU decode path)
    kernels::rms_norm_row(raw<T>(x), c, raw<T>(w.attention_norm), eps, true, raw_mut<T>(s.norm));
    project_row_into(s.norm, a.wqkv, s.qkv);
    slot.cache->check_rows(slot.layer, slot.start, 1);
    const at::Tensor &kc = slot.cache->key_rows(slot.layer), &vc = slot.cache->value_rows(slot.layer);
    qkv_to_cache_into(s.qkv, QkvHeads{h, hkv, d}, a.q_norm, a.k_norm, dims.norm_eps, freqs_cis, kc, vc, slot.start, s.q);

    // Reef's decode attention over the cache's first kv_len rows: q [H, D] = [Hkv, G, D] widened
    // (exact), the fp32 output rounded once to T (reef_decode_attention's .to(bf16))
    const int64_t kv_len = slot.span->kv_len, cap = kc.size(2);
    const T* qp = s.q.const_data_ptr<T>();
    for (int64_t i = 0; i < h * d; ++i) s.q32[size_t(i)] = float(qp[i]);
    DecodeKvRows kv;
    kv.k = kc.const_data_ptr<T>();
    kv.v = vc.const_data_ptr<T>();
    kv.head_stride = cap * d, kv.row_stride = d, kv.len = kv_len;
    kv.keep = slot.span->mask ? reinterpret_cast<const uint8_t*>(slot.span->mask->const_data_ptr<bool>()) : nullptr;
    kv.bf16 = std::is_same_v<T, c10::BFloat16>;
    reef_decode_attention_rows(s.q32.data(), hkv, h / hkv, d, kv, s.att32.data());
    BackendRecorder::current().record(slot.site, SdpaBackend::Reef, kv_len, [&] {
        return describe_call({1, h, 1, d}, {1, hkv, kv_len, d}, x.scalar_type());
    });
    T* att = s.att.mutable_data_ptr<T>();
    for (int64_t i = 0; i < h * d; ++i) att[i] = T(s.att32[size_t(i)]);  // [1, 1, H·D]: heads in order

    // h = x + wo(att); out = h + w2(silu(w1·n) · w3·n), n = ffn_norm(h)
    project_row_into(s.att, a.wo, s.proj);
    add_rows(x.const_data_ptr<T>(), s.proj.const_data_ptr<T>(), c, s.h.mutable_data_ptr<T>());
    kernels::rms_norm_row(raw<T>(s.h), c, raw<T>(w.ffn_norm), eps, true, raw_mut<T>(s.norm));
    project_row_into(s.norm, w.feed_forward.w13, s.up);
    at::silu_out(s.silu, s.gate);  // ATen's silu, as silu_mul_rows: its bits
    kernels::gate_mul_row(raw<T>(s.silu), raw<T>(s.up) + inter, inter, raw_mut<T>(s.gated));
    project_row_into(s.gated, w.feed_forward.w2, s.proj);
    at::Tensor out = at::empty({1, 1, c}, x.options());
    add_rows(s.h.const_data_ptr<T>(), s.proj.const_data_ptr<T>(), c, out.mutable_data_ptr<T>());
    return out;
}
#endif

}  // namespace

bool set_decode_block(bool on) { return g_on.exchange(on); }

bool decode_block_apply(const at::Tensor& x, const BlockWeights& w, const BlockDims& dims, const at::Tensor& freqs_cis,
                        const CacheSlot& slot) {
#ifdef REEF_HAVE_KERNELS
    const at::ScalarType t = x.scalar_type();
    if (!g_on.load(std::memory_order_relaxed) || !(t == at::kFloat || t == at::kBFloat16) || x.dim() != 3 ||
        x.numel() != x.size(2) || !x.is_contiguous() || !row_kernels_apply(x))
        return false;
    // attention() takes Reef's kernel only at the decode call sites, with the policy on
    if (!(slot.site == CallSite::SlowDecode || slot.site == CallSite::FastDecode) || !reef_decode_attention_on() ||
        slot.cache == nullptr || slot.span == nullptr || slot.index.defined() || slot.span->kv_len < 1)
        return false;
    const AttentionWeights& a = w.attention;
    const FeedForwardWeights& f = w.feed_forward;
    if (!norm_fits(w.attention_norm, x) || !norm_fits(w.ffn_norm, x) || !project_row_into_apply(a.wqkv, t) ||
        !project_row_into_apply(a.wo, t) || !project_row_into_apply(f.w13, t) || !project_row_into_apply(f.w2, t))
        return false;
    const int64_t hd = dims.n_head * dims.head_dim;
    if (dims.n_local_heads < 1 || dims.n_head % dims.n_local_heads || a.wqkv.weight.size(0) != hd + 2 * dims.n_local_heads * dims.head_dim ||
        a.wqkv.in_features() != x.size(2) || a.wo.in_features() != hd || a.wo.weight.size(0) != x.size(2) ||
        f.w13.in_features() != x.size(2) || f.w13.weight.size(0) % 2 || f.w2.in_features() != f.w13.weight.size(0) / 2 ||
        f.w2.weight.size(0) != x.size(2))
        return false;
    if (const auto& mask = slot.span->mask;
        mask && !(mask->scalar_type() == at::kBool && mask->numel() == slot.span->kv_len && mask->is_contiguous() &&
                  mask->device().is_cpu()))
        return false;
    const at::Tensor &kc = slot.cache->key_rows(slot.layer), &vc = slot.cache->value_rows(slot.layer);
    const Workspace& s = workspace(x, w, dims);
    return slot.start < kc.size(2) && slot.span->kv_len <= kc.size(2) &&
           qkv_to_cache_apply(s.qkv, QkvHeads{dims.n_head, dims.n_local_heads, dims.head_dim}, a.q_norm, freqs_cis, kc, vc);
#else
    (void)x, (void)w, (void)dims, (void)freqs_cis, (void)slot;
    return false;
#endif
}

at::Tensor decode_block(const at::Tensor& x, const BlockWeights& w, const BlockDims& dims, const at::Tensor& freqs_cis,
                        const CacheSlot& slot) {
    RECORD_FUNCTION("reef::decode_block", std::vector<c10::IValue>());
    REEF_CHECK(decode_block_apply(x, w, dims, freqs_cis, slot), "decode_block: this block does not take the fused path");
#ifdef REEF_HAVE_KERNELS
    Workspace& s = workspace(x, w, dims);
    if (x.scalar_type() == at::kBFloat16) return run_block<c10::BFloat16>(x, w, dims, freqs_cis, slot, s);
    return run_block<float>(x, w, dims, freqs_cis, slot, s);
#else
    (void)freqs_cis;
    return {};
#endif
}

}  // namespace reef
