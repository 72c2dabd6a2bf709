// DualArModel::with_int8_weights: the same model with its float projections quantized to int8 in
// memory (the bench's ":int8" arms: int8 against the loaded precision on the same weights).
#include "base/weight_memory.h"
#include "text2semantic/dual_ar_model.h"
#include "text2semantic/quantize_int8.h"

namespace reef {

namespace {

// a float projection -> int8 rows and fp32 scales (bf16-rounded, as quantize.py stores them)
void to_int8(Linear& l) {
    if (!l.defined() || l.int8()) return;
    Int8Weight q = quantize_per_channel_int8(l.weight);
    l = Linear{to_weight_memory(q.weight), q.scales.to(at::kFloat), l.bias};
}

}  // namespace

std::unique_ptr<DualArModel> DualArModel::with_int8_weights() const {
    auto m = std::make_unique<DualArModel>(*this);
    for (auto* layers : {&m->m_layers, &m->m_fast_layers})
        for (BlockWeights& b : *layers)
            for (Linear* l : {&b.attention.wqkv, &b.attention.wo, &b.feed_forward.w13, &b.feed_forward.w2}) to_int8(*l);
    if (!m_config.tie_word_embeddings) to_int8(m->m_output);
    to_int8(m->m_fast_project_in);
    to_int8(m->m_fast_output);
    m->m_int8 = true;
    m->m_weight_bytes = 0;  // what the copy holds of its own and shares
    for (const auto* layers : {&m->m_layers, &m->m_fast_layers})
        for (const BlockWeights& b : *layers)
            m->m_weight_bytes += b.attention.wqkv.nbytes() + b.attention.wo.nbytes() + b.feed_forward.w13.nbytes() +
                                 b.feed_forward.w2.nbytes() + int64_t(b.attention_norm.nbytes() + b.ffn_norm.nbytes());
    for (const at::Tensor* t : {&m->m_embeddings, &m->m_codebook_embeddings, &m->m_norm, &m->m_fast_embeddings, &m->m_fast_norm})
        m->m_weight_bytes += int64_t(t->nbytes());
    if (!m_config.tie_word_embeddings) m->m_weight_bytes += m->m_output.nbytes();
    m->m_weight_bytes += (m->m_fast_project_in.defined() ? m->m_fast_project_in.nbytes() : 0) + m->m_fast_output.nbytes();
    return m;
}

}  // namespace reef
