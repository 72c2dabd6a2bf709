#include "text2semantic/kv_cache.h"

#include <algorithm>
#include <string>

#include "check.h"
#include "memory_check.h"
#include "base/weight_memory.h"
#include "text2semantic/model_config.h"

namespace reef {

namespace {

// A request for more rows than the device can hold is an error value, not an OOM kill.
void require_kv_memory(int64_t n_layer, int64_t n_heads, int64_t head_dim, int64_t rows, int64_t old_rows,
                       const at::TensorOptions& options) {
    const uint64_t needed =
        kv_cache_bytes(n_layer, n_heads, head_dim, rows, c10::typeMetaToScalarType(options.dtype()));
    require_memory(needed, options.device(),
                   "a KV cache of " + std::to_string(rows) + " positions (" + std::to_string(n_layer) + " layers x " +
                       std::to_string(n_heads) + " heads x " + std::to_string(head_dim) +
                       (old_rows > 0 ? ", grown from " + std::to_string(old_rows) + ")" : std::string(")")));
}

}  // namespace

KvCache::KvCache(int64_t n_layer, int64_t n_heads, int64_t head_dim, int64_t capacity, at::TensorOptions options)
    : m_capacity(find_multiple(capacity, 8)) {
    REEF_CHECK(n_layer > 0 && n_heads > 0 && head_dim > 0 && capacity > 0, "KvCache: bad sizes");
    require_kv_memory(n_layer, n_heads, head_dim, m_capacity, 0, options);
    for (int64_t il = 0; il < n_layer; ++il) {
        m_k.push_back(kv_cache_zeros({1, n_heads, m_capacity, head_dim}, options));
        m_v.push_back(kv_cache_zeros({1, n_heads, m_capacity, head_dim}, options));
    }
}

int64_t KvCache::bytes() const {
    int64_t n = 0;
    for (size_t i = 0; i < m_k.size(); ++i) n += m_k[i].nbytes() + m_v[i].nbytes();
    return n;
}

void KvCache::ensure_capacity(int64_t capacity) {
    REEF_CHECK(!empty(), "KvCache::ensure_capacity on an unallocated cache");
    if (capacity <= m_capacity) return;
    const int64_t grown = find_multiple(capacity, 8);
    // The old cache stays alive while the bigger one is filled, so only the new one must fit.
    require_kv_memory(n_layer(), m_k[0].size(1), m_k[0].size(3), grown, m_capacity, m_k[0].options());
    try {
        for (size_t il = 0; il < m_k.size(); ++il) {
            for (auto* t : {&m_k[il], &m_v[il]}) {
                auto sizes = t->sizes().vec();
                sizes[2] = grown;
                at::Tensor bigger = kv_cache_zeros(sizes, t->options());
                bigger.narrow(2, 0, m_capacity).copy_(*t);
                *t = bigger;
            }
        }
    } catch (...) {
        // An allocation failed half-way (the check above passed, then memory ran out): some layers
        // are grown, some not. The cache is emptied rather than left with mixed sizes, so the next
        // request allocates a fresh one instead of failing on it (Text2SemanticCaches::prepare).
        m_k.clear();
        m_v.clear();
        m_capacity = 0;
        throw;
    }
    m_capacity = grown;
}

void KvCache::check_rows(int64_t il, int64_t start, int64_t s) const {
    REEF_CHECK(il >= 0 && il < n_layer(), "KvCache: layer out of range");
    if (start < 0 || start + s > m_capacity)
        throw ReefError(ErrorCode::Internal, "KV cache overflow: positions " + std::to_string(start) + ".." +
                                                 std::to_string(start + s - 1) + " but capacity " +
                                                 std::to_string(m_capacity));
}

void KvCache::update(int64_t il, int64_t start, const at::Tensor& k, const at::Tensor& v) {
    // k, v: [1, H, S, D] -> rows start..start+S-1 of layer il
    const int64_t s = k.size(2);
    check_rows(il, start, s);
    m_k[size_t(il)].narrow(2, start, s).copy_(k);
    m_v[size_t(il)].narrow(2, start, s).copy_(v);
}

void KvCache::update_at(int64_t il, const at::Tensor& index, const at::Tensor& k, const at::Tensor& v) {
    // k, v: [1, H, S, D] -> rows index[0..S-1] of layer il
    REEF_CHECK(il >= 0 && il < n_layer(), "KvCache::update_at: layer out of range");
    REEF_CHECK(index.dim() == 1 && index.size(0) == k.size(2), "KvCache::update_at: one row index per position");
    m_k[size_t(il)].index_copy_(2, index, k);
    m_v[size_t(il)].index_copy_(2, index, v);
}

at::Tensor KvCache::keys(int64_t il, int64_t len) const {
    REEF_CHECK(len >= 1 && len <= m_capacity, "KvCache::keys: length outside the cache");
    return m_k[size_t(il)].narrow(2, 0, len);
}

at::Tensor KvCache::values(int64_t il, int64_t len) const {
    REEF_CHECK(len >= 1 && len <= m_capacity, "KvCache::values: length outside the cache");
    return m_v[size_t(il)].narrow(2, 0, len);
}

void KvCache::reset() {
    for (size_t il = 0; il < m_k.size(); ++il) {
        m_k[il].zero_();
        m_v[il].zero_();
    }
}

std::vector<at::Tensor> KvCache::layer_tensors() const {
    std::vector<at::Tensor> out;
    for (size_t il = 0; il < m_k.size(); ++il) {
        out.push_back(m_k[il]);
        out.push_back(m_v[il]);
    }
    return out;
}

uint64_t kv_cache_bytes(int64_t n_layer, int64_t n_heads, int64_t head_dim, int64_t rows, at::ScalarType dtype) {
    return bytes_product({2, uint64_t(n_layer), uint64_t(n_heads), uint64_t(find_multiple(rows, 8)), uint64_t(head_dim),
                          uint64_t(c10::elementSize(dtype))});
}

int64_t kv_capacity_for(int64_t prompt_len, int64_t max_new_tokens, int64_t margin, int64_t max_seq_len) {
    const int64_t want = find_multiple(prompt_len + max_new_tokens + std::max<int64_t>(margin, 0), 8);
    return std::min(want, find_multiple(max_seq_len, 8));
}

AttentionSpan attention_span(KvMode mode, int64_t start, int64_t seq_len, int64_t capacity, at::Device device) {
    AttentionSpan span;
    span.kv_len = mode == KvMode::Full ? capacity : start + seq_len;
    REEF_CHECK(start + seq_len <= capacity, "attention_span: positions beyond the cache");
    if (mode == KvMode::ActivePrefix && seq_len == 1) return span;
    // key j is visible to query i iff j <= start + i (causal_mask[input_pos, :kv_len])
    const auto opts = at::TensorOptions().dtype(at::kLong).device(device);
    const at::Tensor q_pos = at::arange(start, start + seq_len, opts).view({seq_len, 1});
    const at::Tensor k_pos = at::arange(span.kv_len, opts).view({1, span.kv_len});
    span.mask = k_pos.le(q_pos).view({1, 1, seq_len, span.kv_len});
    return span;
}

AttentionSpan attention_span_at(const at::Tensor& input_pos, int64_t kv_len) {
    AttentionSpan span;
    span.kv_len = kv_len;
    const at::Tensor k_pos = at::arange(kv_len, input_pos.options());  // [kv_len]
    span.mask = k_pos.le(input_pos.view({1})).view({1, 1, 1, kv_len});
    return span;
}

int64_t kv_bucket(KvMode mode, int64_t pos, int64_t capacity) {
    REEF_CHECK(pos >= 0 && pos < capacity, "kv_bucket: position outside the cache");
    if (mode == KvMode::Full) return capacity;
    int64_t bucket = kMinKvBucket;
    while (bucket < pos + 1) bucket *= 2;
    return std::min(bucket, capacity);
}

}  // namespace reef
