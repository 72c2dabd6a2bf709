// Convolutional building blocks of the modded DAC (spec §5.3), as functions over fused weights.
// Tensors are channels-first: x [B, C, L].
#pragma once
#include <ATen/ATen.h>

#include <string>

#include "checkpoint/tensor_map.h"

namespace reef {

// Fused, verified codec weights on the compute device and dtype, looked up by fish-speech's key.
class CodecWeights {
public:
    CodecWeights() = default;
    explicit CodecWeights(TensorMap tensors) : m_tensors(std::move(tensors)) {}
    // Throws ReefError(Internal) naming the key: after verification a miss is a bug.
    const at::Tensor& operator()(const std::string& key) const;
    const TensorMap& map() const { return m_tensors; }

private:
    TensorMap m_tensors;
};

// dac Snake1d: x + (alpha + 1e-9)^-1 * sin(alpha * x)^2, alpha [1, C, 1].
at::Tensor snake(const at::Tensor& x, const at::Tensor& alpha);

// CausalConvNet: left-pad (k_eff - stride) zeros, right-pad up to a whole number of strides, then
// an unpadded conv1d. weight [C_out, C_in/groups, k]. Length L -> ceil(L / stride).
at::Tensor causal_conv1d(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias, int64_t stride = 1,
                         int64_t dilation = 1, int64_t groups = 1);
// CausalTransConvNet: conv_transpose1d (weight [C_in, C_out, k]), then drop k - stride samples
// on the right. Length L -> L * stride.
at::Tensor causal_conv_transpose1d(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                   int64_t stride);

// "<prefix>.conv.{weight,bias}" applied as a causal conv (stride/dilation/groups as given).
at::Tensor conv_at(const CodecWeights& w, const std::string& prefix, const at::Tensor& x, int64_t stride = 1,
                   int64_t dilation = 1, int64_t groups = 1);
at::Tensor snake_at(const CodecWeights& w, const std::string& prefix, const at::Tensor& x);

// ResidualUnit(dim, dilation): x + conv1x1(snake(conv7_d(snake(x)))); lengths equal (causal).
at::Tensor residual_unit(const CodecWeights& w, const std::string& prefix, const at::Tensor& x, int64_t dilation);
// ConvNeXtBlock(dim): causal depthwise conv k7, LayerNorm(1e-6), Linear 4x, exact GELU, Linear,
// * gamma, + x. x [B, C, L] -> [B, C, L].
at::Tensor convnext_block(const CodecWeights& w, const std::string& prefix, const at::Tensor& x);

}  // namespace reef
