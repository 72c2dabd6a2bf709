#include "text2semantic/decode_block.h"

#include <ATen/ops/silu_cpu_dispatch.h>
#include <ATen/record_function.h>
#include <c10/util/BFloat16.h>

#include <algorithm>
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
thread_local bool t_ops = false;     // a DecodeBlockOps(true) is alive on this thread
thread_local int64_t t_blocks = 0;   // fused blocks run on this thread, one per sequence

#ifdef REEF_HAVE_KERNELS
// The step's buffers for one block shape, dtype and batch size, made on the first call and reused
// by every block of that shape (a frame runs the slow stack's and the fast stack's blocks in turn:
// two sets per batch size).
struct Workspace {
    at::ScalarType dtype = at::kFloat;
    int64_t b = 0, c = 0, n_qkv = 0, hd = 0, two_i = 0;
    at::Tensor norm;   // [B, C]: RMSNorm out, the next projection's rows
    at::Tensor qkv;    // [B, 1, (H + 2·Hkv)·D]
    at::Tensor q;      // [B, H·D]
    at::Tensor att;    // [B, H·D]: attention out, rounded to dtype
    at::Tensor proj;   // [B, C]: wo or w2 out
    at::Tensor h;      // [B, C]: x + attention
    at::Tensor up;     // [B, 2I]: w13 out
    at::Tensor silu;   // [B, I]
    at::Tensor gated;  // [B, I]
    // per sequence, views made once: qkv [1, 1, N], q [1, H·D], up's first half [1, I], silu [1, I]
    std::vector<at::Tensor> qkv_rows, q_rows, gate_rows, silu_rows;
    std::vector<float> q32, att32;  // [B, H·D] fp32: the attention kernel's queries and outputs
    std::vector<DecodeKvRows> kv;   // [B]: each sequence's cache rows
    at::Tensor outs[2];             // [B, 1, C]: the block's output, reused once no one holds it

    // An output buffer nobody else holds (neither the tensor nor a view of its storage): the caller
    // drops a block's output once the next block has read it, so two of them take turns (an
    // at::empty a block was ~3 µs of the engine thread while the other core waited); one still
    // held is never written, and a new one is made instead.
    at::Tensor free_output(const at::TensorOptions& o) {
        for (at::Tensor& t : outs) {
            if (!t.defined()) t = at::empty({b, 1, c}, o);
            if (t.use_count() == 1 && t.storage().use_count() == 1) return t;
        }
        return at::empty({b, 1, c}, o);
    }

    bool fits(at::ScalarType t, int64_t b_, int64_t c_, int64_t n_qkv_, int64_t hd_, int64_t two_i_) const {
        return dtype == t && b == b_ && c == c_ && n_qkv == n_qkv_ && hd == hd_ && two_i == two_i_;
    }
};

Workspace& workspace(const at::Tensor& x, const BlockWeights& w, const BlockDims& dims) {
    thread_local std::vector<Workspace> sets;  // the engine thread's; one per block shape seen
    const at::ScalarType t = x.scalar_type();
    const int64_t b = x.size(0), c = x.size(2), n_qkv = w.attention.wqkv.out_features(), hd = dims.n_head * dims.head_dim;
    const int64_t two_i = w.feed_forward.w13.out_features(), inter = two_i / 2;
    for (Workspace& s : sets)
        if (s.fits(t, b, c, n_qkv, hd, two_i)) return s;
    Workspace s;
    s.dtype = t, s.b = b, s.c = c, s.n_qkv = n_qkv, s.hd = hd, s.two_i = two_i;
    const auto o = x.options();
    s.norm = at::empty({b, c}, o);
    s.qkv = at::empty({b, 1, n_qkv}, o);
    s.q = at::empty({b, hd}, o);
    s.att = at::empty({b, hd}, o);
    s.proj = at::empty({b, c}, o);
    s.h = at::empty({b, c}, o);
    s.up = at::empty({b, two_i}, o);
    s.silu = at::empty({b, inter}, o);
    s.gated = at::empty({b, inter}, o);
    for (int64_t i = 0; i < b; ++i) {
        s.qkv_rows.push_back(s.qkv.narrow(0, i, 1));
        s.q_rows.push_back(s.q.narrow(0, i, 1));
        s.gate_rows.push_back(s.up.narrow(0, i, 1).narrow(1, 0, inter));
        s.silu_rows.push_back(s.silu.narrow(0, i, 1));
    }
    s.q32.resize(size_t(b * hd));
    s.att32.resize(size_t(b * hd));
    s.kv.resize(size_t(b));
    sets.push_back(std::move(s));
    return sets.back();
}

