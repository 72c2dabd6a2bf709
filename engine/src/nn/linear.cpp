#include "nn/linear.h"

#include <ATen/Parallel.h>
#include <ATen/record_function.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>

#include <string>
#include <vector>

#include "check.h"
#include "base/weight_memory.h"
#include "nn/gemv.h"

namespace reef {
namespace {

// Up to this many rows at once the int8 kernel (each weight row read once for all of them) beats
// dequantizing the matrix for a GEMM; decode has 1 row per sequence and batches up to 8.
constexpr int64_t kKernelRows = 8;

// Up to this many rows the int4 kernel in chunks of kKernelRows beats dequantizing the matrix for
// a GEMM (a short prompt's prefill: the kernel reads the packed weights once per 8 rows).
constexpr int64_t kInt4KernelPrefillRows = 32;

// The int4 matrix [N, K] in T: w = (q − 8)·scale + zero in fp32, rounded once to T. Rows in
// parallel on the intra-op threads; plain loops (one pass, ~10x faster than ATen's unpacking ops).
// l in rows (int4_rows).
template <typename T>
void dequantize_int4_rows(const Linear& l, at::Tensor& out) {
    const int64_t n = l.weight.size(0), k = l.in_features(), groups = l.scales.size(1), group = k / groups;
    const uint8_t* w = l.weight.const_data_ptr<uint8_t>();
    const c10::BFloat16* s = l.scales.const_data_ptr<c10::BFloat16>();
    const c10::BFloat16* z = l.zeros.const_data_ptr<c10::BFloat16>();
    T* o = out.mutable_data_ptr<T>();
    at::parallel_for(0, n, 16, [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r)
            for (int64_t g = 0; g < groups; ++g) {
                const float sc = float(s[r * groups + g]), zero = float(z[r * groups + g]);
                const uint8_t* wg = w + r * (k / 2) + g * (group / 2);
                T* og = o + r * k + g * group;
                for (int64_t i = 0; i < group / 2; ++i) {
                    og[2 * i] = T(float((wg[i] & 0x0F) - 8) * sc + zero);
                    og[2 * i + 1] = T(float((wg[i] >> 4) - 8) * sc + zero);
                }
            }
    });
}

// A long prompt's bf16 rows through an int4 Linear: the matrix dequantized a block of rows at a time
// into one scratch buffer (a few MB, reused: a fresh [N, K] bf16 matrix per call costs a page fault
// per 4 KB written, about as long as the dequantization itself), each block multiplied as a GEMM.
// x [..., K] -> [..., N] bf16.
at::Tensor project_int4_dequantized(const at::Tensor& x, const Linear& l) {
    RECORD_FUNCTION("reef::int4_prefill", std::vector<c10::IValue>());
    constexpr int64_t kBlockBytes = int64_t(4) << 20;
    const int64_t n = l.out_features(), k = l.in_features(), rows = x.numel() / k;
    // whole blocks of 16 rows (blocked weights dequantize a block at a time)
    const int64_t block = std::min(n, std::max<int64_t>(16, kBlockBytes / (2 * k)) / kInt4BlockRows * kInt4BlockRows);
    thread_local at::Tensor scratch;  // the engine thread's; grown to the widest block
    if (!scratch.defined() || scratch.numel() < block * k) scratch = at::empty({block * k}, x.options());
    const at::Tensor x2 = x.reshape({rows, k}).contiguous();
    at::Tensor y = at::empty({rows, n}, x.options());
    for (int64_t r0 = 0; r0 < n; r0 += block) {
        const int64_t len = std::min(block, n - r0);
        at::Tensor w = scratch.narrow(0, 0, len * k).view({len, k});
        dequantize_int4_bf16(l.weight, l.scales, l.zeros, r0, w);
        y.narrow(1, r0, len).copy_(at::mm(x2, w.t()));  // [rows, len]
    }
    if (l.bias.defined()) y.add_(l.bias);
    auto out_sizes = x.sizes().vec();
    out_sizes.back() = n;
    return y.view(out_sizes);
}

// x [..., K] -> [..., N] through an int4 Linear (see project(x, Linear))
at::Tensor project_int4(const at::Tensor& x, const Linear& l) {
    const int64_t n = l.out_features(), k = l.in_features();
    REEF_CHECK(x.size(-1) == k, "project: x's last dim must be the int4 weight's K");
    const int64_t rows = x.numel() / k;
    if (x.device().is_cpu() && rows <= kInt4KernelPrefillRows && !gemv_paused() && gemv_int8_supported() &&
        l.scales.size(1) <= int4_kernel_max_groups()) {
        RECORD_FUNCTION("reef::gemv_int4", std::vector<c10::IValue>());
        auto out_sizes = x.sizes().vec();
        out_sizes.back() = n;
        const at::Tensor x2 = x.reshape({rows, k});
        if (rows <= kKernelRows) return gemv_int4(x2, l.weight, l.scales, l.zeros, l.bias).view(out_sizes);
        // [rows, N] kKernelRows at a time: each row's bits are those it gets alone
        std::vector<at::Tensor> parts;
        for (int64_t i = 0; i < rows; i += kKernelRows)
            parts.push_back(gemv_int4(x2.narrow(0, i, std::min(kKernelRows, rows - i)), l.weight, l.scales, l.zeros, l.bias));
        return at::cat(parts, 0).view(out_sizes);
    }
    if (x.device().is_cpu() && x.scalar_type() == at::kBFloat16 && !gemv_paused() && gemv_int8_supported())
        return project_int4_dequantized(x, l);
    // CUDA, a GemvPause, other dtypes: the matrix dequantized for this call
    return project(x, dequantized(l, x.scalar_type()), l.bias);
}

}  // namespace

