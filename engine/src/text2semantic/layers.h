// The building blocks of fish-speech's TransformerBlock (llama.py: RMSNorm, Attention, FeedForward,
// TransformerBlock) as plain functions over weight structs: no torch::nn, no module state.
// B=batch (1), S=positions in this call, C=model dim, H=query heads, Hkv=kv heads, D=head dim.
#pragma once
#include <ATen/ATen.h>

#include "nn/linear.h"
#include "nn/llama_ops.h"

#include <optional>
#include <vector>

#include "reef/engine_types.h"
#include "text2semantic/kv_cache.h"

namespace reef {

struct AttentionWeights {
    Linear wqkv;                // [(H + 2·Hkv)·D, C]: rows q, then k, then v; bias unless attention_qkv_bias
    Linear wo;                  // [C, H·D]; bias only with attention_o_bias
    at::Tensor q_norm, k_norm;  // [D]; undefined unless attention_qk_norm
};

struct FeedForwardWeights {
    Linear w13;     // [2I, C]: w1 rows then w3 rows, so one GEMM reads both
    Linear w2;      // [C, I]
};

// w1 [I, C] and w3 [I, C] (both float or both int8) -> the merged FeedForwardWeights (one copy of
// both, int8 scales too; the inputs can be freed)
FeedForwardWeights merge_feed_forward(const Linear& w1, const Linear& w3, Linear w2);

struct BlockWeights {
    AttentionWeights attention;
    FeedForwardWeights feed_forward;
    at::Tensor attention_norm, ffn_norm;  // [C]
};

struct BlockDims {
    int64_t n_head = 0, n_local_heads = 0, head_dim = 0;
    double norm_eps = 1e-5;
};

// Where a block reads and writes its keys and values in this call.
struct CacheSlot {
    KvCache* cache = nullptr;
    int64_t layer = 0;
    int64_t start = 0;          // position of the first query (input_pos[0])
    const AttentionSpan* span = nullptr;
    CallSite site = CallSite::SlowDecode;
    at::Tensor index;           // [S] int64 on the device: rows to write instead of `start` (static decode)
};

namespace t2s {
using reef::rms_norm;  // nn/llama_ops.h, shared with the codec
}  // namespace t2s

// port of llama.py: FeedForward.forward (SwiGLU) — w2(silu(w1 x) ⊙ w3 x), w1 x and w3 x from one
// GEMM over w13. x: [B, S, C] -> [B, S, C]
at::Tensor feed_forward(const at::Tensor& x, const FeedForwardWeights& w);

// port of llama.py: Attention.forward with a KV cache; GQA through SDPA's enable_gqa (no
// repeat_interleave). x: [B, S, C], freqs_cis: [S, D/2, 2] -> [B, S, C]
at::Tensor attention_forward(const at::Tensor& x, const AttentionWeights& w, const BlockDims& dims,
                             const at::Tensor& freqs_cis, const CacheSlot& slot);

// port of llama.py: TransformerBlock.forward — pre-norm residual attention then FFN.
// x: [B, S, C] -> [B, S, C]
at::Tensor block_forward(const at::Tensor& x, const BlockWeights& w, const BlockDims& dims,
                         const at::Tensor& freqs_cis, const CacheSlot& slot);

// f applied to each sequence's row of x ([B, 1, ...]) alone, the results stacked: the element-wise
// ops of a batched step see exactly the tensors the single-sequence step gives them.
template <typename F>
inline at::Tensor each_row(const at::Tensor& x, F&& f) {
    std::vector<at::Tensor> rows;
    rows.reserve(size_t(x.size(0)));
    for (int64_t i = 0; i < x.size(0); ++i) rows.push_back(f(x.narrow(0, i, 1), i));
    return at::cat(rows, 0);
}

// Batched decode (issue #27): B sequences, one position each, through one block. The weight
// projections run once for all rows (nn/gemv.h project_rows); everything else, attention over
// each sequence's own cache included, runs per sequence on its own row through the functions
// block_forward uses, so each row comes out bit-identical to block_forward on that row alone.
// x: [B, 1, C], freqs_cis[i]: [1, D/2, 2] (sequence i's position), slots[i]: its cache -> [B, 1, C]
at::Tensor block_forward_batch(const at::Tensor& x, const BlockWeights& w, const BlockDims& dims,
                               const std::vector<at::Tensor>& freqs_cis, const std::vector<CacheSlot>& slots);

}  // namespace reef
