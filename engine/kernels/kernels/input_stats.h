// The quantized rows' input side (kernels/gemv_int4.h, kernels/gemv_int8.h): before each call the
// activation row is scanned (finite? max |x|, sum) and rounded to small integers. That runs on the
// calling thread while the others wait, once per GEMV (~280 a decode frame). The vector versions
// (PrepareRowQ8I4, QuantizeRowQ16) keep these definitions' bits: this scalar scan is the sums' order
// (four strided double partial sums) and the targets with fewer than four double lanes run it.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace reef::kernels {

struct InputStats {
    bool finite = true;
    float top = 0;    // max |x|
    double sum = 0;   // Σ x in double: exact for bf16 inputs (8-bit mantissas) of any realistic spread
};

// x [n], n % 4 == 0. The sum is four strided partial sums added at the end.
inline InputStats input_stats(const float* x, int64_t n) {
    float top[4] = {0, 0, 0, 0};
    double sum[4] = {0, 0, 0, 0};
    uint32_t bad = 0;
    for (int64_t i = 0; i < n; i += 4)
        for (int l = 0; l < 4; ++l) {
            const float v = x[i + l];
            uint32_t bits;
            std::memcpy(&bits, &v, sizeof bits);
            bad |= uint32_t((bits & 0x7F800000u) == 0x7F800000u);  // inf or NaN
            top[l] = std::max(top[l], std::fabs(v));
            sum[l] += double(v);
        }
    InputStats s;
    s.finite = bad == 0;
    s.top = std::max(std::max(top[0], top[1]), std::max(top[2], top[3]));
    s.sum = (sum[0] + sum[1]) + (sum[2] + sum[3]);
    return s;
}

// lrintf(v) for |v| < 2^22, without the call: adding 1.5·2^23 leaves no fraction bits, so the float
// add rounds v to an integer in the current mode (nearest even, as lrintf), and subtracting it back
// is exact. -ffp-contract=off (engine/kernels/CMakeLists.txt) keeps the two adds apart.
inline int round_small(float v) {
    constexpr float kMagic = 12582912.0f;  // 1.5 · 2^23
    return int((v + kMagic) - kMagic);
}

}  // namespace reef::kernels
