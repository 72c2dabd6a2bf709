// make_linear and Linear::nbytes (nn/linear.h): the checks a projection's stored tensors pass before
// the model holds them. Apart from linear.cpp's arithmetic, so the model-folder fuzzer
// (tests/fuzz/fuzz_safetensors.cpp) runs them without the kernels.
#include <string>

#include "check.h"
#include "nn/linear.h"

namespace reef {
namespace {

std::string shape_of(const at::Tensor& t) { return std::string(c10::str(t.sizes())); }

// an int4 set: uint8 [N, K/2], bf16 scales and zeros [N, G], K / G a supported group size
void check_int4(const at::Tensor& weight, const at::Tensor& scales, const at::Tensor& zeros, const std::string& what) {
    if (!scales.defined())
        throw ReefError(ErrorCode::ShapeMismatch, what + ".weight is int4 (packed uint8) but " + what + ".scales is missing",
                        "an int4 model stores a bf16 scale and zero per group of weights (reef-cli quantize --format int4)");
    if (weight.dim() != 2 || scales.dim() != 2 || zeros.dim() != 2 || scales.sizes() != zeros.sizes() ||
        scales.size(0) != weight.size(0) || scales.size(1) < 1)
        throw ReefError(ErrorCode::ShapeMismatch, what + ": the int4 weight " + shape_of(weight) + " needs scales and zeros [" +
                                                      std::to_string(weight.dim() ? weight.size(0) : 0) +
                                                      ", groups], not " + shape_of(scales) + " and " + shape_of(zeros));
    if (scales.scalar_type() != at::kBFloat16 || zeros.scalar_type() != at::kBFloat16)
        throw ReefError(ErrorCode::ShapeMismatch, what + ".scales and .zeros must be bf16 (as quantize.py writes them), not " +
                                                      std::string(c10::toString(scales.scalar_type())) + " and " +
                                                      std::string(c10::toString(zeros.scalar_type())));
    const int64_t k = 2 * weight.size(1), groups = scales.size(1);
    if (k % groups != 0 || !int4_group_supported(k / groups))
        throw ReefError(ErrorCode::ShapeMismatch,
                        what + ": " + std::to_string(groups) + " groups do not split the " + std::to_string(k) +
                            " inputs into groups of 32, 64, 128 or 256 weights");
    if (!at::isfinite(scales).all().item<bool>() || (scales <= 0).any().item<bool>() || !at::isfinite(zeros).all().item<bool>())
        throw ReefError(ErrorCode::CorruptModel, what + ".scales or .zeros holds a value that is not finite (or a scale <= 0)");
}

}  // namespace

int64_t Linear::nbytes() const {
    int64_t n = 0;
    for (const at::Tensor* t : {&weight, &scales, &bias, &zeros})
        if (t->defined()) n += int64_t(t->nbytes());
    return n;
}

Linear make_linear(at::Tensor weight, at::Tensor scales, at::Tensor bias, const std::string& what, at::Tensor zeros) {
    if (!weight.defined()) throw ReefError(ErrorCode::ShapeMismatch, what + ": missing weight");
    if (weight.scalar_type() == at::kByte || zeros.defined()) {
        if (weight.scalar_type() != at::kByte)
            throw ReefError(ErrorCode::ShapeMismatch, what + ".zeros is present but " + what + ".weight is " +
                                                          std::string(c10::toString(weight.scalar_type())) +
                                                          ", not int4 (packed uint8)");
        if (!zeros.defined())
            throw ReefError(ErrorCode::ShapeMismatch, what + ".weight is int4 (packed uint8) but " + what + ".zeros is missing",
                            "an int4 model stores a bf16 scale and zero per group of weights (reef-cli quantize --format int4)");
        check_int4(weight, scales, zeros, what);
        return Linear{std::move(weight), scales.contiguous(), std::move(bias), zeros.contiguous()};
    }
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
    return Linear{std::move(weight), std::move(scales), std::move(bias), {}};
}

}  // namespace reef
