// The byte-pair merge loop shared by the HF BPE model and tiktoken: repeatedly merge the adjacent
// pair with the lowest rank, the leftmost one on ties (HF's priority queue order; tiktoken's
// "first minimum" scan gives the same result). O(n log n) with a heap and a linked list, so a
// long run of letters without spaces stays fast.
#pragma once
#include <cstdint>
#include <optional>
#include <queue>
#include <vector>

namespace reef {

struct BpeSymbol {
    int32_t id;      // current token id of this symbol
    uint32_t begin;  // byte (or char) range in the piece, for merge functions that look at text
    uint32_t end;
};

struct BpeMerge {
    uint32_t rank;   // lower merges first
    int32_t new_id;  // id of the merged symbol
};

// merge_fn(const BpeSymbol& left, const BpeSymbol& right) -> std::optional<BpeMerge>.
template <class MergeFn>
std::vector<int32_t> bpe_merge(std::vector<BpeSymbol> syms, MergeFn&& merge_fn) {
    const int n = static_cast<int>(syms.size());
    std::vector<int> next(n), prev(n);
    std::vector<char> alive(n, 1);
    for (int i = 0; i < n; ++i) {
        next[i] = i + 1 < n ? i + 1 : -1;
        prev[i] = i - 1;
    }
    struct Entry {
        uint32_t rank;
        int left, right;
        int32_t left_id, right_id, new_id;
        bool operator>(const Entry& o) const { return rank != o.rank ? rank > o.rank : left > o.left; }
    };
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
    auto push = [&](int l, int r) {
        if (l < 0 || r < 0) return;
        if (auto m = merge_fn(syms[l], syms[r])) heap.push({m->rank, l, r, syms[l].id, syms[r].id, m->new_id});
    };
    for (int i = 0; i + 1 < n; ++i) push(i, i + 1);
    while (!heap.empty()) {
        const Entry e = heap.top();
        heap.pop();
        // Stale entries: one side was merged away or changed since the pair was queued.
        if (!alive[e.left] || !alive[e.right] || next[e.left] != e.right) continue;
        if (syms[e.left].id != e.left_id || syms[e.right].id != e.right_id) continue;
        syms[e.left].id = e.new_id;
        syms[e.left].end = syms[e.right].end;
        alive[e.right] = 0;
        next[e.left] = next[e.right];
        if (next[e.right] >= 0) prev[next[e.right]] = e.left;
        push(prev[e.left], e.left);
        push(e.left, next[e.left]);
    }
    std::vector<int32_t> ids;
    for (int i = 0; i >= 0 && i < n; i = next[i]) ids.push_back(syms[i].id);
    return ids;
}

}  // namespace reef
