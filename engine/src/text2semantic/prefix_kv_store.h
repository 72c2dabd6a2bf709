// The slow stack's KV rows of a voice prefix, kept between requests (issue #45): the system
// message with a reference's transcript and codes is the same for every segment of one voice, so
// a project prefills it once and each segment prefills only its own text. fish-speech's
// use_memory_cache keeps the reference's codes between requests; this keeps what the model made
// of them too.
//
// Exactness: a prompt with a voice prefix is always prefilled in two parts, the prefix at
// positions 0..P-1 and the rest after it (generator.cpp prefill), whether the prefix rows come
// from here or are computed now, so a reused prefix gives the same bits as a fresh one.
// An entry holds for one set of run settings (`context`: the SDPA policy, KV mode, CPU kernels,
// threads): rows made under other settings are not reused.
#pragma once
#include <ATen/ATen.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "text2semantic/kv_cache.h"

namespace reef {

class PrefixKvStore {
public:
    explicit PrefixKvStore(size_t max_entries = 4) : m_max_entries(max_entries) {}

    // Writes the rows stored for `tokens` ([N+1, P] int64, the prompt's first P columns) under
    // `context` into rows 0..P-1 of `cache`; false (and the cache untouched) when none are stored.
    bool restore(const at::Tensor& tokens, const std::string& context, KvCache& cache);
    // Keeps a copy of rows 0..P-1 of `cache` for `tokens`, dropping the least recently used entry
    // beyond max_entries.
    void put(const at::Tensor& tokens, const std::string& context, const KvCache& cache);

private:
    struct Entry {
        at::Tensor tokens;  // [N+1, P] int64, CPU
        std::string context;
        std::vector<at::Tensor> k, v;  // per layer [1, H, P, D]
    };
    size_t m_max_entries;
    std::deque<Entry> m_entries;  // most recently used first
};

}  // namespace reef
