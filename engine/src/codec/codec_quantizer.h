// DownsampleResidualVectorQuantize (fish_speech/models/dac/rvq.py) and dac's VectorQuantize:
// codes <-> latent, and the 4x down/upsampling around the code frame rate (spec §5.2, §5.5).
#pragma once
#include <ATen/ATen.h>

#include "codec/codec_config.h"
#include "codec/codec_layers.h"

namespace reef {

// Clamp like quantizer.decode (row 0 <= semantic_codebook_size-1, rows 1.. <= codebook_size-1) but
// on a copy, never in place. codes: [B, N, T] int64. Throws InvalidArgument on negative codes.
at::Tensor clamp_codes(const at::Tensor& codes, const CodecConfig& config);
// z = semantic.from_codes(codes[:, :1]) + quantizer.from_codes(codes[:, 1:]).
// codes: [B, N, T] int64 (clamped) -> z: [B, D, T] in the weights' dtype.
at::Tensor quantizer_from_codes(const CodecWeights& w, const CodecConfig& config, const at::Tensor& codes);
// Semantic VQ then the residual RVQ on what is left. z: [B, D, T] (after pre_module) -> [B, N, T].
at::Tensor quantizer_to_codes(const CodecWeights& w, const CodecConfig& config, const at::Tensor& z);
// 2 x [causal conv k=s=f, ConvNeXt]: [B, D, L] -> [B, D, L/4].
at::Tensor quantizer_downsample(const CodecWeights& w, const CodecConfig& config, const at::Tensor& z);
// 2 x [causal transposed conv k=s=f, ConvNeXt]: [B, D, T] -> [B, D, 4T].
at::Tensor quantizer_upsample(const CodecWeights& w, const CodecConfig& config, const at::Tensor& z,
                              ConvStream* stream = nullptr);

}  // namespace reef
