#include "codec/codec_transformer.h"

#include "check.h"
#include "nn/attention.h"

namespace reef {

at::Tensor codec_rope_table(int64_t start, int64_t n, int64_t head_dim, double base, at::ScalarType dtype,
                            at::Device device) {
    // freqs = 1 / base^(2i/D); angles = pos * freqs, both in float32 like precompute_freqs_cis.
    const auto exps = at::arange(0, head_dim, 2, at::kLong).slice(0, 0, head_dim / 2).to(at::kFloat) / double(head_dim);
    const auto freqs = at::pow(base, exps).reciprocal();
    const auto pos = at::arange(start, start + n, at::kLong).to(at::kFloat);
    const auto angles = at::outer(pos, freqs);  // [n, D/2]
    const auto table = at::stack({at::cos(angles), at::sin(angles)}, -1);
    return table.to(at::kBFloat16).to(device, dtype);
}

at::Tensor window_mask(int64_t q_start, int64_t n_q, int64_t k_start, int64_t window, at::Device device) {
    const auto q = at::arange(q_start, q_start + n_q, at::TensorOptions().dtype(at::kLong).device(device)).unsqueeze(1);
    const auto k = at::arange(k_start, q_start + n_q, at::TensorOptions().dtype(at::kLong).device(device)).unsqueeze(0);
    return (k <= q) & (k >= q - window + 1);
}

WindowTransformer::WindowTransformer(const CodecWeights& weights, WindowTransformerSpec spec)
    : m_w(weights), m_spec(std::move(spec)) {
    REEF_CHECK(m_spec.window > 0 && m_spec.n_head > 0 && m_spec.head_dim % 2 == 0,
               "bad window transformer spec for " + m_spec.prefix);
}

at::Tensor WindowTransformer::forward(const at::Tensor& x, WindowKvCache* cache) const {
    // x: [B, C, T] -> [B, T, C] (channels_first)
    auto h = x.transpose(1, 2);
    const int64_t t = h.size(1);
    const int64_t start = cache ? cache->next_pos : 0;
    if (cache && cache->k.empty()) {
        cache->k.resize(size_t(m_spec.n_layer));
        cache->v.resize(size_t(m_spec.n_layer));
    }
    const int64_t n_cached = (cache && cache->k[0].defined()) ? cache->k[0].size(2) : 0;
    const auto rope = codec_rope_table(start, t, m_spec.head_dim, m_spec.rope_base, h.scalar_type(), h.device());
    const auto mask = window_mask(start, t, start - n_cached, m_spec.window, h.device());
    for (int64_t l = 0; l < m_spec.n_layer; ++l) h = block(l, h, rope, mask, cache);
    h = rms_norm(h, m_w(m_spec.prefix + ".norm.weight"), m_spec.norm_eps);
    if (cache) cache->next_pos = start + t;
    return h.transpose(1, 2);  // [B, T, C] -> [B, C, T]
}

at::Tensor WindowTransformer::block(int64_t layer, const at::Tensor& x, const at::Tensor& rope,
                                   const at::Tensor& mask, WindowKvCache* cache) const {
    const std::string p = m_spec.prefix + ".layers." + std::to_string(layer) + ".";
    at::Tensor* kc = cache ? &cache->k[size_t(layer)] : nullptr;
    at::Tensor* vc = cache ? &cache->v[size_t(layer)] : nullptr;
    // h = x + gamma_attn * Attn(RMSNorm(x)); out = h + gamma_ffn * FFN(RMSNorm(h))
    const auto a = attention(p + "attention.", rms_norm(x, m_w(p + "attention_norm.weight"), m_spec.norm_eps), rope,
                             mask, kc, vc);
    const auto h = x + a * m_w(p + "attention_layer_scale.gamma");
    const auto n = rms_norm(h, m_w(p + "ffn_norm.weight"), m_spec.norm_eps);
    const auto ffn = at::linear(at::silu(at::linear(n, m_w(p + "feed_forward.w1.weight"))) *
                                    at::linear(n, m_w(p + "feed_forward.w3.weight")),
                                m_w(p + "feed_forward.w2.weight"));
    return h + ffn * m_w(p + "ffn_layer_scale.gamma");
}

at::Tensor WindowTransformer::attention(const std::string& p, const at::Tensor& x, const at::Tensor& rope,
                                        const at::Tensor& mask, at::Tensor* k_cache, at::Tensor* v_cache) const {
    const int64_t b = x.size(0), t = x.size(1), hd = m_spec.n_head * m_spec.head_dim;
    // x: [B, T, C] -> qkv [B, T, 3*H*D] -> q, k, v [B, T, H, D]
    const auto qkv = at::linear(x, m_w(p + "wqkv.weight")).split(hd, -1);
    auto q = qkv[0].view({b, t, m_spec.n_head, m_spec.head_dim});
    auto k = qkv[1].view({b, t, m_spec.n_head, m_spec.head_dim});
    auto v = qkv[2].view({b, t, m_spec.n_head, m_spec.head_dim});
    q = apply_rotary_emb(q, rope).transpose(1, 2);  // -> [B, H, T, D]
    k = apply_rotary_emb(k, rope).transpose(1, 2);
    v = v.transpose(1, 2);
    if (k_cache) {
        // Prepend the cached window, keep the last (window - 1) positions for the next call.
        if (k_cache->defined()) {
            k = at::cat({*k_cache, k}, 2);
            v = at::cat({*v_cache, v}, 2);
        }
        const int64_t keep = std::min<int64_t>(m_spec.window - 1, k.size(2));
        *k_cache = k.narrow(2, k.size(2) - keep, keep).contiguous();
        *v_cache = v.narrow(2, v.size(2) - keep, keep).contiguous();
    }
    const auto y = reef::attention(CallSite::CodecWindow, q, k, v, mask);  // [B, H, T, D]
    return at::linear(y.transpose(1, 2).reshape({b, t, hd}), m_w(p + "wo.weight"));
}

}  // namespace reef
