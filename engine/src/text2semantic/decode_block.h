// One TransformerBlock of a CPU decode step (one position of one sequence, or of up to 8 in a batch)
// without ATen's per-op dispatch (issue #44).
//
// block_forward through ATen dispatches ~65 ops a block (views, reshapes, empties, dtype round
// trips around attention, residual adds), ~4,400 a frame of s1-mini; each costs ~1 µs of the engine
// thread while the other core waits, which weighs most where a frame reads the fewest bytes (int4:
// the second thread idled ~25 % of a frame, perf). decode_block runs the same kernels in the same
// order on buffers kept between calls: RMSNorm (nn/row_kernels), the projections (nn/linear.h
// project_rows_into), qk norm + RoPE + cache write (qkv_to_cache_into), Reef's decode attention
// (reef_decode_attention_rows_batch), the SwiGLU gate (ATen's silu, as silu_mul_rows) and the residual
// adds, so its output is block_forward's, bit for bit (tests/unit/tst_decode_block.cpp).
//
// It applies where every part would take that path anyway: CPU fp32/bf16 rows, the kernels for
// all four projections, the "reef" attention policy, caches written at `start` (not by index).
// Batched decode (block_forward_batch, up to kDecodeBlockMaxRows sequences) takes it too: the
// projections once for all rows (the batched kernels), the rest per sequence, each row
// block_forward_batch's bits. REEF_DECODE_BLOCK=0 (or set_decode_block(false)) sends every block
// through the ops.
#pragma once
#include <ATen/ATen.h>

#include "text2semantic/layers.h"

namespace reef {

// The most sequences one fused call takes: the quantized kernels' rows per call (nn/linear.cpp).
inline constexpr int64_t kDecodeBlockMaxRows = 8;

// x: [B, 1, C], one RoPE row and one cache slot per sequence (B = 1: block_forward's arguments)
// -> [B, 1, C]: block_forward's values for B = 1, block_forward_batch's for more; an undefined
// tensor, with nothing written, where the fused path does not apply (the caller runs the ops).
// Engine thread.
at::Tensor decode_block(const at::Tensor& x, const BlockWeights& w, const BlockDims& dims, const at::Tensor* freqs_cis,
                        const CacheSlot* slots);

// On by default (REEF_DECODE_BLOCK=0: off for the process); returns the previous setting. Tests
// and A/B runs switch it within one process.
bool set_decode_block(bool on);

// While one is alive with ops = true, this thread's blocks go through the ops (bench ":ops" arms:
// the fused block's A/B within one run).
class DecodeBlockOps {
public:
    explicit DecodeBlockOps(bool ops);
    ~DecodeBlockOps();
    DecodeBlockOps(const DecodeBlockOps&) = delete;
    DecodeBlockOps& operator=(const DecodeBlockOps&) = delete;

private:
    bool m_previous;
};

// Fused blocks this thread has run so far, one per sequence (what ran: the bench's
// arms[].decode_blocks_per_frame).
int64_t decode_blocks_run();

}  // namespace reef
