// int4 GEMV rows in blocks of 16 (issue #44): the CPU layout of Reef's int4 weights where it pays
// (int4_blocks_pay(): x86 with AVX2), the same values as gemv_int4.h's row layout, rearranged.
//
// In the row layout a row's K/2 bytes lie together, so each row's products end in vector lanes that
// must be summed across, and every row pays its own setup (the groups' factors, the horizontal sums):
// the rows ran at ~25 GB/s on one Zen 4 core from L3, where the weights alone could stream at 2-3x.
// Here the 16 rows of a block take turns every 4 bytes: for block b (rows 16b..16b+15) and each run
// c of 4 packed bytes (weights 8c..8c+7 of a row), the 16 rows' 4 bytes side by side,
//   w[b][c][r][i] = row layout's byte 4c + i of row 16b + r,   [N/16, K/8, 64] bytes,
// and scale and zero per block and group, 16 rows side by side: [N/16, K/group, 16] bf16. A
// 64-byte vector then holds 8 weights of each of 16 rows. Its low nibbles are the weights 2(4c+i),
// which meet the 4 even inputs 4c..4c+3 of prepare_row_q8_i4's evens|odds split, and its high
// nibbles the odd ones: one broadcast of 4 input bytes each, and every 32-bit lane sums one row's
// products (vpdpbusd on AVX-512 VNNI; vpmaddubsw and vpmaddwd on AVX2). No horizontal sums, no
// per-row setup: about half the row layout's instructions per weight.
//
// The float work of a lane (a row) is the same operations in the same order on every target, so
// every target gives the same bits (the integer dots are exact):
//   acc += float(Σ_{i∈g} q_i·xq_i) · (s_g · xs_g),   zacc += (z_g − s_g·8) · gsum_g   (g in order),
//   y = (acc + zacc) (+ b).
// The row layout's bits differ (other sums): the two layouts are two formats in memory, one result
// each.
#pragma once
#include <cstdint>

namespace reef::kernels {

inline constexpr int64_t kInt4BlockRows = 16;

// Whether the target chosen now runs blocked rows at full speed (x86 AVX2 and up); elsewhere
// gemv_blocks_i4_q8 still gives the same bits, with plain loops.
bool int4_blocks_pay();

// w [N/16, K/8, 64], s and z [N/16, K/group, 16] bf16 bits as above, xq [m, k], xs and gsum
// [m, k/group] from prepare_row_q8_i4 (rows contiguous), b [N] or nullptr, y [m, N] with row stride
// ldy: rows r0 <= r < r1 (multiples of 16) of each of the m outputs are written, every input with
// the bits it gets alone. k % group == 0, k % 8 == 0, int4_group_supported(group).
void gemv_blocks_i4_q8(const uint8_t* w, const uint16_t* s, const uint16_t* z, int64_t group, const int8_t* xq,
                       const float* xs, const float* gsum, int64_t m, const float* b, int64_t k, int64_t r0, int64_t r1,
                       float* y, int64_t ldy);

// The blocked rows on AVX-512 VNNI CPUs (gemv_int4_blocks_vnni.cpp); the same arguments and bits.
void gemv_blocks_i4_q8_vnni(const uint8_t* w, const uint16_t* s, const uint16_t* z, int64_t group, const int8_t* xq,
                            const float* xs, const float* gsum, int64_t m, const float* b, int64_t k, int64_t r0,
                            int64_t r1, float* y, int64_t ldy);

}  // namespace reef::kernels
