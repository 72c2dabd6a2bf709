// DualArModel::decode_step_weights: the tensors the AOTInductor exporter rebuilds the decode step
// from, named as engine/python/reef_aoti_export.py reads them.
#include "text2semantic/dual_ar_model.h"

#include "check.h"

namespace reef {
namespace {

void put_block(TensorMap& out, const std::string& p, const BlockWeights& b) {
    auto put = [&](const std::string& name, const at::Tensor& t) {
        if (t.defined()) out[p + name] = t;
    };
    put("attention.wqkv", b.attention.wqkv.weight);
    put("attention.wqkv_bias", b.attention.wqkv.bias);
    put("attention.wo", b.attention.wo.weight);
    put("attention.wo_bias", b.attention.wo.bias);
    put("attention.q_norm", b.attention.q_norm);
    put("attention.k_norm", b.attention.k_norm);
    put("attention_norm", b.attention_norm);
    put("ffn_norm", b.ffn_norm);
    put("feed_forward.w13", b.feed_forward.w13.weight);
    put("feed_forward.w2", b.feed_forward.w2.weight);
}

}  // namespace

TensorMap DualArModel::decode_step_weights(const at::Tensor& head) const {
    if (quantized())
        throw ReefError(ErrorCode::BackendUnavailable,
                        "the compiled decode step is exported from bf16/fp32 weights; this model's are " + m_weight_format.name(),
                        "run it eager (compile mode off), or compile the model before it was quantized");
    TensorMap out;
    out["embeddings"] = m_embeddings.weight;
    out["codebook_embeddings"] = m_codebook_embeddings.weight;
    out["codebook_offsets"] = m_codebook_offsets;  // [1, N, 1] int64
    out["freqs_cis"] = m_freqs_cis;                // [max_seq_len, D/2, 2] float32
    out["fast_freqs_cis"] = m_fast_freqs_cis;      // [N, Df/2, 2] float32
    out["norm"] = m_norm;
    out["head"] = head.defined() ? head : m_output.weight;  // [R or V, C]
    if (m_fast_project_in.defined()) out["fast_project_in_w"] = m_fast_project_in.weight;
    if (m_fast_project_in.bias.defined()) out["fast_project_in_b"] = m_fast_project_in.bias;
    for (size_t i = 0; i < m_layers.size(); ++i) put_block(out, "layers." + std::to_string(i) + ".", m_layers[i]);
    for (size_t i = 0; i < m_fast_layers.size(); ++i)
        put_block(out, "fast_layers." + std::to_string(i) + ".", m_fast_layers[i]);
    out["fast_norm"] = m_fast_norm;
    out["fast_output"] = m_fast_output.weight;
    return out;
}

}  // namespace reef