bool int4_blocks_pay(const Linear& l) {
    return l.int4() && !l.int4_blocked() && l.weight.device().is_cpu() && l.weight.size(0) % kInt4BlockRows == 0 &&
           l.in_features() % 8 == 0 && l.weight.is_contiguous() && l.scales.is_contiguous() && l.zeros.is_contiguous() &&
           gemv_int4_blocks_pay();
}

Linear int4_blocks(const Linear& l) {
    REEF_CHECK(l.int4() && l.out_features() % kInt4BlockRows == 0, "int4_blocks: needs an int4 Linear with N a multiple of 16");
    if (l.int4_blocked()) return l;
    // w[b][c][r][i] = row 16b + r's byte 4c + i; s, z [b][g][r] (kernels/gemv_int4_blocks.h)
    const int64_t nb = l.weight.size(0) / kInt4BlockRows, k = l.in_features(), groups = l.scales.size(1);
    const bool cpu = l.weight.device().is_cpu();
    auto fresh = [&](at::IntArrayRef sizes, at::ScalarType dtype) {
        return cpu ? empty_weight_memory(sizes, dtype) : at::empty(sizes, l.weight.options().dtype(dtype));
    };
    at::Tensor w = fresh({nb, k / 8, 64}, at::kByte), s = fresh({nb, groups, 16}, at::kBFloat16),
               z = fresh({nb, groups, 16}, at::kBFloat16);
    w.view({nb, k / 8, 16, 4}).copy_(l.weight.view({nb, 16, k / 8, 4}).permute({0, 2, 1, 3}));
    s.copy_(l.scales.view({nb, 16, groups}).permute({0, 2, 1}));
    z.copy_(l.zeros.view({nb, 16, groups}).permute({0, 2, 1}));
    return Linear{w, s, l.bias, z};
}

Linear int4_cpu_layout(const Linear& l) { return int4_blocks_pay(l) ? int4_blocks(l) : l; }

Linear int4_rows(const Linear& l) {
    REEF_CHECK(l.int4(), "int4_rows: needs an int4 Linear");
    if (!l.int4_blocked()) return l;
    // reshape's copies are already contiguous tensors of their own: the rows are a temporary of
    // dequantized(), not weights decode streams, so they are not copied again into weight memory
    const Int4Rows r = int4_blocks_as_rows(l.weight, l.scales, l.zeros);
    return Linear{r.w, r.s, l.bias, r.z};
}

at::Tensor project(const at::Tensor& x, const Linear& l) {
    if (l.int4()) return project_int4(x, l);
    if (!l.int8()) return project(x, l.weight, l.bias);
    const int64_t n = l.weight.size(0), k = l.weight.size(1);
    REEF_CHECK(x.size(-1) == k, "project: x's last dim must be the int8 weight's K");
    const int64_t rows = x.numel() / k;
    auto out_sizes = x.sizes().vec();
    out_sizes.back() = n;
    if (x.device().is_cpu() && rows <= kKernelRows && !gemv_paused() && gemv_int8_supported()) {
        RECORD_FUNCTION("reef::gemv_int8", std::vector<c10::IValue>());
        // [rows, K] -> [rows, N] in x's dtype, fp32 sums rounded once. An fp32 x (the reference
        // precision) gets quantize.py's fp32 products; a bf16/fp16 x, already rounded to 8/11 bits,
        // the int16-input kernel, twice the weights per instruction.
        return gemv_int8(x.reshape({rows, k}), l.weight, l.scales, l.bias, x.scalar_type() == at::kFloat).view(out_sizes);
    }
    // quantize.py: F.linear(input, self.weight.to(dtype=input.dtype)) * self.scales; int8 values are
    // exact in bf16, and the scales came from bf16
    const at::Tensor y = project(x, l.weight.to(x.scalar_type())) * l.scales.to(x.scalar_type());
    return l.bias.defined() ? y + l.bias : y;
}

