#include "nn/linear.h"

#include <ATen/record_function.h>

#include <string>
#include <vector>

#include "check.h"
#include "nn/gemv.h"

namespace reef {
namespace {

// Up to this many rows at once the int8 kernel (each weight row read once for all of them) beats
// dequantizing the matrix for a GEMM; decode has 1 row per sequence and batches up to 8.
constexpr int64_t kKernelRows = 8;

// x [..., K] -> [..., N] through an int4 Linear (see project(x, Linear))
at::Tensor project_int4(const at::Tensor& x, const Linear& l) {
    const int64_t n = l.weight.size(0), k = l.in_features();
    REEF_CHECK(x.size(-1) == k, "project: x's last dim must be the int4 weight's K");
    const int64_t rows = x.numel() / k;
    if (x.device().is_cpu() && rows <= kKernelRows && !gemv_paused() && gemv_int8_supported()) {
        RECORD_FUNCTION("reef::gemv_int4", std::vector<c10::IValue>());
        auto out_sizes = x.sizes().vec();
        out_sizes.back() = n;
        const at::Tensor y = gemv_int4(x.reshape({rows, k}).to(at::kFloat), l.weight, l.scales, l.zeros,
                                       l.bias.defined() ? l.bias.to(at::kFloat) : at::Tensor());
        return y.to(x.scalar_type()).view(out_sizes);
    }
    // several rows (prefill), CUDA, a GemvPause: the matrix dequantized for this call
    return project(x, dequantized(l, x.scalar_type()), l.bias);
}

}  // namespace

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
        // [rows, K] fp32 -> [rows, N] fp32 -> x's dtype, rounded once. An fp32 x (the reference
        // precision) gets quantize.py's fp32 products; a bf16/fp16 x, already rounded to 8/11 bits,
        // the int16-input kernel, twice the weights per instruction.
        const at::Tensor y = gemv_int8(x.reshape({rows, k}).to(at::kFloat), l.weight, l.scales,
                                       l.bias.defined() ? l.bias.to(at::kFloat) : at::Tensor(),
                                       x.scalar_type() == at::kFloat);
        return y.to(x.scalar_type()).view(out_sizes);
    }
    // quantize.py: F.linear(input, self.weight.to(dtype=input.dtype)) * self.scales; int8 values are
    // exact in bf16, and the scales came from bf16
    const at::Tensor y = project(x, l.weight.to(x.scalar_type())) * l.scales.to(x.scalar_type());
    return l.bias.defined() ? y + l.bias : y;
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
    if (l.int4()) {
        // [N, K/2] bytes -> [N, K/2, 2] nibbles (low first) -> [N, K]; scales, zeros [N, G] -> [N, G, 1]
        const int64_t n = l.weight.size(0), k = l.in_features(), groups = l.scales.size(1);
        const at::Tensor w = l.weight.to(at::kInt);
        const at::Tensor q = at::stack({at::bitwise_and(w, 15), at::bitwise_right_shift(w, 4)}, -1).view({n, groups, k / groups});
        const at::Tensor s = l.scales.to(at::kFloat).unsqueeze(-1), z = l.zeros.to(at::kFloat).unsqueeze(-1);
        return ((q.to(at::kFloat) - 8) * s + z).view({n, k}).to(dtype);
    }
    if (!l.int8()) return l.weight.to(dtype);
    return (l.weight.to(at::kFloat) * l.scales.unsqueeze(1)).to(dtype);  // [N, K]·[N, 1]
}

}  // namespace reef
