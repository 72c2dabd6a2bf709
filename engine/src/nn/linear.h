// A projection's weights as the model holds them: a bf16/fp32/fp16 matrix as stored, weight-only
// int8 (issue #44) as fish-speech's tools/llama/quantize.py writes it, WeightOnlyInt8Linear:
// int8 [N, K] with one scale per output row, applied as linear(x, w)·scales; or weight-only int4,
// quantize.py --mode int4's arithmetic in Reef's CPU layout (kernels/gemv_int4.h): uint8 [N, K/2]
// holding two 4-bit values a byte, bf16 scales and zeros [N, K/group], w = (q − 8)·scale + zero;
// on CPUs where it pays (x86 AVX2 and up) the same values in blocks of 16 rows, [N/16, K/8, 64] and
// [N/16, K/group, 16] (kernels/gemv_int4_blocks.h: about twice the rows' weights per instruction).
// Every projection of the text2semantic model goes through project(x, Linear), so the format is
// decided in one place.
#pragma once
#include <ATen/ATen.h>

namespace reef {

// int4 rows in blocks of 16 (kernels/gemv_int4_blocks.h)
inline constexpr int64_t kInt4BlockRows = 16;

struct Linear {
    at::Tensor weight;  // [N, K]: the model's float dtype, or int8; int4: [N, K/2] uint8 (blocked: [N/16, K/8, 64])
    at::Tensor scales;  // int8: [N] fp32 (read from bf16: exact); int4: [N, K/group] bf16 ([N/16, K/group, 16]); else undefined
    at::Tensor bias;    // [N] in the model's dtype, or undefined
    at::Tensor zeros;   // int4: as scales; else undefined

    bool int8() const { return scales.defined() && !zeros.defined(); }
    bool int4() const { return zeros.defined(); }
    bool int4_blocked() const { return int4() && weight.dim() == 3; }
    bool quantized() const { return scales.defined(); }
    bool defined() const { return weight.defined(); }
    int64_t in_features() const { return int4() ? (int4_blocked() ? 8 : 2) * weight.size(1) : weight.size(1); }
    int64_t out_features() const { return int4_blocked() ? kInt4BlockRows * weight.size(0) : weight.size(0); }
    int64_t group() const { return int4() ? in_features() / scales.size(1) : 0; }
    // what a decode step reads of it: weight, scales and bias
    int64_t nbytes() const;
};

// The int4 group sizes Reef writes, reads and runs (quantize.py's WeightOnlyInt4QuantHandler allows
// the same): one rule for the quantizer, the loader and the kernels' callers.
inline bool int4_group_supported(int64_t group) { return group == 32 || group == 64 || group == 128 || group == 256; }

// An int4 Linear in blocks of 16 rows, or back in rows (the file's layout): the same values, new
// tensors (int4_blocks': weight memory on the CPU; int4_rows': plain ones, for dequantizing).
// int4_blocks(l) requires N % 16 == 0; either returns l itself when it is already in that layout.
// int4_blocks_pay(l): l is an int4 Linear in rows on the CPU, N a multiple of 16, and this CPU's
// kernels run blocks at full speed (kernels/gemv_int4_blocks.h).
bool int4_blocks_pay(const Linear& l);
Linear int4_blocks(const Linear& l);
Linear int4_rows(const Linear& l);
// l in the layout the CPU kernels run best: int4_blocks(l) where int4_blocks_pay(l), else l.
Linear int4_cpu_layout(const Linear& l);

// Checks the set: an int8 weight needs [N] scales, an int4 one (uint8) bf16 scales and zeros [N, G]
// with K / G a supported group size, a float one neither. Throws ReefError(ShapeMismatch or
// CorruptModel) naming `what` (the checkpoint key).
Linear make_linear(at::Tensor weight, at::Tensor scales, at::Tensor bias, const std::string& what,
                   at::Tensor zeros = {});

// x [..., K] -> [..., N] in x's dtype. Float weights: project(x, w, b) (nn/gemv.h). int8 on the CPU
// (a few rows: decode) through the int8 GEMV kernel, one rounding at the end: fp32 products for an
// fp32 x, an int16-quantized x for bf16/fp16 (nn/gemv.h gemv_int8);
// otherwise (prefill, CUDA, a GemvPause) fish-speech's own arithmetic: linear(x, w.to(x.dtype))·s.
// int4 on the CPU likewise through the int4 kernel (x quantized to int8 per group, whatever its dtype);
// elsewhere the dequantized matrix (dequantized()) through project(x, w).
at::Tensor project(const at::Tensor& x, const Linear& l);
// Batched decode x [M, 1, K] -> [M, 1, N], each row bit-identical to project() on that row alone.
at::Tensor project_rows(const at::Tensor& x, const Linear& l);

// 1-8 CPU rows of dtype through l by the SIMD kernels, written into out: project_rows() would run
// the same kernel on them (bf16/fp32 weights of that dtype, int8, int4), so the values are its own.
// x: [M, K] contiguous, out: M·N contiguous values of x's dtype. No ATen op is dispatched: the
// fused decode step (text2semantic/decode_block.h) checks every projection of a block with
// project_rows_into_apply before it writes anything.
bool project_rows_into_apply(const Linear& l, at::ScalarType dtype);
void project_rows_into(const at::Tensor& x, const Linear& l, at::Tensor& out);

// The matrix [N, K] in `dtype`, int8 dequantized (w·s rounded once), int4 ((q − 8)·s + z in fp32,
// rounded once): for consumers without quantized paths.
at::Tensor dequantized(const Linear& l, at::ScalarType dtype);

}  // namespace reef
