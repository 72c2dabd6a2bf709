// bf16 as Reef's CPU kernels hold it: the upper 16 bits of an IEEE fp32, kept as uint16_t so this
// library needs no torch type (c10::BFloat16 has the same layout and the same rounding).
#pragma once
#include <cstdint>
#include <cstring>

namespace reef::kernels {

inline float bf16_to_float(uint16_t v) {
    const uint32_t bits = uint32_t(v) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

// Round to nearest even, as c10::BFloat16 does; every NaN becomes the quiet NaN 0x7FC0 (a NaN
// whose payload sits in the low 16 bits would otherwise truncate to infinity).
inline uint16_t float_to_bf16(float f) {
    if (f != f) return 0x7FC0;
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    bits += 0x7FFFu + ((bits >> 16) & 1u);
    return uint16_t(bits >> 16);
}

// A bf16 GEMV output: the fp32 sum plus row r's bias (b may be null), rounded once, as a bf16
// GEMM rounds.
inline uint16_t bf16_output(float v, const uint16_t* b, int64_t r) {
    return float_to_bf16(b ? v + bf16_to_float(b[r]) : v);
}

}  // namespace reef::kernels
