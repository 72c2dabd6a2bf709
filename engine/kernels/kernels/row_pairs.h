// The order in which the GEMV rows read a range: rows r0..r1 as two streams (the range's halves),
// row ra of the first half paired with row ra + half of the second, the odd last row paired with
// itself, so the same call reads every row whichever range it falls in (and so keeps its bits).
// pair(ra, rb, both): both is false for the odd row (rb == ra, its second result unused).
// Shared by the Highway rows (two_stream_rows-inl.h) and the hand-written VNNI rows and blocks.
#pragma once
#include <cstdint>

namespace reef::kernels {

template <typename Pair>
inline void for_row_pairs(int64_t r0, int64_t r1, const Pair& pair) {
    const int64_t half = (r1 - r0) / 2;
    for (int64_t ra = r0; ra < r0 + half; ++ra) pair(ra, ra + half, true);
    if ((r1 - r0) % 2) pair(r1 - 1, r1 - 1, false);
}

}  // namespace reef::kernels