bool norm_fits(const at::Tensor& weight, const at::Tensor& x) {
    return weight.defined() && weight.scalar_type() == x.scalar_type() && weight.numel() == x.size(-1) &&
           weight.is_contiguous() && weight.device().is_cpu();
}

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

// y = a + b as ATen adds two tensors of T: in fp32, rounded once to T (to nearest even), in the row
// kernels' vectors. With the query's widening and the output's rounding below, these were ~1.7 µs
// of a slow block as scalar loops (c10's rounding per element), ~0.6 µs in vectors (AMX Xeon,
// timed alone), on the engine thread while the other core waits.
template <typename T>
void add_rows(const T* a, const T* b, int64_t n, T* y) {
    using R = typename Raw<T>::type;
    kernels::add_row(reinterpret_cast<const R*>(a), reinterpret_cast<const R*>(b), n, reinterpret_cast<R*>(y));
}

// T to fp32 (exact) and fp32 to T (rounded to nearest even, as T(float) does)
void widen_into(const float* x, int64_t n, float* y) { std::copy(x, x + n, y); }
void widen_into(const c10::BFloat16* x, int64_t n, float* y) {
    kernels::widen_row(reinterpret_cast<const uint16_t*>(x), n, y);
}
void round_into(const float* x, int64_t n, float* y) { std::copy(x, x + n, y); }
void round_into(const float* x, int64_t n, c10::BFloat16* y) {
    kernels::round_row(x, n, reinterpret_cast<uint16_t*>(y));
}

// Sequence i's query: qk norm, RoPE and its cache row `start` from its qkv row (attention_core's
// CPU decode path), q [H, D] = [Hkv, G, D] widened (exact) into its row of s.q32, and its cache's
// first kv_len rows into s.kv[i] for Reef's decode attention (attention()'s reef branch).
template <typename T>
void query_row(int64_t i, const BlockWeights& w, const BlockDims& dims, const at::Tensor& freqs_cis,
               const CacheSlot& slot, Workspace& s) {
    const int64_t h = dims.n_head, hkv = dims.n_local_heads, d = dims.head_dim;
    const AttentionWeights& a = w.attention;
    slot.cache->check_rows(slot.layer, slot.start, 1);
    const at::Tensor &kc = slot.cache->key_rows(slot.layer), &vc = slot.cache->value_rows(slot.layer);
    qkv_to_cache_into(s.qkv_rows[size_t(i)], QkvHeads{h, hkv, d}, a.q_norm, a.k_norm, dims.norm_eps, freqs_cis, kc, vc,
                      slot.start, s.q_rows[size_t(i)]);
    widen_into(s.q.const_data_ptr<T>() + i * h * d, h * d, s.q32.data() + i * h * d);
    DecodeKvRows& kv = s.kv[size_t(i)];
    kv.k = kc.const_data_ptr<T>();
    kv.v = vc.const_data_ptr<T>();
    kv.head_stride = kc.size(2) * d, kv.row_stride = d, kv.len = slot.span->kv_len;
    kv.keep = slot.span->mask ? reinterpret_cast<const uint8_t*>(slot.span->mask->const_data_ptr<bool>()) : nullptr;
    kv.bf16 = std::is_same_v<T, c10::BFloat16>;
}

