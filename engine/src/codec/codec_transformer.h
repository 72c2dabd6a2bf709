// fish-speech's WindowLimitedTransformer (modded_dac.py, spec §5.4): causal attention limited to
// the last `window` positions, LayerScale'd residuals, interleaved RoPE, SwiGLU FFN, final RMSNorm.
// Used three times: the encoder's last block (window 512) and the quantizer's pre/post modules
// (window 128). input_proj/output_proj are Identity in every supported config.
#pragma once
#include <ATen/ATen.h>

#include "nn/llama_ops.h"  // apply_rotary_emb, rms_norm

#include <string>
#include <vector>

#include "codec/codec_layers.h"

namespace reef {

// The keys/values each layer needs to continue a sequence: the last (window - 1) positions after
// RoPE, per layer. With it, running a sequence in pieces gives the same result as in one go
// (positions and the window mask are absolute).
struct WindowKvCache {
    std::vector<at::Tensor> k;  // per layer [B, H, n <= window-1, D]
    std::vector<at::Tensor> v;
    int64_t next_pos = 0;       // absolute position of the next input frame
};

struct WindowTransformerSpec {
    std::string prefix;  // e.g. "quantizer.post_module"
    int64_t n_layer = 0;
    int64_t n_head = 0;
    int64_t head_dim = 0;
    int64_t window = 0;
    double rope_base = 10000.0;
    double norm_eps = 1e-5;
};

class WindowTransformer {
public:
    WindowTransformer(const CodecWeights& weights, WindowTransformerSpec spec);
    // x: [B, C, T] channels-first -> [B, C, T]. Without a cache the positions are 0..T-1; with one
    // they continue from cache->next_pos and the cache is advanced.
    at::Tensor forward(const at::Tensor& x, WindowKvCache* cache = nullptr) const;
    const WindowTransformerSpec& spec() const { return m_spec; }

private:
    at::Tensor block(int64_t layer, const at::Tensor& x, const at::Tensor& rope, const at::Tensor& mask,
                     WindowKvCache* cache) const;
    at::Tensor attention(const std::string& p, const at::Tensor& x, const at::Tensor& rope, const at::Tensor& mask,
                         at::Tensor* k_cache, at::Tensor* v_cache) const;

    const CodecWeights& m_w;
    WindowTransformerSpec m_spec;
};

// RoPE table rows for absolute positions [start, start + n): [n, D/2, 2] (cos, sin), computed in
// float32 and rounded through bf16 as fish-speech stores it (reference-run §3.11), then in `dtype`.
at::Tensor codec_rope_table(int64_t start, int64_t n, int64_t head_dim, double base, at::ScalarType dtype,
                            at::Device device);
// Window mask for queries at [q_start, q_start + n_q) over keys at [k_start, q_start + n_q):
// true iff q - window + 1 <= k <= q. [n_q, n_k] bool.
at::Tensor window_mask(int64_t q_start, int64_t n_q, int64_t k_start, int64_t window, at::Device device);

}  // namespace reef
