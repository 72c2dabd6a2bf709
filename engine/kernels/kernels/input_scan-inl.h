// The quantized rows' input scan in vectors (kernels/input_stats.h is the scalar one): max |x| and
// whether every element is finite, over whole vectors of x. Exact in any order, so every target
// gives the same answer. A per-target header, included inside each source's foreach_target pass
// (gemv_int4_simd.cpp, gemv_int8_simd.cpp), as two_stream_rows-inl.h.
#if defined(REEF_KERNELS_INPUT_SCAN_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef REEF_KERNELS_INPUT_SCAN_INL_H_
#undef REEF_KERNELS_INPUT_SCAN_INL_H_
#else
#define REEF_KERNELS_INPUT_SCAN_INL_H_
#endif

#include <cstdint>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace reef::kernels {
namespace HWY_NAMESPACE {

struct InputScan {
    float top = 0;       // max |x|
    bool finite = true;  // no inf or NaN
};

// The vectors the input kernels read: at most 16 floats, so a group of 32 int4 inputs (16 evens,
// 16 odds) is whole vectors on any vector length (SVE's may be wider).
using InputTag = hwy::HWY_NAMESPACE::CappedTag<float, 16>;

// x [n], n a multiple of Lanes(InputTag())
inline InputScan scan_input(const float* x, int64_t n) {
    namespace hn = hwy::HWY_NAMESPACE;
    const InputTag df;
    const int64_t lanes = int64_t(hn::Lanes(df));
    auto m = hn::Zero(df);
    auto bad = hn::FirstN(df, 0);  // lanes that met an inf or NaN
    for (int64_t i = 0; i < n; i += lanes) {
        const auto v = hn::LoadU(df, x + i);
        m = hn::Max(m, hn::Abs(v));
        bad = hn::Or(bad, hn::Not(hn::IsFinite(v)));
    }
    return {hn::GetLane(hn::MaxOfLanes(df, m)), hn::AllFalse(df, bad)};
}

}  // namespace HWY_NAMESPACE
}  // namespace reef::kernels
HWY_AFTER_NAMESPACE();

#endif  // REEF_KERNELS_INPUT_SCAN_INL_H_
