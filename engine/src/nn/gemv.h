// Decode multiplies one activation row by every weight matrix, so a decode step is a chain of
// GEMVs whose speed is the weights' read bandwidth. libtorch's one-row bf16 matmul reaches about
// half of that on an AVX-512 BF16 Xeon; the SIMD kernels (engine/kernels, Highway, the best target
// the CPU has: AVX-512 with the bf16 dot product, AVX-512, AVX2, SSE4, NEON/SVE, ...) stream each
// weight row once, one block of rows per libtorch intra-op thread read as two sequential streams.
// REEF_CPU_TARGET forces a lower target (kernels/cpu_target.h). The weights themselves lie in
// aligned, huge-page memory (nn/weight_memory.h).
#pragma once
#include <ATen/ATen.h>

namespace reef {

// dtype is bf16 or fp32, the build has the SIMD kernels (Highway) and REEF_GEMV=0 is not set.
// Every CPU runs them: the target is chosen at run time.
bool gemv_supported(at::ScalarType dtype);

// y = x·wᵀ (+ b): x [..., K] holding a single row, w [N, K] contiguous, b [N] or undefined, all
// bf16 or all fp32, K a multiple of 32. fp32 accumulation; bf16 rounded once at the end (as a bf16
// GEMM). -> [..., N]. Requires gemv_supported(dtype).
at::Tensor gemv(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b = {});

// The _into forms write the same values into y (M·N contiguous values of x's dtype on the CPU)
// instead of a new tensor: a fused decode step (text2semantic/decode_block.h) reuses its buffers
// and dispatches no ATen op per projection. gemv_into takes M rows (M·K contiguous values): one is
// gemv(), more project_rows()'s batched kernel, with its bits.
void gemv_into(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b, at::Tensor& y);

// Weight-only int8 (issue #44, nn/linear.h): the build has the SIMD kernels and REEF_GEMV=0 is not set.
bool gemv_int8_supported();

// y = (x·wᵀ)·s (+ b): x [M, K] fp32, bf16 or fp16 (M small: each weight row is read once for all M
// rows, and each row's result is bit-identical to M = 1's), w [N, K] int8 contiguous, s [N] fp32, b [N]
// or undefined. -> [M, N] in x's dtype: fp32 accumulation, rounded once at the end (as
// y_fp32.to(x.dtype()) would, without its dispatches). Requires gemv_int8_supported().
// exact_input = false: x is first quantized to int16 per row (kernels/gemv_int8.h gemv_rows_i8_q16:
// half the instructions per weight, each element moved by at most max|x| / 32766, below a bf16
// input's own rounding); true: fp32 products of the fp32 x, quantize.py's arithmetic.
at::Tensor gemv_int8(const at::Tensor& x, const at::Tensor& w, const at::Tensor& s, const at::Tensor& b = {},
                     bool exact_input = true);
void gemv_int8_into(const at::Tensor& x, const at::Tensor& w, const at::Tensor& s, const at::Tensor& b,
                    bool exact_input, at::Tensor& y);

// Weight-only int4 (issue #44, kernels/gemv_int4.h): y = Σ_g over x·((q − 8)·s + z) (+ b), x [M, K]
// fp32, bf16 or fp16 (M small, each row bit-identical to M = 1's), w [N, K/2] uint8 (two weights a
// byte: 2j low, 2j+1 high), s and z [N, K/group] bf16 — or the same in blocks of 16 rows, w
// [N/16, K/8, 64], s and z [N/16, K/group, 16] (kernels/gemv_int4_blocks.h: other sums, so other
// bits, the same on every target) — b [N] or undefined, group 32/64/128/256 dividing K, at most
// int4_kernel_max_groups() groups a row.
// x is quantized to int8 per group of weights first (kernels/gemv_int4.h). -> [M, N] in x's dtype,
// rounded once from the fp32 sums.
// Requires gemv_int8_supported() (the same build and switch).
at::Tensor gemv_int4(const at::Tensor& x, const at::Tensor& w, const at::Tensor& s, const at::Tensor& z,
                     const at::Tensor& b = {});
void gemv_int4_into(const at::Tensor& x, const at::Tensor& w, const at::Tensor& s, const at::Tensor& z,
                    const at::Tensor& b, at::Tensor& y);
int64_t int4_kernel_max_groups();
// The kernels run blocks of 16 int4 rows at full speed on the target chosen now (x86 AVX2 and up).
bool gemv_int4_blocks_pay();

// Blocks of 16 int4 rows (w [nb, K/8, 64], s and z [nb, G, 16], as gemv_int4 takes them) back in
// the row layout: new contiguous tensors, w [16·nb, K/2], s and z [16·nb, G].
struct Int4Rows {
    at::Tensor w, s, z;
};
Int4Rows int4_blocks_as_rows(const at::Tensor& w, const at::Tensor& s, const at::Tensor& z);

// Rows r0..r0+out.size(0) of the int4 matrix (w, s, z as gemv_int4 takes them; blocks: whole ones)
// dequantized into out [rows, K] bf16 (contiguous), on the intra-op threads (kernels/gemv_int4.h dequantize_rows_i4_bf16).
// Requires gemv_int8_supported().
void dequantize_int4_bf16(const at::Tensor& w, const at::Tensor& s, const at::Tensor& z, int64_t r0, at::Tensor& out);

// The CPU multiplies bf16 natively (AVX-512 BF16), so libtorch's bf16 kernels are fast there;
// elsewhere bf16 work is better done in fp32 (several-row projections here, the codec's dtype).
bool cpu_has_bf16_arithmetic();

// While a GemvPause is alive, project() sends everything to libtorch's linear: the bench's
// ":linear" arms compare the kernels with libtorch within one run. Engine thread only.
class GemvPause {
public:
    explicit GemvPause(bool pause);
    ~GemvPause();
    GemvPause(const GemvPause&) = delete;
    GemvPause& operator=(const GemvPause&) = delete;

private:
    bool m_previous;
};

// A GemvPause is alive (engine thread).
bool gemv_paused();

// at::linear (x·wᵀ + b), through gemv where it applies (CPU, one bf16/fp32 row, K % 32 == 0),
// so the model calls one function for every projection. Several bf16 rows (prefill) on a CPU
// without bf16 arithmetic go through an fp32 GEMM (faster there than libtorch's bf16 one).
at::Tensor project(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b = {});

// Batched decode (issue #27): x [M, 1, K], one row per sequence, each row's output exactly what
// project() gives that row alone, whatever else is in the batch. Where gemv applies, one call of
// the batched kernel reads every weight row once for all M rows (bit-identical per row to the
// one-row kernel); elsewhere on the CPU the rows go through project() one by one (exact, no
// weight reuse); on other devices one at::linear over all rows (a GEMM may round differently
// from a GEMV there). -> [M, 1, N]
at::Tensor project_rows(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b = {});

}  // namespace reef
