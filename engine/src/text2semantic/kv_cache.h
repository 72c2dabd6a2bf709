// KV cache of one transformer stack (gpt-fast / fish-speech KVCache), sized to the request and
// grown by copy when a later batch needs more (fish-speech PR #1327's idea), never a blind
// max_seq_len preallocation. B=1, H=kv heads, L=capacity, D=head dim.
#pragma once
#include <ATen/ATen.h>

#include <optional>
#include <vector>

#include "reef/engine_types.h"

namespace reef {

class KvCache {
public:
    KvCache() = default;
    // One k/v pair of [1, n_heads, capacity, head_dim] per layer, zero-filled (Full mode reads
    // unfilled rows under the mask, and 0·NaN from uninitialised memory would poison the sum).
    KvCache(int64_t n_layer, int64_t n_heads, int64_t head_dim, int64_t capacity, at::TensorOptions options);

    bool empty() const { return m_k.empty(); }
    int64_t capacity() const { return m_capacity; }
    int64_t n_layer() const { return int64_t(m_k.size()); }
    int64_t bytes() const;

    // Grows every layer to at least `capacity` rows (rounded up to 8), keeping the filled rows; left empty (and rethrows) when an allocation fails half-way.
    void ensure_capacity(int64_t capacity);
    // port of KVCache.update: k, v: [1, H, S, D] written at rows start..start+S-1 (index write).
    void update(int64_t il, int64_t start, const at::Tensor& k, const at::Tensor& v);
    // The same with the rows given on the device: index [S] int64 (no host position, so a CUDA
    // graph can replay it). The caller guarantees the rows are inside the cache.
    void update_at(int64_t il, const at::Tensor& index, const at::Tensor& k, const at::Tensor& v);
    // The layer's whole [1, H, capacity, D] key / value tensors, for a writer that fills row `pos`
    // itself (decode's fused qkv pass, nn/row_kernels.h) after check_rows(il, pos, 1).
    const at::Tensor& key_rows(int64_t il) const { return m_k[size_t(il)]; }
    const at::Tensor& value_rows(int64_t il) const { return m_v[size_t(il)]; }
    // Throws unless layer il exists and rows start..start+s-1 lie inside the cache.
    void check_rows(int64_t il, int64_t start, int64_t s) const;
    // The first `len` rows: [1, H, len, D] views.
    at::Tensor keys(int64_t il, int64_t len) const;
    at::Tensor values(int64_t il, int64_t len) const;
    // Zero-fills (S1-era fast cache per frame; after a cancel).
    void reset();
    // Every layer's whole cache in the order k0, v0, k1, v1, ..., each [1, H, capacity, D]: what a
    // compiled decode step receives and updates in place.
    std::vector<at::Tensor> layer_tensors() const;

private:
    std::vector<at::Tensor> m_k, m_v;
    int64_t m_capacity = 0;
};

// Bytes of a KvCache of these sizes (k and v, every layer; rows rounded up to 8 as the cache does),
// overflow-safe: what it checks against free memory before allocating.
uint64_t kv_cache_bytes(int64_t n_layer, int64_t n_heads, int64_t head_dim, int64_t rows, at::ScalarType dtype);

// Rows of the slow cache a request needs: round_up(prompt + max_new + margin, 8), capped at the
// model's max_seq_len (itself rounded up to 8 as fish-speech's setup_caches does).
int64_t kv_capacity_for(int64_t prompt_len, int64_t max_new_tokens, int64_t margin, int64_t max_seq_len);

// Which keys queries at positions start..start+S-1 see, for a cache of `capacity` rows:
//   ActivePrefix: the first start+S rows; no mask for a single query (exact-length prefix),
//                 a causal bool mask [1, 1, S, start+S] otherwise (fish-speech #1312).
//   Full:         all `capacity` rows with the bool mask [1, 1, S, capacity] (fish-speech HEAD).
struct AttentionSpan {
    int64_t kv_len = 0;
    std::optional<at::Tensor> mask;  // bool, true = attend
};
AttentionSpan attention_span(KvMode mode, int64_t start, int64_t seq_len, int64_t capacity, at::Device device);

// One decode query at the device position input_pos ([1] int64) over the first kv_len rows, with
// the causal mask built on the device (key j visible iff j <= input_pos): the static-shape span a
// captured decode step attends over. mask: [1, 1, 1, kv_len] bool.
AttentionSpan attention_span_at(const at::Tensor& input_pos, int64_t kv_len);

// The kv_len a static decode step at position pos attends over: Full = the whole cache (one
// shape for the request); ActivePrefix = the smallest bucket 256·2^k that holds pos+1 rows, capped
// at the capacity, so a captured step keeps most of the active-prefix saving with few shapes.
inline constexpr int64_t kMinKvBucket = 256;
int64_t kv_bucket(KvMode mode, int64_t pos, int64_t capacity);

}  // namespace reef
