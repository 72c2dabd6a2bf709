// Which ids at::sort(descending) puts at some ranks of a CPU fp32 row, without sorting the rest
// (issue #44: a sampled frame's speed). The sampler's top-k/top-p cut needs at::sort's order only
// where tied logits straddle the cut (top_p_cut.h); with bf16 logits that is ~40 % of the rows, and
// at::sort of a 4,096 row took ~250 µs (Zen 4 VM), ~0.8 ms of a sampled int4 frame.
//
// ATen's CPU sort of one row is libstdc++'s std::sort (introsort) over (value, index) pairs with
// NaN first, then larger values first; equal values end in an order only that algorithm decides.
// Its steps are repeated here, but each partition recurses only into the part that holds a wanted
// rank: a part never exchanges elements with another once split off, and the final insertion sort
// moves an element only past strictly smaller ones, so the wanted ranks end where std::sort puts
// them, after ~2n comparisons instead of ~n log n. tests/unit/tst_sampler.cpp checks it against
// at::sort itself on tie-heavy rows up to 155,776 long (CI builds it against both libtorch
// versions the README promises).
#pragma once
#include <cstdint>
#include <vector>

namespace reef {

struct RankedLogit {
    float value;
    int64_t id;
};

// row: every logit with its id, in id order (as at::sort's index arange starts); on return the
// entries at ranks [lo, hi) are the ones at::sort(row, descending) puts there, in its order
// (the other entries are in some order of no meaning).
void settle_ranks(std::vector<RankedLogit>& row, int64_t lo, int64_t hi);

}  // namespace reef
