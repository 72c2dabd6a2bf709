// DualArModel::with_quantized_weights: the same model with its float projections quantized to int8
// or int4 in memory (the bench's ":int8" and ":int4" arms: the quantized weights against the loaded
// precision on the same weights). int4 projections take the CPU kernels' layout (nn/linear.h
// int4_cpu_layout) as a model loaded from a file does (dual_ar_model.cpp).
#include "base/weight_memory.h"
#include "check.h"
#include "text2semantic/dual_ar_model.h"
#include "text2semantic/quantize_int4.h"
#include "text2semantic/quantize_int8.h"

namespace reef {
namespace {

// a float projection -> int8 rows and fp32 scales (bf16-rounded, as quantize.py stores them), or
// int4 groups; returns the bytes this frees (the float weight's, less the quantized ones')
int64_t quantize(Linear& l, WeightFormat format) {
    if (!l.defined() || l.quantized()) return 0;
    const int64_t before = l.nbytes();
    if (format.bits == 8) {
        Int8Weight q = quantize_per_channel_int8(l.weight);
        l = Linear{to_weight_memory(q.weight), q.scales.to(at::kFloat), l.bias, {}};
    } else {
        Int4Weight q = quantize_group_int4(l.weight, format.group);
        l = Linear{to_weight_memory(q.weight), q.scales, l.bias, q.zeros};
    }
    return before - l.nbytes();
}

}  // namespace

Linear quantized_linear(Linear l, WeightFormat format, int64_t* freed) {
    REEF_CHECK(format.bits == 8 || format.bits == 4, "quantized_linear: int8 or int4");
    const int64_t f = quantize(l, format);
    if (freed) *freed += f;
    return int4_cpu_layout(l);  // at once: the rows layout's copy goes before the next one is made
}

std::unique_ptr<DualArModel> DualArModel::with_quantized_weights(WeightFormat format) const {
    REEF_CHECK(format.bits == 8 || format.bits == 4, "with_quantized_weights: int8 or int4");
    auto m = std::make_unique<DualArModel>(*this);
    int64_t freed = 0;
    for (auto* layers : {&m->m_layers, &m->m_fast_layers})
        for (BlockWeights& b : *layers)
            for (Linear* l : {&b.attention.wqkv, &b.attention.wo, &b.feed_forward.w13, &b.feed_forward.w2})
                *l = quantized_linear(*l, format, &freed);
    // the output head, whose rows are looked up, stays in rows; tied, the embeddings stay as they are
    if (!m_config.tie_word_embeddings) freed += quantize(m->m_output, format);
    m->m_fast_project_in = quantized_linear(m->m_fast_project_in, format, &freed);
    m->m_fast_output = quantized_linear(m->m_fast_output, format, &freed);
    m->m_weight_format = format;
    m->m_weight_bytes -= freed;
    return m;
}

}  // namespace reef
