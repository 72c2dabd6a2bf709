// What the hand-written AVX-512 BF16 kernels share (gemv_avx512_bf16.cpp, decode_attention_avx512_bf16.cpp):
// the target attribute their functions compile with, a 64-byte load as 32 bf16 values, and the sum
// of a vector's lanes in lane order (kernels/lane_sum.h). x86-64 GCC/Clang only; include it inside
// the files' own `#if defined(__x86_64__) && defined(__GNUC__)`.
#pragma once
#include <immintrin.h>

#include <cstdint>

#include "kernels/lane_sum.h"

#define REEF_AVX512_BF16 __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16")))

namespace reef::kernels::avx512_bf16 {

REEF_AVX512_BF16 inline __m512bh load(const uint16_t* p) { return (__m512bh)_mm512_loadu_si512(p); }

// The sum of the 16 lanes, through memory
REEF_AVX512_BF16 inline float lane_sum(__m512 v) {
    alignas(64) float lanes[16];
    _mm512_store_ps(lanes, v);
    return sum_lanes<float>(lanes);
}

}  // namespace reef::kernels::avx512_bf16