bool project_rows_into_apply(const Linear& l, at::ScalarType dtype) {
    // the conditions under which project() of one CPU row takes the kernel that project_rows_into calls
    if (!l.weight.device().is_cpu() || gemv_paused() || (dtype != at::kFloat && dtype != at::kBFloat16)) return false;
    if (l.bias.defined() && l.bias.scalar_type() != dtype) return false;
    const int64_t k = l.in_features();
    if (l.int4())
        return gemv_int8_supported() && l.scales.size(1) <= int4_kernel_max_groups() && k % l.scales.size(1) == 0 &&
               int4_group_supported(k / l.scales.size(1));
    if (l.int8()) return gemv_int8_supported();
    return l.weight.scalar_type() == dtype && gemv_supported(dtype) && l.weight.dim() == 2 && k % 32 == 0 &&
           l.weight.is_contiguous();
}

void project_rows_into(const at::Tensor& x, const Linear& l, at::Tensor& out) {
    // x: [M, K] -> out [M, N] values (x already 2-d: a view would be an op)
    const int64_t k = l.in_features();
    REEF_CHECK(project_rows_into_apply(l, x.scalar_type()) && x.dim() == 2 && x.size(0) >= 1 &&
                   x.size(0) <= kKernelRows && x.size(1) == k && x.is_contiguous(),
               "project_rows_into: needs 1-8 contiguous CPU rows [M, K] that the kernels take");
    if (l.int4()) {
        RECORD_FUNCTION("reef::gemv_int4", std::vector<c10::IValue>());
        gemv_int4_into(x, l.weight, l.scales, l.zeros, l.bias, out);
    } else if (l.int8()) {
        RECORD_FUNCTION("reef::gemv_int8", std::vector<c10::IValue>());
        gemv_int8_into(x, l.weight, l.scales, l.bias, x.scalar_type() == at::kFloat, out);
    } else {
        RECORD_FUNCTION(x.size(0) == 1 ? "reef::gemv" : "reef::gemv_batch", std::vector<c10::IValue>());
        gemv_into(x, l.weight, l.bias, out);
    }
}

at::Tensor project_rows(const at::Tensor& x, const Linear& l) {
    // x: [M, 1, K] -> [M, 1, N]; the int8 and int4 kernels give each row the bits they give it alone
    if (!l.quantized()) return project_rows(x, l.weight, l.bias);
    if (x.size(0) <= kKernelRows || !x.device().is_cpu()) return project(x, l);
    std::vector<at::Tensor> rows;
    for (int64_t i = 0; i < x.size(0); i += kKernelRows)
        rows.push_back(project(x.narrow(0, i, std::min(kKernelRows, x.size(0) - i)), l));
    return at::cat(rows, 0);
}

at::Tensor dequantized(const Linear& l, at::ScalarType dtype) {
    if (l.int4_blocked()) return dequantized(int4_rows(l), dtype);
    if (l.int4()) {
        if (!l.weight.device().is_cpu()) {
            // [N, K/2] bytes -> [N, K/2, 2] nibbles (low first) -> [N, K]; scales, zeros [N, G] -> [N, G, 1]
            const int64_t n = l.weight.size(0), k = l.in_features(), groups = l.scales.size(1);
            const at::Tensor w = l.weight.to(at::kInt);
            const at::Tensor q = at::stack({at::bitwise_and(w, 15), at::bitwise_right_shift(w, 4)}, -1).view({n, groups, k / groups});
            const at::Tensor s = l.scales.to(at::kFloat).unsqueeze(-1), z = l.zeros.to(at::kFloat).unsqueeze(-1);
            return ((q.to(at::kFloat) - 8) * s + z).view({n, k}).to(dtype);
        }
        at::Tensor out = at::empty({l.weight.size(0), l.in_features()}, l.weight.options().dtype(dtype));
        if (dtype == at::kBFloat16 && gemv_int8_supported()) {
            dequantize_int4_bf16(l.weight, l.scales, l.zeros, 0, out);  // the SIMD lookups (kernels/gemv_int4.h)
            return out;
        }
        if (dtype == at::kBFloat16) dequantize_int4_rows<c10::BFloat16>(l, out);
        else if (dtype == at::kHalf) dequantize_int4_rows<c10::Half>(l, out);
        else if (dtype == at::kDouble) dequantize_int4_rows<double>(l, out);
        else {
            REEF_CHECK(dtype == at::kFloat, "dequantized: int4 to a float dtype");
            dequantize_int4_rows<float>(l, out);
        }
        return out;
    }
    if (!l.int8()) return l.weight.to(dtype);
    return (l.weight.to(at::kFloat) * l.scales.unsqueeze(1)).to(dtype);  // [N, K]·[N, 1]
}

}  // namespace reef
