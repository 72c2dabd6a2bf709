// Convolutional building blocks of the modded DAC (spec §5.3), as functions over fused weights.
// Tensors are channels-first: x [B, C, L].
#pragma once
#include <ATen/ATen.h>

#include <map>
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

// Streaming decode: the samples each causal conv needs from before the current chunk, by the
// conv's weight prefix. A causal conv keeps its last k_eff − 1 inputs; a causal transposed conv
// keeps the k − stride outputs that overlap the next chunk. Chunks decoded through one ConvStream
// give the samples the whole sequence would (elementwise ops and per-position norms carry nothing).
using ConvStream = std::map<std::string, at::Tensor>;

// dac Snake1d: x + (alpha + 1e-9)^-1 * sin(alpha * x)^2, alpha [1, C, 1].
at::Tensor snake(const at::Tensor& x, const at::Tensor& alpha);

// CausalConvNet: left-pad (k_eff - stride) zeros, right-pad up to a whole number of strides, then
// an unpadded conv1d. weight [C_out, C_in/groups, k]. Length L -> ceil(L / stride).
// With `state` (stride 1 only): the left context comes from the previous chunk instead of zeros.
at::Tensor causal_conv1d(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias, int64_t stride = 1,
                         int64_t dilation = 1, int64_t groups = 1, at::Tensor* state = nullptr);
// CausalTransConvNet: conv_transpose1d (weight [C_in, C_out, k]), then drop k - stride samples
// on the right. Length L -> L * stride.
// With `state`: the previous chunk's trimmed tail is added to this chunk's first k − s samples,
// and this chunk's tail is kept for the next.
at::Tensor causal_conv_transpose1d(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                   int64_t stride, at::Tensor* state = nullptr);

// "<prefix>.conv.{weight,bias}" applied as a causal conv (stride/dilation/groups as given).
at::Tensor conv_at(const CodecWeights& w, const std::string& prefix, const at::Tensor& x, int64_t stride = 1,
                   int64_t dilation = 1, int64_t groups = 1, ConvStream* stream = nullptr);
// "<prefix>.conv.{weight,bias}" as a causal transposed conv.
at::Tensor conv_transpose_at(const CodecWeights& w, const std::string& prefix, const at::Tensor& x, int64_t stride,
                             ConvStream* stream = nullptr);
at::Tensor snake_at(const CodecWeights& w, const std::string& prefix, const at::Tensor& x);

// ResidualUnit(dim, dilation): x + conv1x1(snake(conv7_d(snake(x)))); lengths equal (causal).
at::Tensor residual_unit(const CodecWeights& w, const std::string& prefix, const at::Tensor& x, int64_t dilation,
                         ConvStream* stream = nullptr);
// ConvNeXtBlock(dim): causal depthwise conv k7, LayerNorm(1e-6), Linear 4x, exact GELU, Linear,
// * gamma, + x. x [B, C, L] -> [B, C, L].
at::Tensor convnext_block(const CodecWeights& w, const std::string& prefix, const at::Tensor& x,
                          ConvStream* stream = nullptr);

}  // namespace reef
