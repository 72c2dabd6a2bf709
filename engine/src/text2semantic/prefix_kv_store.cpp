#include "text2semantic/prefix_kv_store.h"

namespace reef {
namespace {

bool same_tokens(const at::Tensor& a, const at::Tensor& b) {
    return a.sizes() == b.sizes() && at::equal(a, b);
}

}  // namespace

bool PrefixKvStore::restore(const at::Tensor& tokens, const std::string& context, KvCache& cache) {
    const at::Tensor key = tokens.to(at::kCPU, at::kLong);
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
        if (it->context != context || !same_tokens(it->tokens, key) || int64_t(it->k.size()) != cache.n_layer()) continue;
        const int64_t p = key.size(1);
        if (p > cache.capacity()) return false;
        for (int64_t il = 0; il < cache.n_layer(); ++il) cache.update(il, 0, it->k[size_t(il)], it->v[size_t(il)]);
        if (it != m_entries.begin()) {
            Entry e = std::move(*it);
            m_entries.erase(it);
            m_entries.push_front(std::move(e));
        }
        return true;
    }
    return false;
}

void PrefixKvStore::put(const at::Tensor& tokens, const std::string& context, const KvCache& cache) {
    if (m_max_entries == 0) return;
    Entry e;
    e.tokens = tokens.to(at::kCPU, at::kLong).clone();
    e.context = context;
    const int64_t p = e.tokens.size(1);
    for (int64_t il = 0; il < cache.n_layer(); ++il) {
        e.k.push_back(cache.keys(il, p).clone());    // [1, H, P, D], off the cache's storage
        e.v.push_back(cache.values(il, p).clone());
    }
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it)
        if (it->context == context && same_tokens(it->tokens, e.tokens)) {
            m_entries.erase(it);
            break;
        }
    m_entries.push_front(std::move(e));
    while (m_entries.size() > m_max_entries) m_entries.pop_back();
}

}  // namespace reef
