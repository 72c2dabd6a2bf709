// The int4 and int8 GEMV rows with AVX-512 VNNI dot products (gemv_vnni.cpp), run by the
// hand-written x86 targets (avx512-bf16, amx-bf16: every CPU with AVX-512 BF16 has VNNI too) in
// place of Highway's AVX-512 rows. Same arguments, order and arithmetic as gemv_rows_i4_q8
// (kernels/gemv_int4.h, group >= 64) and gemv_rows_i8_q16 (kernels/gemv_int8.h, the same bits).
#pragma once
#include <cstdint>

namespace reef::kernels {

bool cpu_has_avx512_vnni();  // AVX-512 F/BW/VL and VNNI

void gemv_rows_i4_q8_vnni(const uint8_t* w, const uint16_t* s, const uint16_t* z, int64_t group, const int8_t* xq,
                          const float* xs, const float* gsum, int64_t m, const float* b, int64_t k, int64_t r0,
                          int64_t r1, float* y, int64_t ldy);
void gemv_rows_i8_q16_vnni(const int8_t* w, const float* s, const int16_t* xq, const float* sx, int64_t ldx,
                           int64_t m, const float* b, int64_t k, int64_t r0, int64_t r1, float* y, int64_t ldy);

}  // namespace reef::kernels
