#include "text2semantic/sort_ranks.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>

namespace reef {
namespace {

using It = RankedLogit*;

// ATen's descending key-value order: NaN before everything else, then larger first
bool before(const RankedLogit& a, const RankedLogit& b) {
    return (std::isnan(a.value) && !std::isnan(b.value)) || a.value > b.value;
}

constexpr int64_t kThreshold = 16;  // parts this small are left to the final insertion sort

// The median of *a, *b, *c (in `before` order) swapped into *result, as std::sort chooses its pivot.
void median_to_first(It result, It a, It b, It c) {
    if (before(*a, *b)) {
        if (before(*b, *c))
            std::swap(*result, *b);
        else if (before(*a, *c))
            std::swap(*result, *c);
        else
            std::swap(*result, *a);
    } else if (before(*a, *c)) {
        std::swap(*result, *a);
    } else if (before(*b, *c)) {
        std::swap(*result, *c);
    } else {
        std::swap(*result, *b);
    }
}

// Hoare partition around *pivot without bounds checks (the pivot and the median's others stop
// both scans): -> the first element of the right part.
It partition_around(It first, It last, It pivot) {
    for (;;) {
        while (before(*first, *pivot)) ++first;
        --last;
        while (before(*pivot, *last)) --last;
        if (!(first < last)) return first;
        std::swap(*first, *last);
        ++first;
    }
}

// Insertion sort: an element moves left only past elements it comes strictly before, so equal
// elements keep their order (std::sort's final pass, which acts on each small part alone).
void insertion_sort(It first, It last) {
    for (It i = first + 1; i < last; ++i) {
        const RankedLogit v = *i;
        It j = i;
        for (; j > first && before(v, *(j - 1)); --j) *j = *(j - 1);
        *j = v;
    }
}

bool misses(It first, It last, It lo, It hi) { return last <= lo || first >= hi; }

// std::sort's introsort loop (pivot, partition, the right part first, then on with the left; a
// part past the depth limit heap-sorted), entering only parts that hold a rank in [lo, hi).
void introsort_ranks(It first, It last, int64_t depth, It lo, It hi) {
    while (last - first > kThreshold) {
        if (misses(first, last, lo, hi)) return;
        if (depth == 0) {
            std::make_heap(first, last, before);
            std::sort_heap(first, last, before);
            return;
        }
        --depth;
        median_to_first(first, first + 1, first + (last - first) / 2, last - 1);
        const It cut = partition_around(first + 1, last, first);
        introsort_ranks(cut, last, depth, lo, hi);
        last = cut;
    }
    if (!misses(first, last, lo, hi)) insertion_sort(first, last);
}

}  // namespace

void settle_ranks(std::vector<RankedLogit>& row, int64_t lo, int64_t hi) {
    const int64_t n = int64_t(row.size());
    lo = std::clamp<int64_t>(lo, 0, n), hi = std::clamp<int64_t>(hi, lo, n);
    if (n < 2 || lo == hi) return;
    It first = row.data();
    // std::sort's depth limit: twice floor(log2(n))
    introsort_ranks(first, first + n, 2 * (int64_t(std::bit_width(uint64_t(n))) - 1), first + lo, first + hi);
}

}  // namespace reef