// The batch's attention: every sequence's query, then all their heads in one call (one parallel
// region), then each fp32 output rounded once to T into its att row (reef_decode_attention's
// .to(bf16); [1, 1, H·D]: heads in order) and its backend recorded.
template <typename T>
void attend_rows(const at::Tensor& x, const BlockWeights& w, const BlockDims& dims, const at::Tensor* freqs_cis,
                 const CacheSlot* slots, Workspace& s) {
    const int64_t b = s.b, h = dims.n_head, hkv = dims.n_local_heads, d = dims.head_dim;
    for (int64_t i = 0; i < b; ++i) query_row<T>(i, w, dims, freqs_cis[i], slots[i], s);
    reef_decode_attention_rows_batch(s.q32.data(), hkv, h / hkv, d, s.kv.data(), b, s.att32.data());
    for (int64_t i = 0; i < b; ++i) {
        const int64_t kv_len = s.kv[size_t(i)].len;
        BackendRecorder::current().record(slots[i].site, SdpaBackend::Reef, kv_len, [&] {
            return describe_call({1, h, 1, d}, {1, hkv, kv_len, d}, x.scalar_type());
        });
        round_into(s.att32.data() + i * h * d, h * d, s.att.mutable_data_ptr<T>() + i * h * d);
    }
}

template <typename T>
at::Tensor run_block(const at::Tensor& x, const BlockWeights& w, const BlockDims& dims, const at::Tensor* freqs_cis,
                     const CacheSlot* slots, Workspace& s) {
    const int64_t b = s.b, c = s.c, inter = s.two_i / 2;
    const float eps = float(dims.norm_eps);
    auto raw_of = [](const T* p) { return reinterpret_cast<const typename Raw<T>::type*>(p); };
    auto norm_rows = [&](const T* in, const at::Tensor& weight) {  // RMSNorm of each row into s.norm
        for (int64_t i = 0; i < b; ++i)
            kernels::rms_norm_row(raw_of(in + i * c), c, raw<T>(weight), eps, true, raw_mut<T>(s.norm) + i * c);
    };

    // h = x + wo(attention(wqkv(attention_norm(x))))
    norm_rows(x.const_data_ptr<T>(), w.attention_norm);
    project_rows_into(s.norm, w.attention.wqkv, s.qkv);
    attend_rows<T>(x, w, dims, freqs_cis, slots, s);
    project_rows_into(s.att, w.attention.wo, s.proj);
    add_rows(x.const_data_ptr<T>(), s.proj.const_data_ptr<T>(), b * c, s.h.mutable_data_ptr<T>());

    // out = h + w2(silu(w1·n) · w3·n), n = ffn_norm(h)
    norm_rows(s.h.const_data_ptr<T>(), w.ffn_norm);
    project_rows_into(s.norm, w.feed_forward.w13, s.up);
    for (int64_t i = 0; i < b; ++i) {
        // ATen's silu, as silu_mul_rows (its bits), its CPU kernel called without the dispatcher
        at::cpu::silu_out(s.silu_rows[size_t(i)], s.gate_rows[size_t(i)]);
        const T* up = s.up.const_data_ptr<T>() + i * s.two_i;
        kernels::gate_mul_row(raw_of(s.silu.const_data_ptr<T>() + i * inter), raw_of(up + inter), inter,
                              raw_mut<T>(s.gated) + i * inter);
    }
    project_rows_into(s.gated, w.feed_forward.w2, s.proj);
    at::Tensor out = s.free_output(x.options());
    add_rows(s.h.const_data_ptr<T>(), s.proj.const_data_ptr<T>(), b * c, out.mutable_data_ptr<T>());
    return out;
}

