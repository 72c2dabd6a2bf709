// DualArModel::with_int8_weights: the same model with its float projections quantized to int8 in
// memory (the bench's ":int8" arms: int8 against the loaded precision on the same weights).
#include "base/weight_memory.h"
#include "text2semantic/dual_ar_model.h"
#include "text2semantic/quantize_int8.h"

namespace reef {
namespace {

// a float projection -> int8 rows and fp32 scales (bf16-rounded, as quantize.py stores them);
// returns the bytes this frees (the float weight's, less the int8 weight's and its scales')
int64_t to_int8(Linear& l) {
    if (!l.defined() || l.int8()) return 0;
    const int64_t before = l.nbytes();
    Int8Weight q = quantize_per_channel_int8(l.weight);
    l = Linear{to_weight_memory(q.weight), q.scales.to(at::kFloat), l.bias};
    return before - l.nbytes();
}

}  // namespace

std::unique_ptr<DualArModel> DualArModel::with_int8_weights() const {
    auto m = std::make_unique<DualArModel>(*this);
    int64_t freed = 0;
    for (auto* layers : {&m->m_layers, &m->m_fast_layers})
        for (BlockWeights& b : *layers)
            for (Linear* l : {&b.attention.wqkv, &b.attention.wo, &b.feed_forward.w13, &b.feed_forward.w2})
                freed += to_int8(*l);
    if (!m_config.tie_word_embeddings) freed += to_int8(m->m_output);  // tied: the embeddings stay
    freed += to_int8(m->m_fast_project_in);
    freed += to_int8(m->m_fast_output);
    m->m_int8 = true;
    m->m_weight_bytes -= freed;
    return m;
}

}  // namespace reef
