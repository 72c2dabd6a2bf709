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

std::string shape_of(const at::Tensor& t) { return std::string(c10::str(t.sizes())); }

}  // namespace

int64_t Linear::nbytes() const {
    int64_t n = 0;
    for (const at::Tensor* t : {&weight, &scales, &bias})
        if (t->defined()) n += int64_t(t->nbytes());
    return n;
}

Linear make_linear(at::Tensor weight, at::Tensor scales, at::Tensor bias, const std::string& what) {
    if (!weight.defined()) throw ReefError(ErrorCode::ShapeMismatch, what + ": missing weight");
    const bool int8 = weight.scalar_type() == at::kChar;
    if (int8 && !scales.defined())
        throw ReefError(ErrorCode::ShapeMismatch, what + ".weight is int8 but " + what + ".scales is missing",
                        "an int8 checkpoint stores one scale per output row beside each weight (quantize.py)");
    if (!int8 && scales.defined())
        throw ReefError(ErrorCode::ShapeMismatch,
                        what + ".scales is present but " + what + ".weight is " + std::string(c10::toString(weight.scalar_type())) +
                            ", not int8");
    if (int8) {
        if (weight.dim() != 2 || scales.dim() != 1 || scales.size(0) != weight.size(0))
            throw ReefError(ErrorCode::ShapeMismatch, what + ".scales is " + shape_of(scales) + " but the int8 weight " +
                                                          shape_of(weight) + " needs one scale per row");
        if (!at::isFloatingType(scales.scalar_type()))
            throw ReefError(ErrorCode::ShapeMismatch, what + ".scales must be floating point, not " +
                                                          std::string(c10::toString(scales.scalar_type())));
        scales = scales.to(at::kFloat).contiguous();
        if (!at::isfinite(scales).all().item<bool>() || (scales <= 0).any().item<bool>())
            throw ReefError(ErrorCode::CorruptModel, what + ".scales holds a value that is not a positive finite number");
    }
    return Linear{std::move(weight), std::move(scales), std::move(bias)};
}

at::Tensor project(const at::Tensor& x, const Linear& l) {
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
    // x: [M, 1, K] -> [M, 1, N]; the int8 kernel gives each row the bits it gives it alone
    if (!l.int8()) return project_rows(x, l.weight, l.bias);
    if (x.size(0) <= kKernelRows || !x.device().is_cpu()) return project(x, l);
    std::vector<at::Tensor> rows;
    for (int64_t i = 0; i < x.size(0); i += kKernelRows)
        rows.push_back(project(x.narrow(0, i, std::min(kKernelRows, x.size(0) - i)), l));
    return at::cat(rows, 0);
}

at::Tensor dequantized(const Linear& l, at::ScalarType dtype) {
    if (!l.int8()) return l.weight.to(dtype);
    return (l.weight.to(at::kFloat) * l.scales.unsqueeze(1)).to(dtype);  // [N, K]·[N, 1]
}

}  // namespace reef
