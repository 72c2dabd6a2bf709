#include "text2semantic/layers.h"

#include "check.h"
#include "nn/gemv.h"
#include "nn/attention.h"
#include "nn/row_kernels.h"
#include "base/weight_memory.h"
#include "text2semantic/decode_block.h"
#include "text2semantic/rope.h"

namespace reef {
using t2s::apply_rotary_emb;
using t2s::rms_norm;


FeedForwardWeights merge_feed_forward(const Linear& w1, const Linear& w3, Linear w2) {
    REEF_CHECK(w1.weight.sizes() == w3.weight.sizes() && w1.weight.scalar_type() == w3.weight.scalar_type() &&
                   w1.int8() == w3.int8() && w1.int4() == w3.int4() && w1.group() == w3.group() &&
                   !w1.bias.defined() && !w3.bias.defined(),
               "feed_forward: w1 and w3 must have the same shape and format, and no bias");
    auto both = [&](const at::Tensor& a, const at::Tensor& b) { return a.defined() ? at::cat({a, b}, 0) : at::Tensor(); };
    const at::Tensor scales = both(w1.scales, w3.scales), zeros = both(w1.zeros, w3.zeros);  // [2I] or [2I, G]
    if (!w1.weight.device().is_cpu()) return {Linear{at::cat({w1.weight, w3.weight}, 0), scales, {}, zeros}, std::move(w2)};
    // [2I, C] built in weight memory (base/weight_memory.h): aligned, huge pages, no heap temporary
    const int64_t i = w1.weight.size(0);
    at::Tensor w13 = empty_weight_memory({2 * i, w1.weight.size(1)}, w1.weight.scalar_type());
    w13.narrow(0, 0, i).copy_(w1.weight);
    w13.narrow(0, i, i).copy_(w3.weight);
    return {Linear{w13, scales, {}, zeros}, std::move(w2)};
}

at::Tensor feed_forward(const at::Tensor& x, const FeedForwardWeights& w) {
    return project(silu_mul(project(x, w.w13)), w.w2);  // [B, S, 2I] -> [B, S, I] -> [B, S, C]
}

namespace {

// SDPA of q ([B, H, S, D]) over the slot's cache rows -> [B, S, H·D]
at::Tensor attend(const at::Tensor& q, const CacheSlot& slot, int64_t q_size) {
    const at::Tensor keys = slot.cache->keys(slot.layer, slot.span->kv_len);
    const at::Tensor values = slot.cache->values(slot.layer, slot.span->kv_len);
    const at::Tensor y = attention(slot.site, q, keys, values, slot.span->mask);  // [B, H, S, D]
    return y.transpose(1, 2).contiguous().view({q.size(0), q.size(2), q_size});
}

// The part of Attention.forward after the qkv projection, for one sequence: split, qk norm,
// RoPE, cache write, SDPA (a CPU decode step does the first four in one qkv_to_cache call).
// qkv: [B, S, (H + 2·Hkv)·D] -> [B, S, H·D]
at::Tensor attention_core(const at::Tensor& qkv, const AttentionWeights& w, const BlockDims& dims,
                          const at::Tensor& freqs_cis, const CacheSlot& slot) {
    const int64_t bsz = qkv.size(0), seqlen = qkv.size(1);
    const int64_t q_size = dims.n_head * dims.head_dim, kv_size = dims.n_local_heads * dims.head_dim;
    REEF_CHECK(slot.cache != nullptr && slot.span != nullptr, "attention_forward needs a cache slot");
    if (!slot.index.defined()) {
        slot.cache->check_rows(slot.layer, slot.start, seqlen);  // rows start..start+S-1 are written below
        const at::Tensor &kc = slot.cache->key_rows(slot.layer), &vc = slot.cache->value_rows(slot.layer);
        const QkvHeads heads{dims.n_head, dims.n_local_heads, dims.head_dim};
        if (qkv_to_cache_apply(qkv, heads, w.q_norm, freqs_cis, kc, vc)) {
            // CPU decode: the steps below in one pass (nn/row_kernels.h), the same bits
            const at::Tensor q =
                qkv_to_cache(qkv, heads, w.q_norm, w.k_norm, dims.norm_eps, freqs_cis, kc, vc, slot.start);
            return attend(q, slot, q_size);
        }
    }
    const auto parts = qkv.split_with_sizes({q_size, kv_size, kv_size}, -1);
    at::Tensor q = parts[0].view({bsz, seqlen, dims.n_head, dims.head_dim});
    at::Tensor k = parts[1].view({bsz, seqlen, dims.n_local_heads, dims.head_dim});
    at::Tensor v = parts[2].view({bsz, seqlen, dims.n_local_heads, dims.head_dim});
    if (w.q_norm.defined()) {
        // torch.nn.RMSNorm over the head dim, before RoPE (Qwen3-style qk norm)
        q = rms_norm_weighted(q, w.q_norm, dims.norm_eps);
        k = rms_norm_weighted(k, w.k_norm, dims.norm_eps);
    }
    q = apply_rotary_emb(q, freqs_cis).transpose(1, 2);  // [B, H, S, D]
    k = apply_rotary_emb(k, freqs_cis).transpose(1, 2);  // [B, Hkv, S, D]
    v = v.transpose(1, 2);

    if (slot.index.defined())
        slot.cache->update_at(slot.layer, slot.index, k, v);
    else
        slot.cache->update(slot.layer, slot.start, k, v);
    return attend(q, slot, q_size);
}

}  // namespace

at::Tensor attention_forward(const at::Tensor& x, const AttentionWeights& w, const BlockDims& dims,
                             const at::Tensor& freqs_cis, const CacheSlot& slot) {
    return project(attention_core(project(x, w.wqkv), w, dims, freqs_cis, slot), w.wo);
}

at::Tensor block_forward(const at::Tensor& x, const BlockWeights& w, const BlockDims& dims,
                         const at::Tensor& freqs_cis, const CacheSlot& slot) {
    if (at::Tensor fused = decode_block(x, w, dims, &freqs_cis, &slot); fused.defined()) return fused;  // CPU decode: the same, fused
    const at::Tensor h = x + attention_forward(rms_norm(x, w.attention_norm, dims.norm_eps), w.attention, dims,
                                               freqs_cis, slot);
    return h + feed_forward(rms_norm(h, w.ffn_norm, dims.norm_eps), w.feed_forward);
}

at::Tensor block_forward_batch(const at::Tensor& x, const BlockWeights& w, const BlockDims& dims,
                               const std::vector<at::Tensor>& freqs_cis, const std::vector<CacheSlot>& slots) {
    // x: [B, 1, C] -> [B, 1, C]
    const int64_t bsz = x.size(0);
    REEF_CHECK(x.dim() == 3 && x.size(1) == 1 && int64_t(slots.size()) == bsz && int64_t(freqs_cis.size()) == bsz,
               "block_forward_batch: one row, RoPE row and cache slot per sequence");
    if (at::Tensor fused = decode_block(x, w, dims, freqs_cis.data(), slots.data()); fused.defined())
        return fused;  // CPU decode: the same, fused
    auto norm = [&](const at::Tensor& t, const at::Tensor& weight) {
        return each_row(t, [&](const at::Tensor& r, int64_t) { return rms_norm(r, weight, dims.norm_eps); });
    };
    const AttentionWeights& a = w.attention;
    const at::Tensor qkv = project_rows(norm(x, w.attention_norm), a.wqkv);  // [B, 1, (H+2Hkv)·D]
    const at::Tensor y = each_row(qkv, [&](const at::Tensor& r, int64_t i) {
        return attention_core(r, a, dims, freqs_cis[size_t(i)], slots[size_t(i)]);  // [1, 1, H·D]
    });
    const at::Tensor h = x + project_rows(y, a.wo);
    const at::Tensor up = project_rows(norm(h, w.ffn_norm), w.feed_forward.w13);             // [B, 1, 2I]
    const at::Tensor gated = each_row(up, [](const at::Tensor& r, int64_t) { return silu_mul(r); });  // [B, 1, I]
    return h + project_rows(gated, w.feed_forward.w2);
}

}  // namespace reef
