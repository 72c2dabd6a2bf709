// Decode attention for one KV head: the g query rows that share it (a folded GQA decode query,
// nn/attention.h) against its n cached key and value rows, softmax(q·kᵀ·scale)·v.
//
// Decode attention is bound by reading the cache, like the GEMVs by reading the weights: per key
// row it does g dot products and g multiply-adds of a value row. The kernel reads each key row and
// each value row once, in order, for every query row at once: keys in blocks of 32, the block's
// scores, an online softmax (a running maximum and sum per query row, the accumulators rescaled
// when the maximum rises, as flash attention does), then the block's value rows into the
// accumulators. fp32 arithmetic throughout (exp from Highway's contrib/math); bf16 rows are
// widened on the fly like the GEMV's (kernels/gemv_rows.h). The query comes in fp32 (a bf16
// model's query widened by the caller: exact) and the output goes out in fp32 for the caller to
// round once to the model's dtype, as libtorch's CPU flash kernel does.
//
// Masked keys (keep[i] == 0) take no part; a query whose every key is masked gets NaN, as
// softmax over nothing does in libtorch's math backend.
#pragma once
#include <cstdint>

namespace reef::kernels {

// The rows one KV head attends over: row i of k / v starts at k + i·k_stride / v + i·v_stride
// elements; keep: n flags (0 = masked) or null for every row.
template <typename T>
struct KvRows {
    const T* k;
    const T* v;
    int64_t k_stride, v_stride, n;
    const uint8_t* keep;
};

// q, out: [g, d] fp32, row-major; d is the head dim (any d; even for bf16 rows).
void decode_attention_head(const float* q, int64_t g, int64_t d, const KvRows<float>& kv, float scale, float* out);
void decode_attention_head(const float* q, int64_t g, int64_t d, const KvRows<uint16_t>& kv, float scale,
                           float* out);

}  // namespace reef::kernels