// The buffers of x's block shape where every part of the block takes the fused path (the kernels
// block_forward would run), else null: then nothing has been written.
Workspace* fused_workspace(const at::Tensor& x, const BlockWeights& w, const BlockDims& dims, const at::Tensor* freqs_cis,
                           const CacheSlot* slots) {
    const at::ScalarType t = x.scalar_type();
    if (!g_on.load(std::memory_order_relaxed) || t_ops || !(t == at::kFloat || t == at::kBFloat16) || x.dim() != 3 ||
        x.size(1) != 1 || x.size(0) < 1 || x.size(0) > kDecodeBlockMaxRows || !x.is_contiguous() || !row_kernels_apply(x) ||
        !reef_decode_attention_on())
        return nullptr;
    const AttentionWeights& a = w.attention;
    const FeedForwardWeights& f = w.feed_forward;
    if (!norm_fits(w.attention_norm, x) || !norm_fits(w.ffn_norm, x) || !project_rows_into_apply(a.wqkv, t) ||
        !project_rows_into_apply(a.wo, t) || !project_rows_into_apply(f.w13, t) || !project_rows_into_apply(f.w2, t))
        return nullptr;
    const int64_t c = x.size(2), hd = dims.n_head * dims.head_dim;
    if (dims.n_local_heads < 1 || dims.n_head % dims.n_local_heads ||
        a.wqkv.out_features() != hd + 2 * dims.n_local_heads * dims.head_dim || a.wqkv.in_features() != c ||
        a.wo.in_features() != hd || a.wo.out_features() != c || f.w13.in_features() != c || f.w13.out_features() % 2 ||
        f.w2.in_features() != f.w13.out_features() / 2 || f.w2.out_features() != c)
        return nullptr;
    Workspace& s = workspace(x, w, dims);
    for (int64_t i = 0; i < x.size(0); ++i) {
        const CacheSlot& slot = slots[i];
        // attention() takes Reef's kernel only at the decode call sites
        if (!(slot.site == CallSite::SlowDecode || slot.site == CallSite::FastDecode) || slot.cache == nullptr ||
            slot.span == nullptr || slot.index.defined() || slot.span->kv_len < 1)
            return nullptr;
        if (const auto& mask = slot.span->mask;
            mask && !(mask->scalar_type() == at::kBool && mask->numel() == slot.span->kv_len && mask->is_contiguous() &&
                      mask->device().is_cpu()))
            return nullptr;
        const at::Tensor &kc = slot.cache->key_rows(slot.layer), &vc = slot.cache->value_rows(slot.layer);
        if (!(slot.start < kc.size(2) && slot.span->kv_len <= kc.size(2) &&
              qkv_to_cache_apply(s.qkv_rows[size_t(i)], QkvHeads{dims.n_head, dims.n_local_heads, dims.head_dim}, a.q_norm,
                                 freqs_cis[i], kc, vc)))
            return nullptr;
    }
    return &s;
}
#endif

}  // namespace

bool set_decode_block(bool on) { return g_on.exchange(on); }

DecodeBlockOps::DecodeBlockOps(bool ops) : m_previous(t_ops) { t_ops = t_ops || ops; }
DecodeBlockOps::~DecodeBlockOps() { t_ops = m_previous; }

int64_t decode_blocks_run() { return t_blocks; }

at::Tensor decode_block(const at::Tensor& x, const BlockWeights& w, const BlockDims& dims, const at::Tensor* freqs_cis,
                        const CacheSlot* slots) {
#ifdef REEF_HAVE_KERNELS
    Workspace* s = fused_workspace(x, w, dims, freqs_cis, slots);
    if (s == nullptr) return {};
    RECORD_FUNCTION("reef::decode_block", std::vector<c10::IValue>());
    t_blocks += x.size(0);
    if (x.scalar_type() == at::kBFloat16) return run_block<c10::BFloat16>(x, w, dims, freqs_cis, slots, *s);
    return run_block<float>(x, w, dims, freqs_cis, slots, *s);
#else
    (void)x, (void)w, (void)dims, (void)freqs_cis, (void)slots;
    return {};
#endif
}

}  // namespace reef
