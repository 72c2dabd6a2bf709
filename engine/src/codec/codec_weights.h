// The codec's state dict: the key/shape list derived from the config (spec §5.7), reading
// codec.pth / safetensors, unwrapping fish-speech's containers and fusing weight norm at load.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "checkpoint/tensor_map.h"
#include "codec/codec_config.h"

namespace reef {

// How a parameter is stored in fish-speech's codec.pth.
enum class WeightNormKind {
    None,            // a plain tensor
    Parametrization, // <base>.parametrizations.weight.original0 (g) / original1 (v): the causal convs
    Legacy,          // <base>.weight_g / <base>.weight_v: dac's WNConv1d (VQ in_proj / out_proj)
};

// What initialises a parameter in a demo model (so norms, scales and g are not left at identity).
enum class ParamRole { Weight, Bias, Norm, NormBias, Scale, Alpha, Codebook };

struct CodecParam {
    std::string key;              // fused name, e.g. "decoder.model.0.conv.weight"
    std::vector<int64_t> shape;   // fused shape (ConvTranspose1d: in, out, k)
    WeightNormKind weight_norm = WeightNormKind::None;
    ParamRole role = ParamRole::Weight;
};

// Every tensor of the DAC module tree for this config, in fused form.
std::vector<CodecParam> codec_params(const CodecConfig& config);
ExpectedShapes codec_expected_shapes(const CodecConfig& config);

// Unwraps an optional "state_dict." level and keeps/strips "generator." keys when any key has
// them (load_codec_model, spec §5.6), then fuses both weight-norm encodings into "<base>.weight":
// W = g * v / ||v||, the norm over every dim but 0 (for ConvTranspose1d dim 0 is the *input*
// channel, so g is (in, 1, 1)). Throws ReefError naming `what` and the key for a lone g or v or a
// g whose shape does not match v. Fused tensors are float32.
// With `expected` (the config's shapes), only pairs whose fused key is expected are fused, and
// v's shape is checked against it first: fusing materialises a float32 copy, so a hostile file
// with thousands of stray pairs, or one huge pair, is refused before it costs memory.
TensorMap prepare_codec_state_dict(TensorMap raw, const std::string& what, const ExpectedShapes* expected = nullptr);

// The inverse for writers: splits fused weights back into the stored encoding of `params`.
// (Used by the demo writer with its own g and v; exposed for tests.)
std::string weight_norm_g_key(const std::string& fused_key, WeightNormKind kind);
std::string weight_norm_v_key(const std::string& fused_key, WeightNormKind kind);

// codec.pth (torch zip) or *.safetensors, by extension. Throws ModelNotFound when absent.
// With `keep`: only the tensors it accepts (by name as stored), the others never read.
TensorMap read_codec_file(const std::string& path, const std::function<bool(const std::string&)>& keep = {});

// The weights only encoding uses (the encoder, the quantizer's downsampling and pre_module): more
// than half of the codec's parameters (S2's: 207 M of 391 M), which synthesis without a reference
// clip to encode never reads. By name as stored or fused.
bool codec_encode_only(const std::string& key);
// The block a weight belongs to, by name as stored or fused ("encoder.block.1",
// "quantizer.pre_module.layers.3", "decoder.model.4"; a name without a numbered part: all of it
// but the last part): the unit the codec is read and converted in, so that the file's float32
// storages are in memory a block at a time, not all at once.
std::string codec_group(const std::string& key);
// <dir>/codec.pth, else <dir>/codec.safetensors; a path to a file is returned as is.
std::string find_codec_file(const std::string& model_dir);

}  // namespace reef
