// One TransformerBlock of a CPU decode step (one sequence, one position) without ATen's per-op
// dispatch (issue #44).
//
// block_forward through ATen dispatches ~65 ops a block (views, reshapes, empties, dtype round
// trips around attention, residual adds), ~4,400 a frame of s1-mini; each costs ~1 µs of the engine
// thread while the other core waits, which weighs most where a frame reads the fewest bytes (int4:
// the second thread idled ~25 % of a frame, perf). decode_block runs the same kernels in the same
// order on buffers kept between calls: RMSNorm (nn/row_kernels), the projections (nn/linear.h
// project_row_into), qk norm + RoPE + cache write (qkv_to_cache_into), Reef's decode attention
// (reef_decode_attention_rows), the SwiGLU gate (ATen's silu, as silu_mul_rows) and the residual
// adds, so its output is block_forward's, bit for bit (tests/unit/tst_decode_block.cpp).
//
// It applies where every part would take that path anyway: a CPU fp32/bf16 row, the kernels for
// all four projections, the "reef" attention policy, a cache written at `start` (not by index).
// REEF_DECODE_BLOCK=0 (or set_decode_block(false)) sends every block through block_forward's ops.
#pragma once
#include <ATen/ATen.h>

#include "text2semantic/layers.h"

namespace reef {

// x: [1, 1, C]; the rest as block_forward takes them
bool decode_block_apply(const at::Tensor& x, const BlockWeights& w, const BlockDims& dims, const at::Tensor& freqs_cis,
                        const CacheSlot& slot);
// [1, 1, C] -> [1, 1, C], block_forward's values. Requires decode_block_apply. Engine thread.
at::Tensor decode_block(const at::Tensor& x, const BlockWeights& w, const BlockDims& dims, const at::Tensor& freqs_cis,
                        const CacheSlot& slot);

// On by default (REEF_DECODE_BLOCK=0: off for the process); returns the previous setting. Tests
// and A/B runs switch it within one process.
bool set_decode_block(bool on);

}  // namespace reef
