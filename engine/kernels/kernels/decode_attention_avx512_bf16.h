// Decode attention over bf16 rows with the AVX-512 BF16 dot product (decode_attention_avx512_bf16.cpp),
// the avx512-bf16 target's form of kernels/decode_attention.h for head dims 32, 64, 96 and 128.
// Its arithmetic differs from the portable kernel's in two roundings, both as libtorch's CPU flash
// and math backends do for bf16: the query is taken in bf16 (exact for a bf16 model's query, which
// is all its callers pass) and the softmax numerators are rounded to bf16 before the value product.
// Products and sums stay fp32.
#pragma once
#include <cstdint>

#include "kernels/decode_attention.h"

namespace reef::kernels {

// false (nothing written) when d is not one it takes or this build has no x86 AVX-512 code; the
// caller checks use_avx512_bf16_gemv() (the CPU has it and the target is not forced lower).
bool decode_attention_head_avx512_bf16(const float* q, int64_t g, int64_t d, const KvRows<uint16_t>& kv, float scale,
                                       float* out);

}  // namespace reef::kernels
