// The row order of the quantized GEMV rows (kernels/gemv_int8.h, kernels/gemv_int4.h), shared by
// their Highway sources: rows r0..r1 as two streams (the block's halves, as the bf16/fp32 rows read
// them), each pass running its two rows against every input, so rows ra and rb come from memory for
// input 0 and from L1 after. dot.two(ra, rb, j) -> the two rows' sums for input j; put(j, r, sum)
// writes input j's output r. The odd last row goes through two() too (paired with itself), so which
// call reads a row never changes its bits. A per-target header: included inside each source's
// foreach_target pass.
#if defined(REEF_KERNELS_TWO_STREAM_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef REEF_KERNELS_TWO_STREAM_ROWS_INL_H_
#undef REEF_KERNELS_TWO_STREAM_ROWS_INL_H_
#else
#define REEF_KERNELS_TWO_STREAM_ROWS_INL_H_
#endif

#include <cstdint>

#include <hwy/highway.h>

#include "kernels/cpu_target.h"
#include "kernels/row_pairs.h"

HWY_BEFORE_NAMESPACE();
namespace reef::kernels {
namespace HWY_NAMESPACE {

template <typename Dot, typename Put>
void two_stream_rows(const Dot& dot, int64_t r0, int64_t r1, int64_t m, const Put& put) {
    for_row_pairs(r0, r1, [&](int64_t ra, int64_t rb, bool both) {
        for (int64_t j = 0; j < m; ++j) {
            const auto [va, vb] = dot.two(ra, rb, j);
            put(j, ra, va);
            if (both) put(j, rb, vb);
        }
    });
    note_ran(HWY_TARGET);
}

}  // namespace HWY_NAMESPACE
}  // namespace reef::kernels
HWY_AFTER_NAMESPACE();

#endif  // REEF_KERNELS_TWO_STREAM_ROWS_INL_H_
